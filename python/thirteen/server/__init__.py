"""``thirteen serve``: a reference game server for Thirteen and its web table.

Rooms are :class:`~thirteen.Table` s played over WebSockets (JSON messages validated with
msgspec, signed per session, rate-limited), kept in a SQL database through SQLAlchemy
(an SQLite file by default), served by Starlette and uvicorn with a static HTML/CSS/JS
page. Needs the ``server`` extra: ``pip install 'thirteen[server]'``. The protocol is in
``docs/server.md``; modules: ``protocol`` (messages), ``security`` (sessions, signatures,
replay, rate limit), ``store`` (the database), ``room`` (a table, its clients and clock),
``views`` (what each client may see), ``app`` (the ASGI app), ``cli`` (the command).

Importing this package needs nothing of the extra; its modules other than ``cli`` do.
"""
