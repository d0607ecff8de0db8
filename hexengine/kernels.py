"""The compiled kernels (numba), loaded together in one background thread.

Three kernels: the resistance circuit (``evaluation.circuit``), the H-search
(``knowledge.hsearch``) and the circuit on its graph (``evaluation.vc_graph``). numba
compiles each the first time (a few seconds, then cached on disk beside its module:
0.2–0.5 s to import numba and load them), so the engine loads them in a background
thread when it starts (``start``) and the Python or numpy code answers until each one is
ready. Without numba, or if compiling fails, it answers throughout.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

_done = threading.Event()  # the loading thread has finished, with or without kernels
_tried = {"circuit": threading.Event(), "hsearch": threading.Event(),
          "vc_graph": threading.Event()}  # each load attempted
_lock = threading.Lock()
_started = False


class Ready:
    """Whether one kernel can be called (set once it has loaded); ``off`` turns it off
    within a block, so that the Python or numpy code answers (comparisons, benchmarks)."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def __call__(self) -> bool:
        return self._event.is_set()

    def set(self) -> None:
        self._event.set()

    @contextmanager
    def off(self) -> Iterator[None]:
        was_ready = self._event.is_set()
        self._event.clear()
        try:
            yield
        finally:
            if was_ready:
                self._event.set()


def start(wait: bool = False) -> None:
    """Load (or compile) every kernel in a background thread, and with ``wait`` wait for
    them; a no-op when already started.  numba is imported there too (~0.4 s), so an
    engine starts as fast without it."""
    global _started
    with _lock:
        if not _started:
            _started = True
            threading.Thread(target=_load, name="kernels-compile", daemon=True).start()
    if wait:
        _done.wait()


def wait(timeout: float, kernel: str = "") -> bool:
    """Wait up to ``timeout`` seconds, if loading has started, for ``kernel`` ("circuit",
    "hsearch") or by default all of them to be loaded or given up; True when they are
    (each kernel's own ``ready`` says whether it loaded)."""
    event = _tried[kernel] if kernel else _done
    if _started:
        event.wait(timeout)
    return event.is_set()


def _load() -> None:
    try:
        import numba
        jit = numba.njit(cache=True, nogil=True)
        # the H-search allocates nothing, so it runs without numba's reference counting
        # (17 % faster: every array passed to a helper costs two atomic updates otherwise)
        bare = numba.njit(cache=True, nogil=True, _nrt=False)
        inline = numba.njit(cache=True, nogil=True, _nrt=False, inline="always")
    except Exception:  # pragma: no cover - no numba: Python and numpy it is
        jit = bare = inline = None
    from .evaluation import circuit, vc_graph
    from .knowledge import hsearch
    try:
        for name, load in (("circuit", lambda: circuit.load(jit)),  # the search's first need
                           ("hsearch", lambda: hsearch.load(bare, inline)),
                           ("vc_graph", lambda: vc_graph.load(jit))):
            try:
                if jit is not None:
                    load()
            finally:
                _tried[name].set()
    finally:
        _done.set()
