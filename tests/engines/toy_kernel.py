"""A tiny kernel for tests/test_kernels.py: registers with the loader like the real ones,
and its warm-up notes which process ran it (``TOY_KERNEL_LOG``)."""
import os

from hexengine import kernels


def _compile(compilers: kernels.Compilers) -> None:
    global add
    add = compilers.jit(add)


def add(a, b):
    return a + b


def _warm_up() -> None:
    assert add(2, 3) == 5
    with open(os.environ["TOY_KERNEL_LOG"], "a", encoding="ascii") as f:
        f.write(f"{os.getpid()}\n")


ready = kernels.register("toy", _compile)
kernels.warm_up("toy", _warm_up)
