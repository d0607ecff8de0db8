"""``hex-regress``: GoGui regression files (``.tst``) run against any HTP engine.

``parse`` reads the files, ``run`` drives one engine per file and judges the checks,
``report`` writes the text report and JUnit XML, ``cli`` is the command line."""
