"""Card and icon indices by name, for readable tests (``cards.ICONS``/``cards.SUSPECTS``
order; checked against them by ``test_cards.py``)."""

PIPE, BULB, FIST, BADGE, BOOK, NECKLACE, EYE, SKULL = range(8)
(HOLMES, WATSON, MORIARTY, ADLER, MYCROFT, HUDSON, MORSTAN, MORAN,
 LESTRADE, GREGSON, BAYNES, BRADSTREET, HOPKINS) = range(13)
