"""``cheekymonkey serve``: the web front end, on uvicorn (needs the ``web`` extra; a Redis store, the ``redis`` one)."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from cheekymonkey.cli.options import number_type
from cheekymonkey.games import GAME_NAMES

__all__ = ["add_arguments", "default_store", "run"]

_SAFE_INTEGER = 2**53 - 1


def default_store() -> str:
    """Where rooms are kept unless ``--store`` says otherwise: ``$XDG_STATE_HOME/cheekymonkey/rooms.sqlite3``.

    ``$XDG_STATE_HOME`` is ``~/.local/state`` when it is not set.
    """
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return str(Path(state) / "cheekymonkey" / "rooms.sqlite3")


def _count(what: str, high: float = 10**9) -> Callable[[str], Any]:
    return number_type(int, 1, high, what=what)


def _span(kind: type[int] | type[float], low: float, high: float, what: str) -> Callable[[str], Any]:
    return number_type(kind, low, high, what=what)


def _default_workers() -> int:
    # The event loop keeps a core; the bots get the others (at least one process).
    return max(1, min(8, (os.cpu_count() or 2) - 1))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    where = parser.add_argument_group("where to serve")
    where.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    where.add_argument(
        "--port", type=_span(int, 0, 65535, "a port"), default=8000, help="port to listen on (default 8000; 0: any)"
    )
    where.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the server answers to, beside 127.0.0.1, localhost and --host (repeat for more)",
    )
    where.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="IPS",
        help="the reverse proxies (comma-separated addresses or networks) whose X-Forwarded-For header names the "
        "client, for the per-client limits; a proxy on this machine is 127.0.0.1 (default: none, not even "
        "127.0.0.1: the header is ignored)",
    )
    where.add_argument(
        "--store",
        default=None,
        metavar="PATH",
        help="where rooms are kept: an SQLite file (default: $XDG_STATE_HOME/cheekymonkey/rooms.sqlite3), "
        "redis://HOST:PORT/DB for several processes (the redis extra), or :memory: to keep nothing",
    )
    where.add_argument(
        "--allow-volatile-redis",
        action="store_true",
        help="serve from a Redis that keeps no append-only file (appendonly no), with a warning, instead of "
        "refusing it: a restart of Redis may then close rooms (see the web durability how-to)",
    )
    parser.add_argument(
        "--game",
        action="append",
        choices=GAME_NAMES,
        default=None,
        metavar="GAME",
        help=f"a game the server offers, one of {', '.join(GAME_NAMES)} (repeat for more; default: every game)",
    )
    groups = {name: parser.add_argument_group(name) for name in ("rooms", "connections")}
    for group, flag, kind, default, text in _LIMITS:
        groups[group].add_argument(flag, type=kind, default=default, help=f"{text} (default %(default)s)")
    groups["bots"] = parser.add_argument_group("bots")
    groups["bots"].add_argument(
        "--bot-workers",
        type=_span(int, 0, 64, "a number of processes"),
        default=_default_workers(),
        help="processes the bots think in, away from the requests (0: a thread of the server; "
        "default %(default)s: one fewer than the cores, at least one)",
    )
    groups["bots"].add_argument(
        "--bot-queue",
        type=_count("a number of decisions", 10**6),
        default=64,
        help="bots' decisions that may wait for a worker; more wait their turn (default %(default)s)",
    )
    groups["rooms"].add_argument(
        "--allow-seeds",
        action="store_true",
        help="let whoever makes a room choose its seed (predictable draws: for tests and demonstrations only)",
    )


_SECONDS = "a number of seconds"
_MINUTES = "a number of minutes"

# The limits, with their defaults (those of cheekymonkey.web.Limits, which tests/test_web_api.py checks:
# this module does not import the web package, whose extra may be missing).
_LIMITS: Final = [
    (
        "rooms",
        "--max-rooms",
        _count("a number of rooms"),
        1000,
        "rooms open at once, in all; the last quarter is kept for clients that have none open",
    ),
    ("rooms", "--rooms-per-client", _count("a number of rooms"), 20, "rooms one client may have open"),
    ("rooms", "--rooms-per-minute", _count("a number of rooms"), 10, "rooms one client may make in a minute"),
    ("rooms", "--idle-minutes", _span(float, 0.01, 10**6, _MINUTES), 60.0, "a game nobody moves in ends after"),
    ("rooms", "--finished-minutes", _span(float, 0.01, 10**6, _MINUTES), 15.0, "a finished game's room ends after"),
    (
        "rooms",
        "--finished-held",
        _count("a number of games"),
        32,
        "finished games kept in memory; the others are read from the store when asked for",
    ),
    ("rooms", "--max-moves", _count("a number of moves"), 2000, "actions per game, then it stops"),
    (
        "rooms",
        "--max-number",
        _count("a number", _SAFE_INTEGER),
        10_000,
        "the largest number custom rules may lead to, tokens and bonus values added up",
    ),
    ("rooms", "--bot-memory", _count("a number of entries"), 1000, "cache entries each bot keeps between moves"),
    ("rooms", "--bot-delay", _span(float, 0, 10, _SECONDS), 0.8, "seconds a bot waits before each move"),
    (
        "connections",
        "--max-streams",
        _count("a number of streams"),
        500,
        "event streams open at once, in all; the last quarter is kept for clients that hold none",
    ),
    ("connections", "--streams-per-seat", _count("a number of streams"), 4, "event streams open on one seat"),
    (
        "connections",
        "--streams-per-client",
        _count("a number of streams"),
        16,
        "event streams one client (one network) may have open, on any seats",
    ),
    (
        "connections",
        "--request-burst",
        _count("a number of units"),
        5000,
        "work one client may ask for at once, in units: a request is 1, and 1 more per KiB of its answer",
    ),
    (
        "connections",
        "--request-rate",
        _span(float, 0.01, 10**9, "a number of units a second"),
        500.0,
        "units a second each client's budget refills by; past it, 429",
    ),
    (
        "connections",
        "--ipv4-prefix",
        _span(int, 1, 32, "a prefix length"),
        32,
        "leading bits of an IPv4 address that name one client, for every per-client limit",
    ),
    (
        "connections",
        "--ipv6-prefix",
        _span(int, 1, 128, "a prefix length"),
        64,
        "leading bits of an IPv6 address that name one client (64: a /64, which one machine may hold whole)",
    ),
    (
        "connections",
        "--header-timeout",
        _span(float, 0.1, 3600, _SECONDS),
        10.0,
        "seconds a client has to send a request's head, and then its body",
    ),
    ("connections", "--idle-timeout", _span(int, 1, 3600, _SECONDS), 20, "seconds a connection may stay idle"),
    ("connections", "--max-body", _count("a number of bytes", 1 << 20), 8192, "bytes in a request's body"),
]


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    # Listening before the address is printed: a browser that connects at once is queued, not refused.
    sock.listen(socket.SOMAXCONN)
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Serve the web front end until interrupted; return the exit status."""
    try:
        from cheekymonkey.web import Limits, RoomManager, StoreError, create_app, open_store
        from cheekymonkey.web.bots import BotPool
        from cheekymonkey.web.server import Server, uvicorn_config
    except ImportError as error:
        print(f"cheekymonkey serve: {error}; install it with: pip install 'cheekymonkey[web]'", file=sys.stderr)
        return 2
    limits = Limits(
        max_rooms=args.max_rooms,
        rooms_per_client=args.rooms_per_client,
        rooms_per_minute=args.rooms_per_minute,
        max_streams=args.max_streams,
        streams_per_seat=args.streams_per_seat,
        streams_per_client=args.streams_per_client,
        max_moves=args.max_moves,
        bot_memory=args.bot_memory,
        max_number=args.max_number,
        idle_minutes=args.idle_minutes,
        finished_minutes=args.finished_minutes,
        finished_held=args.finished_held,
        request_burst=args.request_burst,
        request_rate=args.request_rate,
        ipv4_prefix=args.ipv4_prefix,
        ipv6_prefix=args.ipv6_prefix,
    )
    try:
        sock = _listen(args.host, args.port)
    except OSError as error:
        busy = " (is another server using it?)" if error.errno == errno.EADDRINUSE else ""
        print(f"cheekymonkey serve: cannot listen on {args.host}:{args.port}: {error.strerror}{busy}", file=sys.stderr)
        return 2
    where = args.store or default_store()
    try:
        store = open_store(where, allow_volatile_redis=args.allow_volatile_redis)
    except (StoreError, ImportError) as error:
        sock.close()
        print(f"cheekymonkey serve: {error}", file=sys.stderr)
        return 2
    games = None if args.game is None else tuple(dict.fromkeys(args.game))  # each game once, in the order given
    manager = RoomManager(
        store=store,
        limits=limits,
        bot_delay=args.bot_delay,
        allow_seeds=args.allow_seeds,
        games=games,
        bots=BotPool(args.bot_workers, queue=args.bot_queue),
    )
    hosts = ["127.0.0.1", "localhost", "::1", *args.allowed_host]
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)
    app = create_app(manager, max_body=args.max_body, body_seconds=args.header_timeout, allowed_hosts=hosts)
    config = uvicorn_config(
        app,
        host=args.host,
        port=args.port,
        header_timeout=args.header_timeout,
        idle_timeout=args.idle_timeout,
        trusted_proxies=args.forwarded_allow_ips.split(","),
    )
    logging.basicConfig(format="%(asctime)s %(name)s: %(message)s", level=logging.WARNING, stream=sys.stderr)
    logging.getLogger("cheekymonkey.web").setLevel(logging.INFO)  # the rooms the sweep ends, too
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Serving on http://{shown}:{port}/ (Ctrl-C stops the server); rooms are kept {store.description}")
    if args.host in ("0.0.0.0", "::"):
        print("Plain HTTP on every address: put a reverse proxy with TLS in front (see the web front end how-to)")
    sys.stdout.flush()
    server = Server(config)
    server.run(sockets=[sock])
    return 0 if server.started else 1
