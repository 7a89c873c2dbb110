"""``cheekymonkey serve``: the web front end, on uvicorn (needs the ``web`` extra; a Redis store, the ``redis`` one)."""

from __future__ import annotations

import argparse
import errno
import logging
import math
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = ["add_arguments", "default_store", "run"]

_SAFE_INTEGER = 2**53 - 1


def default_store() -> str:
    """Where rooms are kept unless ``--store`` says otherwise: ``$XDG_STATE_HOME/cheekymonkey/rooms.sqlite3``.

    ``$XDG_STATE_HOME`` is ``~/.local/state`` when it is not set.
    """
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return str(Path(state) / "cheekymonkey" / "rooms.sqlite3")


def _number(kind: type[int] | type[float], low: float, high: float, what: str) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}") from None
        if not math.isfinite(value) or not low <= value <= high:
            top = "" if high == math.inf else f" to {high:g}"
            raise argparse.ArgumentTypeError(f"{text}: give {low:g}{top}" if top else f"{text}: give {low:g} or more")
        return value

    return parse


def _count(what: str, high: float = 10**9) -> Callable[[str], float]:
    return _number(int, 1, high, what)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    where = parser.add_argument_group("where to serve")
    where.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    where.add_argument(
        "--port", type=_number(int, 0, 65535, "a port"), default=8000, help="port to listen on (default 8000; 0: any)"
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
        default="127.0.0.1",
        metavar="IPS",
        help="addresses of a reverse proxy whose X-Forwarded-For names the client (default 127.0.0.1)",
    )
    where.add_argument(
        "--store",
        default=None,
        metavar="PATH",
        help="where rooms are kept: an SQLite file (default: $XDG_STATE_HOME/cheekymonkey/rooms.sqlite3), "
        "redis://HOST:PORT/DB for several processes (the redis extra), or :memory: to keep nothing",
    )
    rooms = parser.add_argument_group("rooms")
    rooms.add_argument("--max-rooms", type=_count("a number of rooms"), default=1000, help="rooms at once (1000)")
    rooms.add_argument(
        "--rooms-per-client", type=_count("a number of rooms"), default=20, help="rooms open per client (20)"
    )
    rooms.add_argument(
        "--rooms-per-minute", type=_count("a number of rooms"), default=10, help="rooms a client makes a minute (10)"
    )
    rooms.add_argument(
        "--idle-minutes",
        type=_number(float, 0.01, 10**6, "a number of minutes"),
        default=60.0,
        help="a game nobody has moved in for this long ends (60)",
    )
    rooms.add_argument(
        "--finished-minutes",
        type=_number(float, 0.01, 10**6, "a number of minutes"),
        default=15.0,
        help="a finished game's room ends this long after its last move (15)",
    )
    rooms.add_argument(
        "--max-moves", type=_count("a number of moves"), default=2000, help="actions per game, then it stops (2000)"
    )
    rooms.add_argument(
        "--max-number",
        type=_count("a number", _SAFE_INTEGER),
        default=10_000,
        help="the largest number custom rules may lead to, tokens and bonus values added up (10000)",
    )
    rooms.add_argument(
        "--bot-memory", type=_count("a number of entries"), default=1000, help="cache entries per bot (1000)"
    )
    rooms.add_argument(
        "--bot-delay",
        type=_number(float, 0, 10, "a number of seconds"),
        default=0.8,
        help="seconds a bot waits before each move, to follow it (0.8)",
    )
    rooms.add_argument(
        "--allow-seeds",
        action="store_true",
        help="let whoever makes a room choose its seed (predictable draws: for tests and demonstrations only)",
    )
    connections = parser.add_argument_group("connections")
    connections.add_argument(
        "--max-streams", type=_count("a number of streams"), default=500, help="event streams at once (500)"
    )
    connections.add_argument(
        "--streams-per-seat", type=_count("a number of streams"), default=4, help="event streams per seat (4)"
    )
    connections.add_argument(
        "--header-timeout",
        type=_number(float, 0.1, 3600, "a number of seconds"),
        default=10.0,
        help="seconds a client has to send a request's head, and its body (10)",
    )
    connections.add_argument(
        "--idle-timeout",
        type=_number(int, 1, 3600, "a whole number of seconds"),
        default=20,
        help="seconds a keep-alive connection may stay idle (20)",
    )
    connections.add_argument(
        "--max-body", type=_count("a number of bytes", 1 << 20), default=8192, help="bytes in a request's body (8192)"
    )


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Serve the web front end until interrupted; return the exit status."""
    try:
        import uvicorn

        from cheekymonkey.web import Limits, RoomManager, StoreError, create_app, open_store
        from cheekymonkey.web.server import uvicorn_config
    except ImportError as error:
        print(f"cheekymonkey serve: {error}; install it with: pip install 'cheekymonkey[web]'", file=sys.stderr)
        return 2
    limits = Limits(
        max_rooms=args.max_rooms,
        rooms_per_client=args.rooms_per_client,
        rooms_per_minute=args.rooms_per_minute,
        max_streams=args.max_streams,
        streams_per_seat=args.streams_per_seat,
        max_moves=args.max_moves,
        bot_memory=args.bot_memory,
        max_number=args.max_number,
        idle_minutes=args.idle_minutes,
        finished_minutes=args.finished_minutes,
    )
    try:
        sock = _listen(args.host, args.port)
    except OSError as error:
        busy = " (is another server using it?)" if error.errno == errno.EADDRINUSE else ""
        print(f"cheekymonkey serve: cannot listen on {args.host}:{args.port}: {error.strerror}{busy}", file=sys.stderr)
        return 2
    where = args.store or default_store()
    try:
        store = open_store(where)
    except (StoreError, ImportError) as error:
        sock.close()
        print(f"cheekymonkey serve: {error}", file=sys.stderr)
        return 2
    manager = RoomManager(store=store, limits=limits, bot_delay=args.bot_delay, allow_seeds=args.allow_seeds)
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
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    logging.basicConfig(format="%(asctime)s %(name)s: %(message)s", level=logging.WARNING, stream=sys.stderr)
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Serving on http://{shown}:{port}/ (Ctrl-C stops the server); rooms are kept {store.description}")
    if args.host in ("0.0.0.0", "::"):
        print("Plain HTTP on every address: put a reverse proxy with TLS in front (see the web front end how-to)")
    sys.stdout.flush()
    uvicorn.Server(config).run(sockets=[sock])
    return 0
