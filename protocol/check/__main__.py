"""``python -m protocol.check``: the same as the ``hex-check`` command."""
from protocol.check.cli import main

if __name__ == "__main__":
    main(prog_name="hex-check")
