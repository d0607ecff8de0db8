"""hexengine: a Hex-playing engine: rules, evaluations and alpha-beta search."""
import os

# The search is single-threaded and its linear solves are small (at most a few hundred
# unknowns): BLAS worker threads only add synchronisation, and in a match they would fight
# the opponent engine for the cores.  Set before numpy is first imported; an explicit
# setting in the environment wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
