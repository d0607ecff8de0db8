#!/usr/bin/env python3
"""Play HTP engines against each other from a checkout; the same as the ``hex-match`` command.

    python scripts/match.py --engine a="hexengine --eval resistance" \
        --engine b="hexengine" --size 9 --openings all --time 0.5 --jobs 2
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from protocol.match.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
