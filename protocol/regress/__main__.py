"""``python -m protocol.regress``: the same as the ``hex-regress`` command."""
from protocol.regress.cli import main

if __name__ == "__main__":
    main(prog_name="hex-regress")
