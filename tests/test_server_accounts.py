"""Identity and money (issue 52, item 2): names, play money granted at most N times per
client address and window, operator tokens for real money, and a database that holds
nothing that resumes a session. Real server subprocesses, real sockets, real databases
(SQLite and PostgreSQL for the money tests)."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import secrets
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ed25519, rsa
from server_support import database, join_code, money_held, opened, serve  # noqa: F401
from sqlalchemy import MetaData, create_engine, select

from thirteen.server import security
from thirteen.server.client import ProtocolError, TableClient
from thirteen.server.names import name_key, normalize_name
from thirteen.server.refusals import Refusal
from thirteen.server.store import HOUSE, Store

SECRET = "an operator secret of at least thirty-two bytes"


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 120))


# ---------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "given, shown",
    [
        ("Ann", "Ann"),
        ("  Ａｎｎ  ", "Ann"),  # full-width letters and outer spaces (NFKC)
        ("Ann   Lee", "Ann Lee"),
        ("Ann\u00a0Lee", "Ann Lee"),  # a no-break space is a space
        ("李雷", "李雷"),
        ("x" * 24, "x" * 24),
    ],
)
def test_names_are_normalized(given, shown):
    assert normalize_name(given) == shown


@pytest.mark.parametrize(
    "given, reason",
    [
        ("", "empty"),
        ("   ", "empty"),
        ("\u3000", "empty"),  # an ideographic space is a space (NFKC)
        ("x" * 25, "too_long"),
        ("\u202eevil", "invisible"),  # right-to-left override
        ("a\u2066b", "invisible"),  # left-to-right isolate
        ("an\u200bn", "invisible"),  # zero-width space
        ("an\u200dn", "invisible"),  # zero-width joiner
        ("\ufeffann", "invisible"),  # zero-width no-break space
        ("\u3164", "invisible"),  # Hangul filler: a letter that shows nothing
        ("\u2800", "invisible"),  # braille blank
        ("a\tb", "invisible"),
        ("a\nb", "invisible"),
        ("a\x00b", "invisible"),
        ("a\ue000", "invisible"),  # private use
        ("<b>", "markup"),
        ("AI 1", "reserved"),
        ("ai2", "reserved"),
        ("House", "reserved"),
    ],
)
def test_bad_names_are_refused(given, reason):
    with pytest.raises(Refusal) as err:
        normalize_name(given)
    assert err.value.code == "bad_name" and err.value.echo == {"reason": reason}


def test_names_are_one_name_whatever_their_case_or_width():
    assert name_key("ANN") == name_key("ann") == name_key(normalize_name("ａｎｎ"))
    assert name_key("STRASSE") == name_key("straße")
    assert name_key("Ann") != name_key("Аnn")  # Cyrillic А: another name (left to the operator)


def test_names_are_unique_over_sockets(tmp_path):
    server = serve(tmp_path)
    try:
        async def scenario():
            first = await TableClient.connect(server.ws)
            welcome = await first.join("names", "  Ａnn ")
            assert welcome["name"] == "Ann"
            taken = []
            for name in ("Ann", "ANN", "ａｎｎ", " ann"):
                c = await TableClient.connect(server.ws)
                with pytest.raises(ProtocolError) as err:
                    await c.join("names", name)
                taken.append(err.value.code)
                await c.close()
            again = await TableClient.connect(server.ws)
            await again.resume(first.session, first.private)  # the owner comes back
            for c in (first, again):
                await c.close()
            return taken

        assert run(scenario()) == ["name_taken"] * 4
    finally:
        server.stop()


# ---------------------------------------------------------------------------- play money


def test_a_join_flood_mints_nothing_past_the_cap(database):
    """300 joins with new names from one address, some claiming other addresses in an
    X-Forwarded-For header (no proxy is trusted): three are granted, the rest refused, and
    the database holds three people and their three starting balances. Another address
    gets its own."""
    server = serve(Path("."), "--grants-per-address", "3", "--starting-balance", "1000", db=database)
    try:
        async def scenario():
            codes: List[str] = []
            for batch in range(12):
                joins = []
                for i in range(25):
                    n = batch * 25 + i
                    headers = {"X-Forwarded-For": f"10.9.{n // 250}.{n % 250}"} if n % 3 == 0 else None
                    joins.append(join_code(server.ws, f"flood{n % 4}", f"flood{n}", headers=headers))
                codes += await asyncio.gather(*joins)
            other = await join_code(server.ws, "flood0", "elsewhere", local_address="127.0.0.2")
            return codes, other

        codes, other = run(scenario())
    finally:
        server.stop()
    assert codes.count("welcome") == 3 and codes.count("no_grant") == 297
    assert other == "welcome"
    with opened(database) as store:
        assert store.accounts_of("human") == 4
        assert store.minted("human") == 4 * 1000


def test_the_grant_window_opens_again(tmp_path):
    """One grant per address per 4 s window: a second join right after the first is refused,
    one after the window has passed is granted. The window is long enough that a loaded
    machine (a join taking a second or more) cannot let the second join slip past it."""
    server = serve(tmp_path, "--grants-per-address", "1", "--grant-window", "4")
    try:
        async def scenario():
            first = await join_code(server.ws, "win", "w1")
            granted = time.monotonic()
            second = await join_code(server.ws, "win", "w2")
            refused_within = time.monotonic() - granted
            await asyncio.sleep(max(0.0, 4.3 - (time.monotonic() - granted)))
            third = await join_code(server.ws, "win", "w3")
            return first, second, third, refused_within

        first, second, third, refused_within = run(scenario())
        assert refused_within < 4, "the second join took longer than the window itself"
        assert (first, second, third) == ("welcome", "no_grant", "welcome")
    finally:
        server.stop()


# ---------------------------------------------------------------------------- tokens


def token(key: Any = SECRET, algorithm: str = "HS256", drop: tuple = (), **claims: Any) -> str:
    now = int(time.time())
    body: Dict[str, Any] = {
        "sub": "alice", "name": "Alice", "buy_in": 20_000, "aud": "thirteen",
        "iat": now, "exp": now + 300, "jti": secrets.token_hex(8),
    }
    body.update(claims)
    for name in drop:
        body.pop(name)
    return jwt.encode(body, key, algorithm=algorithm)


async def token_join(url: str, room: str, tok: Optional[str], name: Optional[str] = None) -> Dict[str, Any]:
    """The welcome (with the ``you`` frame's account) or the error frame of a token join."""
    c = await TableClient.connect(url)
    try:
        welcome = await c.join(room, name, token=tok)
        you = await c.wait_for(lambda f: f["type"] == "you", 10)
        return {**welcome, "account": you["account"]}
    except ProtocolError as err:
        return err.frame
    finally:
        await c.close()


def token_server(tmp_path: Path, db: str, key_file: str = "", *args: str):
    key = tmp_path / "token.key"
    if not key_file:
        key.write_text(SECRET + "\n")
    return serve(
        tmp_path, "--accounts", "token", "--token-key-file", key_file or str(key),
        "--token-max-lifetime", "600", "--max-buy-in", "50000", *args, db=db,
    )


def test_token_accounts(tmp_path, database):
    """A valid token opens (or finds) the operator's player and deposits its buy-in, once:
    a replay is refused; every bad token is refused with its reason; a join without one
    is refused. Money: what the accounts hold is what the tokens deposited."""
    server = token_server(tmp_path, database)
    try:
        async def scenario():
            out = {}
            first = token()
            out["first"] = await token_join(server.ws, "t", first)
            out["replay"] = await token_join(server.ws, "t", first)
            out["again"] = await token_join(server.ws, "t", token(buy_in=5_000))
            out["none"] = await token_join(server.ws, "t", None, name="Alice")
            out["play"] = await token_join(server.ws, "t", None)
            now = int(time.time())
            bad = {
                "expired": token(iat=now - 500, exp=now - 100),
                "signature": token(key="another secret of at least thirty-two bytes"),
                "audience": token(aud="elsewhere"),
                "claims": token(drop=("jti",)),
                "lifetime": token(exp=now + 7200),
                "buy_in": token(buy_in=60_000),
                "name": token(sub="bob", name="a\u202eb"),
                "taken": token(sub="bob", name="ALICE"),
                "sub": token(sub="bob smith"),
                "none_alg": jwt.encode({"sub": "x"}, None, algorithm="none"),
                "garbage": "not.a.token",
            }
            for label, tok in bad.items():
                out[label] = await token_join(server.ws, "t", tok)
            return out

        out = run(scenario())
    finally:
        server.stop()
    assert (out["first"]["player"], out["first"]["name"], out["first"]["account"]) == ("o-alice", "Alice", 20_000)
    assert out["replay"]["code"] == "token_replayed"
    assert (out["again"]["player"], out["again"]["account"]) == ("o-alice", 25_000)
    assert out["none"]["code"] == out["play"]["code"] == "token_required"
    reasons = {k: (out[k]["code"], out[k].get("reason")) for k in out if k not in ("first", "replay", "again", "none", "play")}
    assert reasons == {
        "expired": ("bad_token", "expired"),
        "signature": ("bad_token", "signature"),
        "audience": ("bad_token", "audience"),
        "claims": ("bad_token", "claims"),
        "lifetime": ("bad_token", "lifetime"),
        "buy_in": ("bad_token", "claims"),
        "name": ("bad_token", "name"),
        "taken": ("name_taken", None),
        "sub": ("bad_token", "claims"),
        "none_alg": ("bad_token", "algorithm"),
        "garbage": ("bad_token", "malformed"),
    }
    with opened(database) as store:
        assert store.accounts_of("human") == 1
        assert store.minted("human") == 25_000 == store.balance("o-alice")


def hs256_by_hand(claims: Dict[str, Any], secret: bytes) -> str:
    """A JWT signed with HS256 under ``secret``, made without PyJWT (which refuses a PEM
    key as an HMAC secret: this is the forgery a careless verifier would accept)."""

    def part(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    head = part(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + part(json.dumps(claims).encode())
    return head + "." + part(hmac.new(secret, head.encode(), hashlib.sha256).digest())


@pytest.mark.parametrize("kind", ["rsa", "ed25519"])
def test_tokens_signed_with_a_private_key(tmp_path, kind):
    """An operator that keeps its private key: the server has the public key (PEM). A token
    signed with HS256 using that public key's text as the secret (the algorithm confusion)
    is refused."""
    private = rsa.generate_private_key(public_exponent=65537, key_size=2048) if kind == "rsa" else ed25519.Ed25519PrivateKey.generate()
    pem = private.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    (tmp_path / "public.pem").write_bytes(pem)
    algorithm = "RS256" if kind == "rsa" else "EdDSA"
    server = token_server(tmp_path, f"sqlite:///{tmp_path / 'pk.db'}", str(tmp_path / "public.pem"))
    try:
        async def scenario():
            good = await token_join(server.ws, "pk", token(key=private, algorithm=algorithm))
            now = int(time.time())
            claims = {"sub": "mallory", "name": "Mallory", "buy_in": 1, "aud": "thirteen", "iat": now, "exp": now + 60, "jti": "j1"}
            forged = await token_join(server.ws, "pk", hs256_by_hand(claims, pem))
            return good, forged

        good, forged = run(scenario())
    finally:
        server.stop()
    assert good["player"] == "o-alice" and good["account"] == 20_000
    assert (forged["code"], forged["reason"]) == ("bad_token", "algorithm")


# ---------------------------------------------------------------------------- sessions at rest


def test_the_database_holds_nothing_that_resumes_a_session(tmp_path):
    """A thief with a copy of the database has each session's public key only: no secret,
    no connection key. A proof made with any other key is refused; the player's own key
    still resumes."""
    server = serve(tmp_path)
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            welcome = await c.join("vault", "val")
            await c.request({"type": "sit"})
            engine = create_engine(server.db)
            meta = MetaData()
            meta.reflect(engine)
            with engine.connect() as conn:
                dump = json.dumps(
                    {name: [list(map(str, row)) for row in conn.execute(select(table))] for name, table in meta.tables.items()}
                )
                columns = set(meta.tables["sessions"].columns.keys())
            engine.dispose()
            thief = await TableClient.connect(server.ws)
            with pytest.raises(ProtocolError) as err:
                await thief.resume(c.session, security.new_key_pair()[0])
            owner = await TableClient.connect(server.ws)
            await owner.resume(c.session, c.private)
            for x in (c, thief, owner):
                await x.close()
            return welcome, dump, columns, err.value.code

        welcome, dump, columns, code = run(scenario())
    finally:
        server.stop()
    assert columns == {"id", "public_key", "player", "room", "created"}
    assert welcome["key"] not in dump  # the connection key lives in memory only
    assert welcome["session"] in dump and "public_key" not in welcome
    assert code == "bad_proof"


def test_token_mode_ai_seats_bring_the_house_float_and_mint_nothing(tmp_path, database):
    """Token accounts (real money): an AI seat's bankroll is moved from the house account
    (its float), never minted. With an empty house no AI seat sits and no round starts;
    after the operator deposits into the house, AI seats sit, a round is played, and the
    money is conserved: accounts + seated balances + the house = the deposits."""
    server = token_server(tmp_path, database, "", "--ai", "3", "--arrange-seconds", "3", "--pause-seconds", "30")
    try:
        async def scenario():
            c = await TableClient.connect(server.ws)
            await c.join("float", token=token())
            await c.request({"type": "sit", "buy_in": 20_000})
            await asyncio.sleep(1.5)
            alone = [s for s in c.state["seats"] if s] if c.state else []
            with opened(database) as store:
                store.deposit(HOUSE, 250_000)  # the operator funds the house: two AI bankrolls
            await c.request({"type": "stand"})
            await c.request({"type": "sit", "buy_in": 20_000})  # wakes the clock
            result = await c.wait_for(lambda f: f["type"] == "result", 20)
            await c.close()
            return alone, result

        alone, result = run(scenario())
    finally:
        server.stop()
    assert [s["player"] for s in alone] == ["o-alice"]
    assert sum(1 for s in result["seats"] if s["ai"]) == 2  # the float covers two bankrolls of 100,000
    with opened(database) as store:
        held, _ = money_held(store, "float")
        assert store.minted() == 20_000 + 250_000  # the token's deposit and the house's, nothing minted
        assert store.minted("ai") == 0
        assert held == store.minted()
