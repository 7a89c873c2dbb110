"""``cheekymonkey serve``: the web front end, on uvicorn (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import socket
import sys

from cheekymonkey.cli.options import number_type, positive_int

__all__ = ["add_arguments", "run"]


_port = number_type(int, 0, 65535, what="a port (0 picks a free one)")
_minutes = number_type(float, 0, above=True, what="a number of minutes")
_seconds = number_type(float, 0, 60, what="a number of seconds")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=_port, default=8000, help="port to listen on (default 8000; 0: a free one)")
    parser.add_argument(
        "--idle-minutes", type=_minutes, default=30.0, help="close rooms nobody has used for this long (default 30)"
    )
    parser.add_argument(
        "--max-rooms", type=positive_int, default=1000, help="the most rooms open at once (default 1000)"
    )
    parser.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.8,
        help="seconds a bot waits before each move, to follow it (default 0.8)",
    )
    parser.add_argument(
        "--allow-seeds",
        action="store_true",
        help="let whoever makes a room choose its seed (predictable draws: for tests and demonstrations only)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve the web front end until interrupted; return the exit status."""
    try:
        import uvicorn

        from cheekymonkey.web import RoomManager, create_app
    except ImportError as error:
        print(f"cheekymonkey serve: {error}; install it with: pip install 'cheekymonkey[web]'", file=sys.stderr)
        return 2
    manager = RoomManager(
        max_rooms=args.max_rooms,
        idle_seconds=args.idle_minutes * 60,
        bot_delay=args.bot_delay,
        allow_seeds=args.allow_seeds,
    )
    # The port is bound before the address is printed: a busy port is one line and status 2, never a link to
    # somebody else's server.
    try:
        family, kind, proto, _, address = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(family, kind, proto)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(2048)  # from here on, a browser's connection waits for the server rather than failing
    except OSError as error:
        print(f"cheekymonkey serve: cannot listen on {args.host} port {args.port}: {error.strerror}", file=sys.stderr)
        return 2
    host, port = listener.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"Cheeky Monkey: open http://{shown}:{port}/ in a browser (Ctrl-C stops the server)", flush=True)
    # access_log off: the log would show nothing secret (tokens travel in headers), only noise per move.
    # Event streams stay open while a page does: at Ctrl-C, give them 2 seconds, then cut them.
    config = uvicorn.Config(create_app(manager), access_log=False, log_level="warning", timeout_graceful_shutdown=2)
    uvicorn.Server(config).run(sockets=[listener])
    return 0
