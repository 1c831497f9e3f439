"""``deduce serve``: the live tables as a web page (Starlette, served by uvicorn).

``app`` (routes, token, checks), ``tables`` (the records served, their sessions and
locks), ``pages`` (the registry of game pages), ``s13``, ``casenotes``, ``story``,
``deductions`` and ``irregulars`` (the game pages), ``html`` and ``forms`` (HTML built and
forms read by hand), ``serve`` (binding, printing the address and QR code, running),
``static/`` (the vendored stylesheet and script).
Starlette and uvicorn are imported only here, so only ``deduce serve`` pays for them.
"""
