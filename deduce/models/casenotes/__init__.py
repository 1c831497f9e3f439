"""Case notes (Watson & Holmes: The Lost Diaries, logic-grid puzzles).

The modules every game has:

- ``rules``: the play engine, a ``State`` with legal actions, apply, each player's
  observation, the end and the winners (competitive and cooperative play), and
  ``play_game`` (bots seated at a ``State``).
- ``knowledge``: what one player's notes still allow (``CaseOracle``, one solver under any
  set of notes) and what a player sees when choosing (``View``).
- ``advice``: what a person asks: ``solve`` (possible answers, the solution count, the
  grid), ``why`` (forced, impossible or open, and a minimal reason), what the notes read
  so far allow.
- ``bots``: the strategies (``informed``, ``fair``) that play through an observation.
- ``selfplay``: many games and their figures.
- ``table``: the live session (``deduce case table``): the notes a player reads, entered
  one by one, each saved at once.

And those of this game:

- ``schema``: the grid's categories, attributes and unknowns; naming items in rule text.
- ``language``: the rule language, parsed with ``ast`` and a whitelist into a typed tree.
- ``format``: the TOML case file: loading, validation, shipped cases by name.
- ``builder``: pysat variables, constants and memoised Tseitin gates.
- ``model``: the case's CNF (grid facts, guarded axiom groups, one assumption per note).
- ``counting``: projected model counting, one independent component at a time.
- ``evaluate``: a rule on one concrete solution (the solver-free referee).
- ``check``: the setter's report (``deduce case check``).
- ``explain``: the step-wise derivation (cheapest subset-minimal steps first).
"""
