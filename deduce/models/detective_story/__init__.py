"""Sherlock Holmes Detective Story Game (solo): campaign data (TOML), the rules engine, the
case record, exact odds and advice, bots and self-play.

Modules: ``tables`` (the rulebook's tables), ``effects``/``data``/``graph`` (the format and
its checks), ``state`` (case record), ``engine`` (rules, written once for two worlds),
``combat`` (R009), ``worlds`` (seeded play), ``odds``, ``advice`` (exact advice; its DP
in ``dp/``), ``bots``, ``selfplay``, ``campaign`` (between cases, R007/R010).
"""
