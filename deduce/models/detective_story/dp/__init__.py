"""The Detective Story advisor's dynamic programming, one idea per module.

Dependencies go one way, each module importing only those above it:

- ``grid``: the (SM, Luck) grid values are laid out on, symbolic SM/Luck (``Lin``), moves;
- ``rolls``: the 2d6 tables' odds (constant tables, and ``RollOdds`` per solver);
- ``modes``: how a case is keyed (its mode) and the flags a turn leaves (``Flags``);
- ``trace``: the ``Tracer`` world, a phase as an expression;
- ``compile``: an expression as arrays (``Lump``) and its value;
- ``phases``: each phase of a turn compiled once per mode;
- ``memo``: the values kept, in stores named for what they hold (``Rows``: compact rows);
- ``recursion``: the DP one (turn, mode) at a time, on demand;
- ``expect``: the ``Expect`` world, a concrete case walked reading the DP;
- ``batch``: many compiled lumps laid out as rows of one table (and valued on every cell);
- ``layout``: the forward layout of a sweep, a turn's tables as rows;
- ``dense``: the DP a whole turn at a time on every (SM, Luck) cell (the referee);
- ``cells`` and ``compact``: reachable SM bands, a batch valued on them only;
- ``sweep``: the DP a whole turn at a time on the reachable cells only (production);
- ``solver``: the ``Solver`` that owns one case context's pieces and is handed a sweep.

``advice`` is the public face (what a person asks). How it is made fast:

- **SM and Luck for all values at once.** A phase is traced on a case whose SM and Luck
  are symbolic (``Lin``: "max(c, x + a)" of the SM/Luck ``x`` the phase started with), and
  every value is a flat numpy array over (SM 0..``SM_CAP``, Luck 0..``LUCK_CAP``).
- **Phases compiled once, evaluated per turn.** Events never read the turn, so each phase
  is compiled once per *mode* (the case without turn, SM, Luck and last turn's flags) from
  an expression (traced once per shape, below): weighted end-of-phase leaves (weights
  may depend on SM), with decisions kept as nodes (option 3's start, a fight's plan).
  Events read at the end of a phase are traced where they are read (``trace`` says why).
  Compiling merges the end leaves, resolved to the memo key they lead to, into
  index/weight arrays (equal decision nodes are one object, valued once).
- **Traced once per shape.** Most modes differ only in fields a phase never reads (of a
  fresh a001 solve's traces, 1% read the closed Seek Information channels, 19% who has
  left the case, 35% the meetings with the Villain), so a trace is kept with the fields of
  the case it read or wrote (``trace.Probe``) and serves every mode that agrees on them
  (``phases.Phases._traced``; an Action's rows also on the channel Seek Information
  uses): a fresh a001 solve traces 1,429 of its 20,488 phases (a002 1,804 of 41,119;
  keying the rows by all the roll read: 2,901 and 4,090). Its leaves are
  merged into arrays once per expression too (``compile._Template``); a mode's lump is
  that template with the memo keys its leaves lead to from that mode (compiling a fresh
  a001 solve's phases: 0.86 -> 0.52 s).
- **Last turn's flags are an array axis.** The bonus (+1 rows, cumulative), the trap and
  Investigate allowed only change next turn's Action; the Encounter phase is valued for a
  tuple of flag *labels* at once (shape ``(labels, S*L)``), and an Action with a +1 row
  for every carried bonus at once.
- **A whole turn at a time.** From a new case the sweep lays out every (turn, mode)
  reachable from it and evaluates each turn's lumps of every mode in a few large array
  operations (one fight solve per setup), filling the memo; the recursion is what it
  replaces and what computes anything the sweep did not cover. ``advise`` keeps two turns
  of it, a bot all.
- **Reachable cells only.** A case starts at one SM and one Luck, and most (row, SM)
  pairs of the layout are never reached from it (a fresh a001 case: about a fifth of the
  cells are). ``sweep`` finds, turn by turn forward, the interval of SM values each row
  can be reached at (``cells.Band``: moves are monotone in SM, weights over SM that are 0
  cut the interval), then values the turns backward on compact (slots, Luck) arrays:
  a row's leaves summed in order (rows grouped by their number of leaves), fights solved
  for the reached slots only, one turn's arrays alive at a time. Memo entries keep the reached cells only (``memo.Rows``: per
  row its SM interval, views of the turn's compact arrays: a fresh a001 case's whole memo
  is 45 million values, 0.36 GB, where full (S*L) rows would be 1 GB); the solver reads
  them a cell at a time (``memo.cell``), and the plain recursion (``Recursion.fallback``)
  values a cell a caller asks for that the sweep did not reach. ``dense`` is the same
  sweep on every cell, kept as the referee of the tests and the baseline of
  ``benchmarks/story_dp.py``.
- **Late turns on fewer Luck columns.** Nothing but moves and the re-roll reads Luck, so a
  turn's values are equal above a Luck bound worked out from next turn's and the moves
  (``sweep``'s docstring): turn 12 is valued on Luck 0-1 (its Encounter phases on one
  column), turn 11 on 11 columns (5), turn 10's Encounter phases on 14 (a fresh a001
  case: turn 12's backward pass about 4x faster; with the best Action made a few slots at
  a time and the bands' SM as int8, a002's peak 637 -> 549-562 MB). The memo keeps them
  on those columns (``memo.Rows``: a Luck above the last reads it), and a solved case's
  cache entry each slot up to its last Luck column that differs (``packed.trim``).
- **Once per turn class.** An Action roll reads of the turn only its modifiers
  (``phases.turn_class``: turns 1-2, 3-4, 5-8, 9-12), the Encounter phase its band: the
  roll is set up once per (mode, Action, class), the phase compiled once per (mode,
  band), an Action's rows once per (mode, Action). The rows of the tables are still laid
  out turn by turn (a turn's modes and flag labels differ).

Where the time goes from a fresh case with the reachable sweep (a001, the shipped data
with fights and wounds: 1.6 million leaf terms, 129 million (term, cell) pairs reached of
680 million on every Luck; about 6 s of CPU on the machine measured; shares sampled with
py-spy): the backward pass about 46% (the leaves 12%, the nodes' edges 3%, fights 6%, the
Luck choice 7%), charting the modes and compiling the phases 30% (Python spread over many
small functions, none above 4%; tracing 5%), the atlas and the reach pass (compiling each
batch into arrays, the bands) 14%; the cyclic garbage collector is off
during a sweep (its passes over the layout's millions of small objects cost a third
more). Summing a row's leaves in order, rows grouped by their number of leaves, made the
batches' arithmetic a quarter faster than a scatter-add of every (leaf, slot) pair with
``np.bincount`` (itself faster than ``reduceat``, a ``bincount`` per Luck or ``np.add.at``).
Measured and not kept on the reachable sweep: merging Encounter label
rows that read the same start modes (3% of them), solving fights in place (no faster), a
separate Action-row array freed before the best Action (2% lower peak, but the Action
odds' gather grew a fix-up that cost CPU), ``malloc_trim`` between turns (the peak is live
arrays), emptying the compiled phases' stores once the atlas is made (the peak moved by
8 MB: freed small objects' memory is not returned), ``gc.freeze`` after a sweep instead of
the collector's first pass over its objects (no difference measurable), the leaves'
chunks on two threads (numpy gives the interpreter lock back inside each operation, but
these are a few thousand cells long: the threads queue for the lock and for ``malloc``,
and the leaves ran 5% faster for 25 MB more). Where
the memory goes (a001, peak 0.27 GB): what the forward pass keeps for the backward one
(each turn's compiled batches as int32/int8 index arrays of their reached rows, the
bands, the compiled phases: about 0.15 GB over the interpreter's 40 MB; a turn not kept
for the memo drops the layout's dictionaries once reached), then the largest turn's
working arrays (its Encounter and Action values in one array, each freed once read: about
0.1 GB). A fixed ``malloc`` mmap threshold would return about 45 MB more to the system but
costs a third more CPU (page faults on every new array). On the dense sweep a first
touch of new memory costs as much as the arithmetic on the machine measured
(``batch.Buffers``). Measured and not worth it on the dense sweep:
bounding the bonus labels by the turns a mode is reachable in a row (a sixth fewer
labels), merging label rows whose sources are equal (a fifth fewer), valuing an Action's
flags only on demand (more re-valued event lines than saved).
"""
