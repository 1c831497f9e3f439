"""Case notes (Watson & Holmes: The Lost Diaries, logic-grid puzzles).

Modules, each one idea:

- ``schema``: the grid's categories, attributes and unknowns; naming items in rule text.
- ``rules``: the rule language, parsed with ``ast`` and a whitelist into a typed tree.
- ``format``: the TOML case file: loading, validation, shipped cases by name.
- ``builder``: pysat variables, constants and memoised Tseitin gates.
- ``model``: the case's CNF (grid facts, guarded axiom groups, one assumption per note).
- ``counting``: projected model counting, one independent component at a time.
- ``evaluate``: a rule on one concrete solution (the solver-free referee).
- ``solve``, ``why``, ``check``: what the ``deduce case`` commands report.
- ``explain``: the step-wise derivation (cheapest subset-minimal steps first).
- ``bots``, ``play``: self-play of a case with the Lost Diaries rules.
"""
