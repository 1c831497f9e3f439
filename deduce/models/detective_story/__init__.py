"""Sherlock Holmes Detective Story Game (solo): campaign data (TOML), the rules engine, the
case record, exact odds and advice, bots, self-play and the live table.

The modules every game has: ``rules`` (the engine as a game ``State``), ``knowledge``
(what the player's observations still allow: the Villain and the Motive), ``advice``
(exact DP; its machinery in ``dp/``), ``bots``, ``selfplay`` and ``table`` (the live
session, no click). This game's own: ``tables`` (the rulebook's tables),
``effects``/``data``/``graph`` (the campaign format and its checks), ``state`` (the case
record), ``engine`` (the rules as continuation-passing functions, written once for every
``engine.World``), ``worlds`` (seeded dice), ``live`` (a turn told from the table's dice),
``combat`` (R009), ``odds`` (this turn's exact odds), ``naive`` (the DP's reference),
``campaign`` (between cases, R007/R010), ``reports`` (what the commands report, as JSON).
"""
