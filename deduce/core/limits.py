"""Every cap on what is read from outside, in one place (the README quotes these numbers).

A value past a cap is refused with exit 2 and a message naming the cap; nothing is read,
allocated or computed for it first.
"""

#: the largest file any command reads (records, case files, campaign files, card sets)
MAX_FILE_BYTES = 4 * 1024 * 1024
#: the deepest nesting of arrays and tables read from JSON or TOML
MAX_NESTING = 64
#: seconds a one-shot writer waits for a record locked by another process
ONE_SHOT_WAIT = 2.0
#: the longest line a live table session reads (characters)
MAX_LINE = 1000
#: the most games (or cases) one self-play command plays
MAX_GAMES = 1_000_000
#: the most local worker processes (a pool of more is never what a person meant)
MAX_WORKERS = 64
#: the most digits of a whole number typed on the command line or at a table
MAX_DIGITS = 20
