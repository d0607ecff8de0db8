"""``python -m hexengine``: the same HTP engine as the ``hexengine`` command."""
from protocol.cli import main

if __name__ == "__main__":
    main()
