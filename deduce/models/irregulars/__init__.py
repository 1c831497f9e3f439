"""Baker Street Irregulars, the drafting game (multiplayer 2-5 and solo against Holmes):
the shared game modules (``rules``, ``knowledge``, ``advice``, ``bots``, ``selfplay``,
``table``) and its own (``cards``, ``position``, ``log``, ``hidden``, ``arrest``,
``covers``, ``plan``, ``holmes``, ``score``, ``deal``, ``worlds``, ``greedy``, ``search``,
``explain``, and the table's ``forcing``, ``table_play``, ``table_setup``)."""
