"""The ASGI app of ``deduce serve`` (Starlette): the routes, the access token, the checks
every request passes.

Routes (``SLUG``: a served record, ``web.tables``)::

    GET  /                    the records served and a new-record form (``?new=GAME``)
    POST /new                 make a record in the folder (303 to its page, 422 refused)
    GET  /r/SLUG              the record's page (``?why=N``: with why for suspect N)
    GET  /r/SLUG/main         its live part as JSON {version, html} (the script's refresh)
    GET  /r/SLUG/version      {version} (the script polls it every 2 s)
    POST /r/SLUG/act          an entry or an undo: 200 accepted (or waiting for what came,
                              kind "info": nothing saved yet), 422 refused, 409 stale
    GET  /static/NAME         the vendored stylesheet and script

A POST from the page's script (header ``X-Deduce-Fetch``) is answered with JSON {kind,
message, version, html}; a plain form POST (no script) with the whole page. Every POST
carries the ``version`` of the view it was made on; another version is refused with the
current view ("the record changed on another device"), never merged. An accepted entry is
saved (atomically, by the session) before the answer is sent.

Security: with a ``token`` (any host but 127.0.0.1), every request needs it, as
``?token=`` (a GET is then sent on to the same address without it, with a cookie) or the
cookie: 403 otherwise. Without one (127.0.0.1 only), the ``Host`` header must name the
loopback address, so a web page elsewhere cannot reach the server through a DNS name
that points at 127.0.0.1; and any POST whose ``Origin`` is not the server's is refused
(another site's form). Bodies are capped (``forms.MAX_FORM_BYTES``). No route reads a
path: records come from ``Tables`` by slug, static files from a fixed list.
"""

from __future__ import annotations

import secrets
from functools import partial
from importlib import resources
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from deduce.core.errors import DeduceError, InputError
from deduce.web.forms import MAX_FORM_BYTES, Form
from deduce.web.html import STATIC_FILES, h, notice, page
from deduce.web.pages import GAME_PAGES, game_page
from deduce.web.tables import Tables

#: headers on every answer: no script or frame from elsewhere, nothing cached
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; script-src 'self'; style-src 'self' "
                               "'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; "
                               "form-action 'self'; base-uri 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def make_app(tables: Tables, *, token: str | None = None, port: int | None = None) -> Starlette:
    """The app serving ``tables``; ``token``: required on every request (None: loopback
    only, ``Host`` checked); ``port``: the port served, for the ``Host`` check and the
    cookie's name (cookies do not tell ports apart)."""
    def on(endpoint):
        return partial(endpoint, tables=tables)

    routes = [
        Route("/", on(index)),
        Route("/new", on(new_record), methods=["POST"]),
        Route("/r/{slug}", on(record_page)),
        Route("/r/{slug}/main", on(record_main)),
        Route("/r/{slug}/version", on(record_version_route)),
        Route("/r/{slug}/act", on(record_act), methods=["POST"]),
        Route("/static/{name}", static_file),
    ]
    app = Starlette(routes=routes)
    guarded = Guard(app, token=token, port=port)
    return guarded  # type: ignore[return-value]


# ----------------------------------------------------------------------------- the guard
class Guard:
    """ASGI middleware: the token or the loopback ``Host``, the ``Origin`` of a POST, and
    ``SECURITY_HEADERS`` on every answer."""

    def __init__(self, app, *, token: str | None, port: int | None):
        self.app = app
        self.token = token
        self.port = port
        self.cookie = f"deduce_token_{port or 0}"

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        request = Request(scope)
        refusal = self.refusal(request)
        if refusal is None and self.token is not None:
            refusal = self.token_step(request)

        async def secured(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        target = refusal if refusal is not None else self.app
        await target(scope, receive, secured)

    def refusal(self, request: Request) -> Response | None:
        """403 for a wrong ``Host`` (loopback mode) or a POST from another origin."""
        host = request.headers.get("host", "")
        if self.token is None:
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in LOOPBACK:
                return _forbidden("this server answers only at its loopback address "
                                  f"(http://127.0.0.1:{self.port or ''}/), not at {host!r}")
        origin = request.headers.get("origin")
        if request.method == "POST" and origin is not None and origin != "null":
            if urlsplit(origin).netloc != host:
                return _forbidden("a form from another site is refused")
        return None

    def token_step(self, request: Request) -> Response | None:
        """None when the request carries the token; a 303 that sets the cookie for a GET
        carrying it in the address; else 403."""
        given = request.query_params.get("token")
        if given is not None and secrets.compare_digest(given, self.token):
            if request.method != "GET":
                return None
            rest = [(k, v) for k, v in parse_qsl(request.url.query, keep_blank_values=True)
                    if k != "token"]
            target = request.url.path + (f"?{urlencode(rest)}" if rest else "")
            answer = RedirectResponse(target, status_code=303)
            answer.set_cookie(self.cookie, self.token, httponly=True, samesite="strict")
            return answer
        cookie = request.cookies.get(self.cookie)
        if cookie is not None and secrets.compare_digest(cookie, self.token):
            return None
        return _forbidden("this server needs its access token: open the address deduce serve "
                          "printed (with ?token=...), or scan its QR code")


def _forbidden(reason: str) -> Response:
    return PlainTextResponse(f"403 forbidden: {reason}\n", status_code=403)


# ----------------------------------------------------------------------------- routes
async def read_form(request: Request) -> Form:
    """The posted form, read up to ``MAX_FORM_BYTES`` (``InputError`` beyond)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise InputError(f"form too large: more than the cap of {MAX_FORM_BYTES:,} bytes")
    return Form.parse(bytes(body))


def static_file(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC_FILES:
        return PlainTextResponse("404 not found\n", status_code=404)
    data = resources.files("deduce.web").joinpath("static", name).read_bytes()
    return Response(data, media_type=STATIC_FILES[name])


def _served(request: Request, tables: Tables):
    return tables.get(request.path_params["slug"])


def _not_served() -> Response:
    return HTMLResponse(page("Not found", '<main><h1>No such record</h1><p><a href="/">'
                             "The records served</a></p></main>"), status_code=404)


async def index(request: Request, tables: Tables, problem: str = "", status: int = 200,
                game: str | None = None) -> Response:
    """The records served and one game's new-record form (``?new=GAME``, else the first
    game's; one form at a time, so the forms' ids stay unique on the page)."""
    chosen = game or request.query_params.get("new")
    if chosen not in GAME_PAGES:
        chosen = next(iter(GAME_PAGES))

    def build() -> str:
        items = "".join(f'<li><a href="/r/{h(s.slug)}">{h(s.path.name)}</a>'
                        f'<span class="small">{h(s.page.summary(s.session))}</span></li>'
                        for s in list(tables.served.values()))
        listing = f'<ul class="records">{items}</ul>' if items else \
            '<p class="small">No record yet: make one below.</p>'
        games = "".join(f'<a class="chip{" picked" * (g == chosen)}" href="/?new={h(g)}" '
                        f'id="new-{h(g)}">{h(game_page(g).TITLE)}</a>' for g in GAME_PAGES)
        picker = (f'<nav class="chips links" aria-label="new record of">{games}</nav>'
                  if len(GAME_PAGES) > 1 else "")
        return (f'<main><h1>deduce</h1>{problem}<section><h2>Records</h2>{listing}</section>'
                f"{picker}{_new_form(chosen)}</main>")

    return HTMLResponse(page("deduce serve", await run_in_threadpool(build)), status_code=status)


def _new_form(game: str) -> str:
    p = game_page(game)
    return (f'<section><h2>New {h(p.TITLE)} record</h2><form method="post" action="/new" '
            f'class="new"><input type="hidden" name="game" value="{h(game)}">'
            '<fieldset><legend>Name (saved as NAME.json in the folder)</legend>'
            '<input type="text" name="name" maxlength="69" required autocomplete="off" '
            'pattern="[A-Za-z0-9][A-Za-z0-9_\\-]{0,63}(\\.json)?" id="name"></fieldset>'
            f'{p.new_record_fields()}<button type="submit" class="primary" id="create">'
            "Make the record</button></form></section>")


async def new_record(request: Request, tables: Tables) -> Response:
    by_script = "x-deduce-fetch" in request.headers
    form = None
    try:
        form = await read_form(request)
        served = await run_in_threadpool(tables.create, form.get("game"), form.get("name"), form)
    except DeduceError as exc:
        if by_script:  # the script shows it above the form, the typed fields kept
            return JSONResponse({"kind": "refused", "message": str(exc)}, status_code=422)
        box = notice("refused", "Refused: the record was not made", str(exc))
        return await index(request, tables, box, status=422,
                           game=None if form is None else form.get("game"))
    if by_script:
        return JSONResponse({"kind": "accepted", "location": f"/r/{served.slug}"})
    return RedirectResponse(f"/r/{served.slug}", status_code=303)


async def record_page(request: Request, tables: Tables) -> Response:
    served = _served(request, tables)
    if served is None:
        return _not_served()
    why = request.query_params.get("why")
    version, html = await run_in_threadpool(_render, served, "", why)
    return HTMLResponse(_record_document(served, version, html))


def _record_document(served, version: str, html: str) -> str:
    title = f"{served.path.name}: {served.page.TITLE}"
    return page(title, f'<header><a href="/">deduce</a> · {h(served.path.name)}</header>'
                f'<p class="notice refused" id="offline" hidden>Cannot reach the server: '
                f"nothing was entered. Is deduce serve still running?</p>"
                f'<main id="live" data-base="/r/{h(served.slug)}" '
                f'data-version="{h(version)}">{html}</main>')


def _render(served, box: str, why: str | None) -> tuple[str, str]:
    """The record's version and live part, read together."""
    with served.mutex:
        return served.version, served.page.render(served, box, why)


async def record_main(request: Request, tables: Tables) -> Response:
    served = _served(request, tables)
    if served is None:
        return JSONResponse({"error": "no such record"}, status_code=404)
    why = request.query_params.get("why")
    box = notice("info", "Updated: the record changed on another device or tab.") \
        if request.query_params.get("changed") else ""

    version, html = await run_in_threadpool(_render, served, box, why)
    return JSONResponse({"version": version, "html": html})


async def record_version_route(request: Request, tables: Tables) -> Response:
    served = _served(request, tables)
    if served is None:
        return JSONResponse({"error": "no such record"}, status_code=404)
    def read() -> str:
        with served.mutex:
            return served.version

    return JSONResponse({"version": await run_in_threadpool(read)})


async def record_act(request: Request, tables: Tables) -> Response:
    served = _served(request, tables)
    if served is None:
        return _not_served()
    try:
        form = await read_form(request)
    except InputError as exc:
        form, problem = None, str(exc)
    by_script = "x-deduce-fetch" in request.headers

    def work() -> tuple[str, str, str, int, str]:
        with served.mutex:
            if form is None:
                kind, message, status = "refused", problem, 422
                box = notice("refused", "Refused", message)
            elif form.get("version") != served.version:
                kind, status = "stale", 409
                message = ("the record changed on another device (or tab); here is the "
                           "current view: nothing was entered")
                box = notice("stale", "Not entered", message)
            else:
                reply = served.page.act(served, form)
                kind, message = reply.kind, reply.message
                if reply.kind == "accepted":
                    status = 200
                    box = notice("accepted", "Saved", message)
                elif reply.kind == "info":  # an entry waiting for what came: not saved yet
                    status = 200
                    box = notice("info", "Waiting for what came (not saved yet)", message)
                else:
                    status = 422
                    title = "Refused: contradiction" if reply.code == 3 else "Refused"
                    box = notice("refused", title, message)
            return kind, message, served.version, status, served.page.render(served, box, None)

    kind, message, version, status, html = await run_in_threadpool(work)
    if by_script:
        return JSONResponse({"kind": kind, "message": message, "version": version,
                             "html": html}, status_code=status)
    return HTMLResponse(_record_document(served, version, html), status_code=status)
