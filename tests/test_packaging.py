"""The wheel a package index would get: built from this checkout, installed into a fresh
virtual environment, its entry points working from outside the checkout."""
from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

import hexengine

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A virtual environment holding only the wheel (its dependencies come from the
    system site, so no network is needed for them); returns its bin directory."""
    tmp = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "-w", str(tmp / "dist"), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    wheels = list((tmp / "dist").glob("hexengine-*.whl"))
    assert len(wheels) == 1
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(tmp / "env")
    bin_dir = tmp / "env" / "bin"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(bin_dir / "python"),
                           "install", "--no-deps", "--no-index", "-q", str(wheels[0])],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return bin_dir


def _run(args: list, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def test_the_wheel_carries_its_metadata_and_books(installed):
    wheel = next((installed.parent.parent / "dist").glob("*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(f"hexengine-{hexengine.__version__}.dist-info/METADATA").decode()
        entry_points = z.read(
            f"hexengine-{hexengine.__version__}.dist-info/entry_points.txt").decode()
    assert "hexengine/data/book-6x6.json.gz" in names
    assert any(n.startswith("protocol/match/") for n in names)
    assert not any(n.startswith(("tests/", "scripts/")) for n in names)
    for field in ("Summary: A Hex-playing engine", "License: MIT",
                  "Classifier: Topic :: Games/Entertainment :: Board Games",
                  "Requires-Dist: numba", "Requires-Python: >=3.10",
                  "Description-Content-Type: text/markdown"):
        assert field in meta, field
    assert "hexengine = protocol.cli:main" in entry_points
    assert "hex-match = protocol.match.cli:main" in entry_points
    assert "hex-regress = protocol.regress.cli:main" in entry_points
    assert "hex-check = protocol.check.cli:main" in entry_points
    assert "hexengine/data/value.npz" in names


def test_the_installed_engine_runs_from_anywhere(installed, tmp_path):
    where = _run([installed / "python", "-c", "import hexengine, protocol; "
                  "print(hexengine.__file__); print(protocol.__file__)"], tmp_path)
    assert where.returncode == 0, where.stderr
    for line in where.stdout.split():
        assert str(installed.parent) in line  # the wheel's copy, not the checkout's
    version = _run([installed / "hexengine", "--version"], tmp_path)
    assert version.stdout.strip() == f"hexengine {hexengine.__version__}"
    session = _run([installed / "hexengine", "--quiet", "--time", "0.2"], tmp_path,
                   "name\nboardsize 5\ngenmove b\nshowboard\nquit\n")
    assert session.returncode == 0, session.stderr
    replies = session.stdout.split("\n\n")
    assert replies[0] == "= hexengine" and replies[2].startswith("= ")
    assert all(r.startswith("=") for r in replies[:4])
    match = _run([installed / "hex-match", "--help"], tmp_path)
    assert match.returncode == 0 and "--engine" in match.stdout
    tst = tmp_path / "one.tst"
    stones = "".join(f"play b {c}\n" for c in ("d1", "d2", "d3", "d5", "d6", "d7"))
    tst.write_text(f"boardsize 7\n{stones}play w a1\n1 genmove b\n#? [d4]\n")
    regress = _run([installed / "hex-regress", f"{installed / 'hexengine'} --quiet", tst],
                   tmp_path)
    assert regress.returncode == 0, regress.stdout + regress.stderr
    assert "1 passed, 0 FAIL" in regress.stdout, regress.stdout
