"""``thirteen serve`` on the command line: without the ``server`` extra the package still
imports and the command names the extra; bad settings exit with code 2."""

from __future__ import annotations

import subprocess
import sys

BLOCK = (
    "import sys\n"
    "for name in ('starlette', 'uvicorn', 'websockets', 'sqlalchemy'):\n"
    "    sys.modules[name] = None  # as if not installed\n"
)


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, timeout=120)


def test_the_package_works_without_the_extra():
    out = run("import thirteen, thirteen.cli, thirteen.server, thirteen.server.cli\n"
              "print(thirteen.cli.main(['demo']))")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().endswith("0")


def test_serve_names_the_missing_extra():
    out = run("from thirteen.cli import main\nsys.exit(main(['serve']))")
    assert out.returncode == 2
    assert "pip install 'thirteen[server]'" in out.stderr
    assert "starlette" in out.stderr


def test_serve_help_lists_the_options():
    out = subprocess.run([sys.executable, "-m", "thirteen.cli", "serve", "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0
    for option in ("--db", "--rules", "--ai", "--arrange-seconds", "--rate"):
        assert option in out.stdout


def test_bad_room_settings_exit_2(tmp_path):
    for args, needle in (
        (["--rules", "nosuch"], "nosuch"),
        (["--ai", "9"], "--ai"),
        (["--rules-file", str(tmp_path / "missing.toml")], "missing.toml"),
    ):
        out = subprocess.run(
            [sys.executable, "-m", "thirteen.cli", "serve", "--port", "0", "--db", f"sqlite:///{tmp_path / 'x.db'}", *args],
            capture_output=True, text=True, timeout=120,
        )
        assert out.returncode == 2, (args, out.stdout, out.stderr)
        assert needle in out.stderr


def test_accepted_sockets_send_without_delay():
    """The listening socket names TCP, so asyncio sets TCP_NODELAY on every accepted socket:
    a reply written right after another is not held back by Nagle's algorithm until the
    client's delayed ACK (40 ms on Linux; it was every request's latency)."""
    import asyncio
    import socket

    from thirteen.server.cli import listen_socket

    async def scenario() -> int:
        sock = listen_socket("127.0.0.1", 0)
        seen: "asyncio.Future[int]" = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport):  # type: ignore[override]
                accepted = transport.get_extra_info("socket")
                seen.set_result(accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(Probe, sock=sock)
        port = sock.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        value = await asyncio.wait_for(seen, 10)
        writer.close()
        server.close()
        await server.wait_closed()
        return value

    assert asyncio.run(scenario()) == 1
