"""``cheekymonkey serve``: the web front end, on uvicorn (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import sys

__all__ = ["add_arguments", "run"]


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} must be more than 0")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add this command's options."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--idle-minutes", type=_positive, default=30.0, help="close rooms nobody has used for this long (default 30)"
    )
    parser.add_argument("--max-rooms", type=int, default=1000, help="the most rooms open at once (default 1000)")
    parser.add_argument(
        "--bot-delay", type=float, default=0.8, help="seconds a bot waits before each move, to follow it (default 0.8)"
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
        bot_delay=max(0.0, args.bot_delay),
        allow_seeds=args.allow_seeds,
    )
    print(f"Cheeky Monkey: open http://{args.host}:{args.port}/ in a browser (Ctrl-C stops the server)")
    # access_log off: the log would show nothing secret (tokens travel in headers), only noise per move.
    # Event streams stay open while a page does: at Ctrl-C, give them 2 seconds, then cut them.
    uvicorn.run(
        create_app(manager),
        host=args.host,
        port=args.port,
        access_log=False,
        log_level="warning",
        timeout_graceful_shutdown=2,
    )
    return 0
