"""``deduce serve`` as a command: its refusals (exit 2 naming the file or option, exit 3
for a contradictory record, never a traceback, no lock left behind), and one real run in
a subprocess on a network host: the token printed with the address and its QR code, 403
without it, the page with it, the record's lock held while serving and gone after Ctrl-C."""

from __future__ import annotations

import io
import json
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner

from deduce.cli.main import cli

RECORD = {"game": "sherlock13", "variant": "standard", "players": ["Ann", "Ben", "Cat", "Dan"],
          "me": "Ann", "hand": ["Sherlock Holmes", "Mrs. Hudson", "Inspector Baynes"], "events": []}


def run(*args):
    return CliRunner().invoke(cli, ["serve", *args])


def write(path, data) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def no_lock_left(folder) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".lock")]


def test_a_missing_record_is_refused(tmp_path):
    result = run(str(tmp_path / "nope.json"), "--port", "0")
    assert result.exit_code == 2 and result.exception.__class__ is SystemExit
    assert f"{tmp_path / 'nope.json'}: file not found" in result.output
    assert "made from the page" in result.output


def test_a_bad_record_is_refused_naming_the_file_and_field(tmp_path):
    path = write(tmp_path / "bad.json", {**RECORD, "hand": ["Sherlock Holmes"]})
    result = run(path, "--port", "0")
    assert result.exit_code == 2
    assert f"{path}, field 'hand': with 4 players a hand has 3 cards, not 1" in result.output
    assert no_lock_left(tmp_path)


def test_a_contradictory_record_exits_3(tmp_path):
    events = [{"actor": "Ann", "action": "raise", "icon": "skull", "raised": []}]
    path = write(tmp_path / "c.json", {**RECORD, "events": events})
    result = run(path, "--port", "0")
    assert result.exit_code == 3 and "contradictory" in result.output
    assert no_lock_left(tmp_path)


def test_a_game_without_a_page_is_refused(tmp_path, monkeypatch):
    from deduce.web import pages

    monkeypatch.setattr(pages, "GAME_PAGES", {"sherlock13": "deduce.web.s13"})
    position = {"game": "deductions", "display": [], "pools": {}, "reserved": []}
    result = run(write(tmp_path / "d.json", position), "--port", "0")
    assert result.exit_code == 2
    assert "deduce serve has no page for a Deductions position yet" in result.output


def test_a_position_is_not_a_table_record(tmp_path):
    position = {"game": "deductions", "display": [], "pools": {}, "reserved": []}
    result = run(write(tmp_path / "d.json", position), "--port", "0")
    assert result.exit_code == 2 and "d.json" in result.output
    assert "this is a Deductions position, not a table record" in result.output


def test_dir_must_be_a_folder(tmp_path):
    result = run("--dir", str(tmp_path / "none"), "--port", "0")
    assert result.exit_code == 2 and "not a folder" in result.output


def test_a_port_in_use_is_refused_and_the_records_let_go(tmp_path):
    path = write(tmp_path / "g.json", RECORD)
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen(1)
    try:
        port = busy.getsockname()[1]
        result = run(path, "--port", str(port))
    finally:
        busy.close()
    assert result.exit_code == 2
    assert f"--port: port {port} is in use on 127.0.0.1" in result.output
    assert no_lock_left(tmp_path)


def test_a_record_locked_by_another_session_is_refused(tmp_path):
    path = write(tmp_path / "g.json", RECORD)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from deduce.core.records import RecordLock; "
         f"lock = RecordLock({path!r}); print('locked', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        result = run(path, "--port", "0")
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    assert result.exit_code == 2
    assert f"{path}: the record is in use by another deduce session (process {holder.pid})" \
        in result.output


def _get(url: str, cookie: str | None = None) -> tuple[int, str, dict]:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(request, timeout=10) as answer:
            return answer.status, answer.read().decode(), dict(answer.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(), dict(exc.headers)


def test_a_real_run_on_a_network_host_needs_the_token(tmp_path):
    path = write(tmp_path / "g.json", RECORD)
    proc = subprocess.Popen([sys.executable, "-m", "deduce.cli.main", "serve", path,
                             "--host", "0.0.0.0", "--port", "0", "--dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("deduce serve: http://") and "?token=" in first, first
        token = first.split("?token=")[1].split()[0]
        port = int(first.split("://")[1].split("/")[0].rsplit(":", 1)[1])
        warning = proc.stdout.readline()
        assert "Anyone on this network with the address" in warning
        qr = [proc.stdout.readline() for _ in range(3)]
        assert all(set(line.strip()) <= set("█▀▄ ") and line.strip() for line in qr), qr
        assert (tmp_path / ".g.json.lock").exists()
        base = f"http://127.0.0.1:{port}"
        assert _get(base + "/r/g")[0] == 403
        status, _, headers = _get(f"{base}/r/g?token={token}")
        assert status == 303 and headers["location"] == "/r/g"
        cookie = headers["set-cookie"].split(";")[0]
        status, page, _ = _get(base + "/r/g", cookie)
        assert status == 200 and "16,800 consistent worlds" in page
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert "stopped; every accepted entry is saved" in out and "Traceback" not in err
    assert no_lock_left(tmp_path)


@pytest.mark.parametrize("option, value, words", [("--port", "70000", "70000 is not in the range"),
                                                   ("--host", "192.0.2.1", "--host: cannot serve on 192.0.2.1:8765: Cannot assign")])
def test_bad_options(tmp_path, option, value, words):
    result = run(option, value, "--dir", str(tmp_path))
    assert result.exit_code == 2 and words in result.output


def test_only_serve_imports_the_web_libraries():
    code = ("import sys; from click.testing import CliRunner; from deduce.cli.main import cli; "
            "CliRunner().invoke(cli, ['s13', 'analyze', sys.argv[1], '--json']); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'segno', 'deduce.web.app') "
            "if m in sys.modules))")
    from deduce.puzzles import puzzle_path

    out = subprocess.run([sys.executable, "-c", code, str(puzzle_path("sherlock13", "demo-4p.json"))],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_real_run_under_a_terminal_prints_the_address_and_stops_on_ctrl_c(tmp_path):
    """As a person runs it: the installed command under a pseudo-terminal, the address
    (with its token and QR code) on the screen, the page served, Ctrl-C stopping it with
    exit 0, the lock let go, no traceback."""
    import pexpect

    from tests.cli.procs import deduce_argv, quiet_env

    path = write(tmp_path / "g.json", RECORD)
    argv = deduce_argv() + ["serve", path, "--host", "0.0.0.0", "--port", "0",
                            "--dir", str(tmp_path)]
    child = pexpect.spawn(argv[0], argv[1:], env=quiet_env(), encoding="utf-8",
                          dimensions=(40, 120), timeout=60)
    child.logfile_read = screen = io.StringIO()
    try:
        child.expect(r"deduce serve: http://\S+:(\d+)/\?token=(\S+)")
        port, token = int(child.match.group(1)), child.match.group(2)
        child.expect("Anyone on this network with the address")
        child.expect("█")  # the QR code
        assert (tmp_path / ".g.json.lock").exists()
        base = f"http://127.0.0.1:{port}"
        assert _get(base + "/r/g")[0] == 403
        status, _, headers = _get(f"{base}/r/g?token={token}")
        cookie = headers["set-cookie"].split(";")[0]
        status, page, _ = _get(base + "/r/g", cookie)
        assert status == 200 and "16,800 consistent worlds" in page
        child.sendintr()
        child.expect("stopped; every accepted entry is saved")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0, screen.getvalue()
    assert "Traceback" not in screen.getvalue()
    assert no_lock_left(tmp_path)


@pytest.mark.parametrize("args, use_cache", [((), True), (("--no-cache",), False)])
def test_no_cache_reaches_the_server(tmp_path, monkeypatch, args, use_cache):
    import deduce.web.serve

    got = {}
    monkeypatch.setattr(deduce.web.serve, "serve",
                        lambda records, host, port, folder, echo, use_cache: got.update(
                            records=records, use_cache=use_cache))
    result = run("--dir", str(tmp_path), *args)
    assert result.exit_code == 0, result.output
    assert got == {"records": [], "use_cache": use_cache}


def test_serve_sets_the_pages_cache_use_for_its_process(tmp_path, monkeypatch):
    from deduce.core.errors import InputError
    from deduce.web import pages
    from deduce.web.serve import serve

    monkeypatch.setattr(pages, "USE_CACHE", True)
    with pytest.raises(InputError):  # a --dir that is not a folder: stops before serving
        serve([], "127.0.0.1", 0, str(tmp_path / "none"), use_cache=False)
    assert pages.USE_CACHE is False
