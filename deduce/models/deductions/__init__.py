"""Deductions, the deck game: the cards (``cards``), a table position (``position``), what a
player's view allows (``knowledge``), the rules engine (``rules``), and the grid patterns,
payments and milestones (``patterns``, ``payment``, ``milestones``); ``bots``, ``advice``,
``selfplay`` and the live ``table``.

The advice's rollout budget is here, not in ``advice``, so that the CLI can show it in its
help without importing the engine at start-up."""

#: rollouts per action by default, and the most one may ask for
ROLLOUTS = 32
MAX_ROLLOUTS = 1000
#: the most rollouts of all actions together, and the fewest per action when it cuts
TOTAL_ROLLOUTS = 300
MIN_ROLLOUTS = 4
