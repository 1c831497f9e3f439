"""Running ``deduce serve``: open the records, bind the port, print the address, serve.

``serve(records, host, port, folder)`` opens every record given (each session takes its
record's lock and keeps it while the server runs), binds the port itself (so a port in
use is a clear ``InputError``, not a server's log line), prints the address and serves
with uvicorn until Ctrl-C; then every session is closed (locks released).

On 127.0.0.1 (the default) no token is needed: only this machine can connect. On any
other host a token (``secrets.token_urlsafe``) is made at start, printed in the address,
and drawn as a QR code of that address (``segno``) so a phone's camera opens it.

``Running`` runs the same server in a thread (tests and benchmarks).
"""

from __future__ import annotations

import errno
import secrets
import socket
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from deduce.core.errors import InputError

LOCAL_HOST = "127.0.0.1"


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port); ``InputError`` naming
    --host or --port when that is not possible."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise InputError(f"cannot serve on {host!r}: {exc.strerror}", where="--host") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise InputError(f"port {port} is in use on {host} (another server runs there): "
                             "choose another with --port", where="--port") from None
        if exc.errno == errno.EACCES:
            raise InputError(f"port {port} needs more rights than this user has: choose "
                             "another with --port (1024 or more)", where="--port") from None
        raise InputError(f"cannot serve on {host}:{port}: {exc.strerror}", where="--host") from None
    sock.setblocking(False)
    return sock


def lan_address() -> str | None:
    """This machine's address on its local network, as a phone would reach it (found
    from the route to a private address; nothing is sent), or None."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        return probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()


def address(host: str, port: int, token: str | None) -> str:
    """The address to open: for a wildcard host (``0.0.0.0``, ``::``) the LAN address."""
    shown = host
    if host in ("0.0.0.0", "::", ""):
        shown = lan_address() or host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def qr_text(url: str) -> str:
    """The QR code of ``url`` drawn with block characters, for a terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


@dataclass
class Running:
    """A server in a thread: ``Running.start(app, sock)``, or ``Running.local(tables)`` on a
    free loopback port (``port``); ``stop()`` ends it."""

    server: object
    thread: threading.Thread
    port: int = 0

    @classmethod
    def start(cls, app, sock: socket.socket) -> "Running":
        server = _uvicorn_server(app)
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        return cls(server, thread, sock.getsockname()[1])

    @classmethod
    def local(cls, tables, token: str | None = None) -> "Running":
        """``tables`` served at 127.0.0.1 on a free port (tests, benchmarks)."""
        from deduce.web.app import make_app

        sock = bind(LOCAL_HOST, 0)
        return cls.start(make_app(tables, token=token, port=sock.getsockname()[1]), sock)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


def _uvicorn_server(app):
    import uvicorn

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            ws="none", http="h11", loop="asyncio")
    return uvicorn.Server(config)


def serve(records: Sequence[str], host: str, port: int, folder: str,
          echo: Callable[[str], None] = print, use_cache: bool = True) -> None:
    """Serve ``records`` (and the new ones made in ``folder``) until interrupted;
    ``use_cache`` False: Detective Story solves neither read nor write the solved-case
    cache."""
    from deduce.web import pages
    from deduce.web.app import make_app
    from deduce.web.tables import Tables

    pages.USE_CACHE = use_cache
    where = Path(folder)
    if not where.is_dir():
        raise InputError("not a folder (new records are made there)", where=f"--dir {folder}")
    tables = Tables(where)
    try:
        for record in records:
            tables.open(record)
        sock = bind(host, port)
        port = sock.getsockname()[1]
        token = None if host == LOCAL_HOST else secrets.token_urlsafe(16)
        app = make_app(tables, token=token, port=port)
        url = address(host, port, token)
        echo(f"deduce serve: {url}  ({len(tables.served)} records; new ones go in "
             f"{where.resolve()}; Ctrl-C stops)")
        if token:
            echo("Anyone on this network with the address (and its token) can read and "
                 "enter: scan it with the phone at the table.")
            echo(qr_text(url))
        sys.stdout.flush()
        try:
            _uvicorn_server(app).run(sockets=[sock])
        except KeyboardInterrupt:  # uvicorn raises the Ctrl-C again once it has stopped
            pass
        echo("deduce serve: stopped; every accepted entry is saved.")
    finally:
        tables.close()
