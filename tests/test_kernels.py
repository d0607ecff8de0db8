"""The kernel loader: a kernel whose numba cache is cold is compiled by a child process (so
the engine's threads, e.g. the one reading ``# interrupt``, are never starved of the
interpreter lock), then loaded from the cache; a warm cache is loaded directly."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LOAD = """
import os, sys
from hexengine import kernels
from tests.engines import toy_kernel
kernels.start(wait=True)
assert toy_kernel.ready(), "the kernel did not load"
print(os.getpid())
"""


def load(cache: Path, log: Path) -> int:
    """Load the toy kernel in a fresh process with numba's cache in ``cache``: its pid."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), TOY_KERNEL_LOG=str(log),
               PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", LOAD], env=env, capture_output=True,
                         text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def test_a_cold_kernel_compiles_in_a_child_and_a_warm_one_loads_directly(tmp_path):
    cache, log = tmp_path / "numba", tmp_path / "warm-ups.log"
    engine = load(cache, log)
    runs = [int(line) for line in log.read_text().split()]
    # the warm-up ran first in another process (the compiling child), then here
    assert len(runs) == 2 and runs[0] != engine and runs[1] == engine, (runs, engine)
    assert list(cache.rglob("toy_kernel.add-*.nbi")), "the child left no cache"
    log.unlink()
    engine = load(cache, log)
    assert [int(line) for line in log.read_text().split()] == [engine]  # no child this time


ORDER = """
from hexengine import kernels
order = []
for name, urgent in (("a", False), ("b", True), ("c", False), ("d", False)):
    kernels.register(name, lambda compilers, name=name: order.append(name), urgent=urgent)
kernels.prefer("d", "c")
kernels.start(wait=True)
print(" ".join(order))
"""


def test_preferred_kernels_load_first_then_urgent_ones_then_the_rest():
    """``prefer`` (the solver's commands ask for the H-search and fill-in) puts kernels
    ahead of the urgent ones, in the order they registered."""
    out = subprocess.run([sys.executable, "-c", ORDER], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["c", "d", "b", "a"]


BROKEN = """
from hexengine import kernels
def compile(compilers):
    raise RuntimeError("no luck")
ready = kernels.register("broken", compile)
kernels.start(wait=True)
print(ready(), kernels.status()["broken"])
"""


def test_a_kernel_that_fails_to_load_says_so_and_stays_in_python():
    """A failing compile or warm-up leaves the kernel's Python fallback, with a line on
    stderr (a silent fallback once made a diagnostic read the wrong circuit)."""
    out = subprocess.run([sys.executable, "-c", BROKEN], capture_output=True, text=True,
                         timeout=120, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "python"]
    assert "the broken kernel did not load" in out.stderr
    assert "no luck" in out.stderr


FROZEN = """
import gc
from hexengine import kernels
import hexengine.player  # the engine's modules, which register every kernel
before = gc.get_freeze_count()
kernels.start(wait=True)
print(before, gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_what_loaded_at_start_is_left_out_of_the_collectors_full_passes():
    """Once the kernels have loaded, everything the engine holds is frozen: a full pass of
    the collector over it took 50-130 ms, inside whichever genmove it fell in."""
    out = subprocess.run([sys.executable, "-c", FROZEN], capture_output=True, text=True,
                         timeout=300, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    before, frozen, tracked = map(int, out.stdout.split())
    assert before == 0 and frozen > 10 * max(tracked, 1), (before, frozen, tracked)
