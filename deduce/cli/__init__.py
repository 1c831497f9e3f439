"""The ``deduce`` command line: thin click commands, one module per game."""
