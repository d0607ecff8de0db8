import pytest

from tests.htpclient import HtpClient


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels():
    """Compile numba's kernels (hexengine.kernels) once, before any engine starts: until
    the disk cache exists, every engine process would compile its own (~12 s of CPU).
    Importing the evaluations and the tree search registers every kernel the engine
    loads."""
    import hexengine.evaluation  # noqa: F401
    import hexengine.mcts  # noqa: F401
    from hexengine import kernels
    kernels.start(wait=True)


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
