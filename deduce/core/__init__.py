"""Game-agnostic pieces: errors and exit codes, names, records, information, MUS, self-play."""
