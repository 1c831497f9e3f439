"""The Detective Story advisor's dynamic programming, one idea per module.

Dependencies go one way, each module importing only those above it:

- ``grid``: the (SM, Luck) grid values are laid out on, symbolic SM/Luck (``Lin``), moves;
- ``rolls``: the 2d6 tables' odds (constant tables, and ``RollOdds`` per solver);
- ``modes``: how a case is keyed (its mode) and the flags a turn leaves (``Flags``);
- ``trace``: the ``Tracer`` world, a phase as an expression;
- ``compile``: an expression as arrays (``Lump``) and its value;
- ``phases``: each phase of a turn compiled once per mode;
- ``memo``: the values kept, in stores named for what they hold;
- ``recursion``: the DP one (turn, mode) at a time, on demand;
- ``expect``: the ``Expect`` world, a concrete case walked reading the DP;
- ``batch`` and ``sweep``: the DP a whole turn at a time, in large array operations;
- ``solver``: the ``Solver`` that owns one case context's pieces and is handed a sweep.

``advice`` is the public face (what a person asks). How it is made fast:

- **SM and Luck for all values at once.** A phase is traced on a case whose SM and Luck
  are symbolic (``Lin``: "max(c, x + a)" of the SM/Luck ``x`` the phase started with), and
  every value is a flat numpy array over (SM 0..``SM_CAP``, Luck 0..``LUCK_CAP``).
- **Phases compiled once, evaluated per turn.** Events never read the turn, so each phase
  is traced once per *mode* (the case without turn, SM, Luck and last turn's flags) into
  an expression: weighted end-of-phase leaves (weights may depend on SM), with decisions
  kept as nodes (option 3's start, a fight's plan). Events read at the end of a phase are
  traced once per (paragraph, mode) and spliced. Compiling merges the end leaves, resolved
  to the memo key they lead to, into index/weight arrays (equal decision nodes are one
  object, valued once).
- **Last turn's flags are an array axis.** The bonus (+1 rows, cumulative), the trap and
  Investigate allowed only change next turn's Action; the Encounter phase is valued for a
  tuple of flag *labels* at once (shape ``(labels, S*L)``), and an Action with a +1 row
  for every carried bonus at once.
- **A whole turn at a time.** From a new case the sweep lays out every (turn, mode)
  reachable from it and evaluates each turn's lumps of every mode in a few large array
  operations (one fight solve per setup), filling the memo; the recursion is what it
  replaces and what computes anything the sweep did not cover. ``advise`` keeps two turns
  of it, a bot all.

Where the time goes from a fresh case (a001: about 1,800 (turn, mode) pairs, 15-24 flag
labels each, 450,000 leaf terms of 425 values): tracing and compiling the phases about a
fifth, laying the turns out a fifth, the rest array work (gathers, fights, the Luck
choice), which is bound by memory traffic; a first touch of new memory costs as much as
the arithmetic on the machine measured (``batch.Buffers``). Measured and not worth it:
bounding the bonus labels by the turns a mode is reachable in a row (a sixth fewer
labels), merging label rows whose sources are equal (a fifth fewer), valuing an Action's
flags only on demand (more re-valued event lines than saved).
"""
