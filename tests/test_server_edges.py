"""Protocol edges (issue 52, item 5), over real sockets: binary frames, deep nesting, a
flood, the ``seq`` of envelope-level refusals, the database password in what the server
prints, the page's security headers and the Origin allow-list."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request

import pytest
import websockets
from server_support import PG_REQUIRED, PG_URL, _pg_database, serve

from thirteen.server import security
from thirteen.server.client import TableClient

DEEP = "[" * 1000 + "]" * 1000


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    s = serve(tmp_path_factory.mktemp("edges"), "--rate", "5", "--burst", "10", "--max-strikes", "20")
    yield s
    s.stop()


def test_a_binary_frame_gets_an_error_and_close_1003(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.ws.send(b"\x00\x01binary")
        err = await c.recv(5)
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            await c.recv(5)
        return err, closed.value.rcvd

    err, rcvd = run(scenario())
    assert err["code"] == "binary_frame"
    assert rcvd is not None and rcvd.code == 1003  # a close frame, not a dropped socket


def test_deep_nesting_is_a_bad_frame(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        codes = []
        for text in (DEEP, '{"a":' * 1000 + "1" + "}" * 1000, '{"type": "join", "x": ' + DEEP + "}"):
            await c.send_raw(text)
            codes.append((await c.wait_for(lambda f: f["type"] == "error", 5))["code"])
        await c.join("deep", "dee")
        seq = await c.send({"type": "ping", "nested": json.loads("[" * 50 + "]" * 50)})
        envelope = await c.wait_for(lambda f: f["type"] == "error", 5)
        c.seq += 1  # a signed body nested 1,000 deep
        frame = {"type": "signed", "seq": c.seq, "body": DEEP, "sig": security.sign(c.key, c.nonce, c.seq, DEEP)}
        await c.send_raw(json.dumps(frame))
        inner = await c.wait_for(lambda f: f["type"] == "error" and f.get("seq") == frame["seq"], 5)
        pong = await c.request({"type": "ping"})  # the connection lives on
        await c.close()
        return codes, (envelope["code"], envelope["seq"] == seq), inner["code"], pong["type"]

    codes, envelope, inner, pong = run(scenario())
    assert codes == ["bad_frame"] * 3
    assert envelope == ("bad_frame", True)
    assert inner == "bad_frame" and pong == "pong"


def test_a_flood_is_refused_then_closed_1008_with_every_frame_flushed(server):
    """Rate 5/s, burst 10, 20 strikes (the fixture): 200 pings at once. Ten pass; each of the
    rest that is read gets ``rate_limited`` with its seq; after 21 in a row the server closes
    with 1008, after the frames it queued: a close frame arrives, not a reset."""

    async def scenario():
        c = await TableClient.connect(server.ws)
        await c.join("flood", "flo")
        sent = []
        for _ in range(200):
            sent.append(await c.send({"type": "ping"}))
        frames = []
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            while True:
                frames.append(await c.recv(5))
        return sent, frames, closed.value.rcvd

    sent, frames, rcvd = run(scenario())
    assert rcvd is not None and rcvd.code == 1008
    replies = [f for f in frames if f["type"] in ("pong", "error")]
    limited = [f for f in replies if f["type"] == "error"]
    assert all(f["code"] == "rate_limited" for f in limited)
    assert [f["seq"] for f in replies] == sent[: len(replies)]  # each reply names its message
    assert len(limited) == 21 and replies[-1] == limited[-1]  # closed after strike 21


def test_refusals_of_the_envelope_carry_its_seq(server):
    async def scenario():
        c = await TableClient.connect(server.ws)
        out = []
        for text in (
            '{"type": "signed", "seq": 7, "body": "{}", "sig": "00"}',  # a malformed signature
            '{"type": "signed", "seq": 8, "body": "{}", "sig": "' + "0" * 64 + '", "x": 1}',
            '{"type": "signed", "seq": 9, "body": "{}", "sig": "' + "0" * 64 + '"}',  # no session yet
        ):
            await c.send_raw(text)
            f = await c.wait_for(lambda f: f["type"] == "error", 5)
            out.append((f["code"], f.get("seq")))
        await c.close()
        return out

    assert run(scenario()) == [("bad_frame", 7), ("bad_frame", 8), ("no_session", 9)]


def serve_output(db: str, tmp_path) -> str:
    """What ``thirteen serve`` prints on ``db`` until it stops: it fails to start, or it
    is stopped once it has started."""
    cmd = [sys.executable, "-m", "thirteen.cli", "serve", "--port", "0", "--db", db, "--log-level", "info"]
    lines = []
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=tmp_path) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if "Application startup complete" in line:
                proc.terminate()
        proc.wait(timeout=20)
    return "".join(lines)


def test_the_database_password_is_never_printed(tmp_path):
    """A PostgreSQL that does not answer: the server fails to start, and nothing it prints
    holds the password. With the test cluster: it starts, and the URL it prints is masked."""
    out = serve_output("postgresql+psycopg://thirteen:hunter2-very-secret@127.0.0.1:1/nothing", tmp_path)
    assert "hunter2-very-secret" not in out
    assert "thirteen:***@127.0.0.1:1/nothing" in out
    if not PG_URL and not PG_REQUIRED:
        return  # no PostgreSQL here: the first half stands (a required one fails below)
    for url in _pg_database():
        password = url.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
        out = serve_output(url, tmp_path)
        assert password not in out and ":***@" in out


def test_the_page_sends_security_headers(server):
    for path in ("", "static/table.js", "health"):
        with urllib.request.urlopen(server.url + path, timeout=10) as r:
            headers = {k.lower(): v for k, v in r.headers.items()}
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "script-src 'self'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-frame-options"] == "DENY"


def test_an_origin_allow_list_protects_the_socket(tmp_path):
    server = serve(tmp_path, "--allowed-origins", "https://table.example,https://other.example")
    try:
        async def scenario():
            with pytest.raises(websockets.exceptions.InvalidStatus) as err:
                await TableClient.connect(server.ws, origin="https://evil.example")
            good = await TableClient.connect(server.ws, origin="https://table.example")
            program = await TableClient.connect(server.ws)  # no Origin: not a browser page
            hellos = [good.frames[0]["type"], program.frames[0]["type"]]
            for c in (good, program):
                await c.close()
            return err.value.response.status_code, hellos

        assert run(scenario()) == (403, ["hello", "hello"])
    finally:
        server.stop()
