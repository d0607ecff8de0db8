import pytest

from tests.htpclient import HtpClient


@pytest.fixture
def engine():
    """A fresh engine with short thinking time; closed (EOF) after the test."""
    client = HtpClient("--time", "1")
    yield client
    client.close()


@pytest.fixture
def make_engine():
    """Factory for engines with custom command-line options."""
    clients = []

    def make(*args: str) -> HtpClient:
        client = HtpClient(*args)
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
