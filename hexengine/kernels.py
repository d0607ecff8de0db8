"""The compiled kernels (numba): a registry, loaded in one background thread.

This module imports none of the kernels: each kernel module registers itself when it is
imported (``ready = kernels.register(name, compile)``), and ``start`` loads whatever has
registered.  Today five do: the resistance circuit (``evaluation.circuit``), the H-search
(``knowledge.hsearch``), the circuit on its graph (``evaluation.vc_graph``), fill-in
(``knowledge.fillin_kernel``) and the tree search's loop (``mcts_kernel``); importing
``hexengine.evaluation`` registers the first three, ``hexengine.knowledge.inferior``
(imported by the search and the solver) the fourth, ``hexengine.mcts`` the fifth, and the
player imports all of them before it calls ``start``.  The H-search also
registers a faster copy of itself for each width of carrier row up to 13x13
(``hsearch1`` to ``hsearch3``), late: they load after the rest, and until each has, the
build runs on the copy for any width.  A kernel's users may add a
warm-up (``warm_up``): a first call that compiles it in the loading thread rather than at
its first use, and that must succeed before the kernel is ready (``resistance`` warms up
``circuit`` with its own tables, ``inferior`` warms up ``fillin`` with its patterns).

numba compiles each kernel the first time (a few seconds, then cached on disk beside its
module: 0.2–0.5 s to import numba and load them), so the engine loads them in a background
thread when it starts (``start``) and the Python or numpy code answers until each one is
ready.  Compiling holds the interpreter lock for seconds at a time, which would starve the
thread that reads ``# interrupt``; so a kernel whose disk cache is cold is compiled by a
child process (``python -c ... compile_here``), which fills the cache, and this process
then loads it from there.  Urgent kernels load first (the search's first need: the board
circuit), the others in the order they registered (a kernel module registers after those
it imports); a command that needs only some of them may ask for those first (``prefer``:
the solver's H-search and fill-in).  Without numba, or if compiling fails, the Python code
answers throughout.
"""
from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, NamedTuple, Optional


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


class Compilers(NamedTuple):
    """The flavours of ``numba.njit`` a kernel compiles its functions with."""
    jit: Callable  # cached, releases the GIL
    bare: Callable  # the same without numba's reference counting, for code that allocates
    # nothing (the H-search: 17 % faster, as every array passed to a helper costs two atomic
    # updates otherwise)
    inline: Callable  # bare, and inlined into its callers (small helpers)


@dataclass
class _Kernel:
    name: str
    compile: Callable[[Compilers], None]  # replaces the module's functions by compiled ones
    urgent: bool
    late: bool  # loaded after every kernel that is not
    ready: Ready = field(default_factory=Ready)
    warm_ups: list[Callable[[], object]] = field(default_factory=list)
    tried: threading.Event = field(default_factory=threading.Event)  # load attempted
    taken: bool = False  # picked by the loading thread
    preferred: bool = False  # asked for by ``prefer``: before the urgent ones


_kernels: dict[str, _Kernel] = {}  # in the order they registered
_lock = threading.Lock()
_done = threading.Event()  # every registered kernel has been tried, loaded or not
_started = False
_loading = False  # a loading thread is running
_compile_here = False  # True in the child that compiles: no grandchildren
STOP_POLL = 0.02  # seconds between looks at a waiter's stop flag
COMPILE_TIMEOUT = 600.0  # seconds a compiling child may take before it is given up


def register(name: str, compile: Callable[[Compilers], None], urgent: bool = False,
             late: bool = False) -> Ready:
    """Register the kernel ``name``: once loading starts, ``compile`` replaces its module's
    functions by compiled ones, then its warm-ups run; the returned ``Ready`` is set when all
    of that worked.  ``urgent`` kernels load before the others, ``late`` ones (faster
    variants of a kernel already loaded) after them.  Registered after ``start``, it is
    loaded too."""
    kernel = _Kernel(name, compile, urgent, late)
    with _lock:
        _kernels[name] = kernel
        if _started:
            _spawn()
    return kernel.ready


def warm_up(name: str, call: Callable[[], object]) -> None:
    """Add a first call of the registered kernel ``name``, run after it compiles: numba
    compiles on the first call, so this one happens in the loading thread; the kernel is
    ready only when it succeeds."""
    _kernels[name].warm_ups.append(call)


def prefer(*names: str) -> None:
    """Load these registered kernels next, before the others still waiting (a command
    that needs only them, such as the solver's, waits for no more)."""
    with _lock:
        for name in names:
            kernel = _kernels.get(name)
            if kernel is not None:
                kernel.preferred = True


def start(wait: bool = False) -> None:
    """Load (or compile) every registered kernel in a background thread, and with ``wait``
    wait for them; a no-op when already started.  numba is imported there too (~0.4 s), so
    an engine starts as fast without it."""
    global _started
    with _lock:
        if not _started:
            _started = True
            _spawn()
    if wait:
        _done.wait()


def wait(timeout: float, kernel: str = "", stop: Optional[threading.Event] = None) -> bool:
    """Wait up to ``timeout`` seconds, if loading has started, for ``kernel`` (a registered
    name: "circuit", "hsearch", "vc_graph", "fillin") or by default all of them to be
    loaded or given up, or until ``stop`` is set; True when they are (each kernel's own
    ``Ready`` says whether it loaded)."""
    event = _kernels[kernel].tried if kernel else _done
    if _started:
        end = time.monotonic() + timeout
        while not event.is_set() and not (stop is not None and stop.is_set()):
            left = end - time.monotonic()
            if left <= 0:
                break
            event.wait(min(left, STOP_POLL))
    return event.is_set()


def status() -> dict[str, str]:
    """Each registered kernel's state: "compiled" (loaded), "python" (tried and not
    loaded: the Python or numpy code answers) or "loading"."""
    return {name: "compiled" if k.ready() else "python" if k.tried.is_set() else "loading"
            for name, k in _kernels.items()}


def _spawn() -> None:
    """Start the loading thread unless it runs (called under the lock)."""
    global _loading
    if not _loading:
        _loading = True
        _done.clear()
        threading.Thread(target=_load, name="kernels-compile", daemon=True).start()


def _next() -> Optional[_Kernel]:
    """The next kernel to load: preferred ones first, then urgent ones, then in the order
    they registered, the late ones last."""
    waiting = [k for k in _kernels.values() if not k.taken]
    preferred = [k for k in waiting if k.preferred]
    urgent = [k for k in waiting if k.urgent]
    timely = [k for k in waiting if not k.late]
    return (preferred or urgent or timely or waiting or [None])[0]


_compilers: Optional[Compilers] = None
_numba_tried = False


def _numba() -> Optional[Compilers]:
    """numba's compilers, imported once; None without numba."""
    global _compilers, _numba_tried
    if not _numba_tried:
        _numba_tried = True
        try:
            import numba
            _compilers = Compilers(
                numba.njit(cache=True, nogil=True),
                numba.njit(cache=True, nogil=True, _nrt=False),
                numba.njit(cache=True, nogil=True, _nrt=False, inline="always"))
        except Exception:  # pragma: no cover - no numba: Python and numpy it is
            _compilers = None
    return _compilers


def _load(last: str = "") -> None:
    """Load the kernels in turn (up to ``last``, if named), each from its disk cache, once a
    child has compiled it there if it was cold."""
    global _loading
    compilers = _numba()
    while True:
        with _lock:
            kernel = _next()
            if kernel is None:
                _loading = False
                # what the engine loaded stays for its life: the collector's full passes
                # (50-130 ms over ~130k objects, inside whichever genmove they fall in)
                # need not walk it again
                gc.freeze()
                _done.set()
                return
            kernel.taken = True
        try:
            if compilers is not None:
                made: list = []
                kernel.compile(_recording(compilers, made))
                if not _compile_here and _cold(made):
                    _compile_elsewhere(kernel)
                for call in kernel.warm_ups:
                    call()
                kernel.ready.set()
        except Exception as exc:  # a broken install: Python or numpy it is, said aloud
            print(f"hexengine: the {kernel.name} kernel did not load ({exc!r}); its Python "
                  "fallback answers", file=sys.stderr, flush=True)
        finally:
            kernel.tried.set()
        if kernel.name == last:
            return


def _recording(compilers: Compilers, made: list) -> Compilers:
    """``compilers`` that also list the dispatchers they make (inlined helpers aside: they
    are never compiled on their own, so they have no cache to ask)."""
    def record(jit: Callable) -> Callable:
        def wrapped(func: Callable) -> Callable:
            dispatcher = jit(func)
            made.append(dispatcher)
            return dispatcher
        return wrapped
    return Compilers(record(compilers.jit), record(compilers.bare), compilers.inline)


def _cold(dispatchers: list) -> bool:
    """Whether numba's disk cache holds nothing current for these functions (its index is
    missing, or was written for another source or numba version); a kernel that made none
    has nothing to compile elsewhere."""
    try:
        return bool(dispatchers) and not any(d._cache._cache_file._load_index()
                                             for d in dispatchers)
    except Exception:  # pragma: no cover - numba's internals moved: compile here, as before
        return False


def _compile_elsewhere(kernel: _Kernel) -> None:
    """Compile ``kernel`` (and load those before it) in a child process that writes numba's
    disk cache; this thread waits without holding the interpreter lock."""
    modules = sorted({k.compile.__module__ for k in _kernels.values()}
                     | {c.__module__ for k in _kernels.values() for c in k.warm_ups})
    code = ("import sys\n"
            "from hexengine import kernels\n"
            "kernels.compile_here(sys.argv[1], sys.argv[2:])\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    try:
        subprocess.run([sys.executable, "-c", code, kernel.name, *modules], env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=COMPILE_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):  # pragma: no cover - compile here
        pass


def compile_here(last: str, modules: list[str]) -> None:
    """In a compiling child: import ``modules`` (which register the kernels and their
    warm-ups as in the parent), then compile and cache the kernels up to ``last``.  One
    child compiles at a time (a lock file per installation): engines started together on a
    cold cache (a test run, a match) wait for the first, then load what it cached."""
    global _compile_here, _started, _loading
    import fcntl
    import hashlib
    import importlib
    import tempfile
    where = hashlib.sha1((os.path.dirname(os.path.abspath(__file__)) + "\n" +
                          os.environ.get("NUMBA_CACHE_DIR", "")).encode()).hexdigest()[:12]
    path = os.path.join(tempfile.gettempdir(), f"hexengine-kernels-{where}.lock")
    with open(path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the child exits
        _compile_here = True
        for name in modules:
            importlib.import_module(name)
        with _lock:
            _started = _loading = True
        _load(last)
