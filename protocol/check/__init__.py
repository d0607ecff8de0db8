"""``hex-check``: HTP conformance checks for any Hex engine.

``probe`` talks to the engine under test, ``checks`` holds the named checks, ``run`` runs
them (a crash or hang is a FAIL of one check), ``report`` writes the text report and JUnit
XML, ``cli`` is the command line."""
