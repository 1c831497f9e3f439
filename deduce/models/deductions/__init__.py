"""Deductions, the deck game: the cards (``cards``), a table position (``position``), what a
player's view allows (``knowledge``), the rules engine (``rules``), and the grid patterns,
payments and milestones (``patterns``, ``payment``, ``milestones``)."""
