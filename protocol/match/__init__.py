"""Engine-vs-engine matches: the controller end of HTP, the referee, openings, the runner,
statistics and reports.  ``hex-match`` (``protocol.match.cli``) is the command line."""
