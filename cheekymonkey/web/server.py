"""How ``cheekymonkey serve`` runs the application on uvicorn: timeouts, the connection cap, proxies, shutdown.

uvicorn closes a keep-alive connection left idle (``timeout_keep_alive``) but waits for ever for the head of
a request: a client that connects and sends nothing, or a byte a minute, holds a connection and a file
descriptor. :func:`uvicorn_config` uses an HTTP protocol of uvicorn's own (h11) that also closes a
connection whose request head has not arrived within ``header_timeout`` seconds, and that sends the
security headers with the 400 it answers a request it cannot parse (the application never sees those). It
caps connections (``limit_concurrency``: uvicorn answers 503 past it) below the process's file descriptor
limit, which :func:`raise_file_limit` first raises as far as the system allows. ``X-Forwarded-For`` names
the client only when the connection comes from one of the ``trusted_proxies`` (none by default).

:class:`Server` is uvicorn's server, ending the event streams as it begins to shut down, so that SIGTERM or
Ctrl-C with pages open stops the process at once, with exit status 0 and no traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
import signal
import socket
import threading
from collections.abc import Iterator, Sequence
from typing import Any, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = [
    "DEFAULT_HEADER_TIMEOUT",
    "DEFAULT_IDLE_TIMEOUT",
    "SECURITY_HEADERS",
    "Server",
    "raise_file_limit",
    "uvicorn_config",
]

SECURITY_HEADERS: Final = (
    ("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("X-Frame-Options", "DENY"),
)
"""The headers every answer carries: the pages load nothing from elsewhere, run no inline script, are never framed.

The application adds them to its own answers, and the HTTP protocol of :func:`uvicorn_config` to the 400s
it gives requests it cannot parse. uvicorn's own 503, past the connection cap, goes without them: a front
proxy adds them to every answer (see the web front end how-to).
"""

DEFAULT_HEADER_TIMEOUT: Final = 10.0
"""Seconds a client has to send a request's head (first line and headers), from connecting or its last answer."""

DEFAULT_IDLE_TIMEOUT: Final = 20
"""Seconds a keep-alive connection may sit idle between requests."""

_SPARE_FILES: Final = 64  # file descriptors kept for the store, the logs and the bots' threads


def raise_file_limit() -> int:
    """Raise this process's limit on open files to the most the system allows; return the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return soft


def _protocol(header_timeout: float) -> type[H11Protocol]:
    class HeadTimeoutProtocol(H11Protocol):
        """uvicorn's h11 protocol, closing a connection whose request head is not in after ``header_timeout``."""

        _head_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._head_timed_out)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            # Still waiting for (the rest of) a request's head, with no answer being written: give up on it.
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            # An answer goes out as two writes (its head, then its body): without TCP_NODELAY the second waits
            # for the client's delayed acknowledgement of the first, about 40 ms on every keep-alive request.
            # asyncio sets it only on sockets made with IPPROTO_TCP named, which a socket passed in may not be.
            sock = transport.get_extra_info("socket")
            if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self._arm()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self._arm()  # part of a head came: the rest must follow in time
            else:
                self._disarm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            # uvicorn's own answer to a request it cannot parse, with the security headers and nothing echoed.
            headers = [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"connection", b"close"),
                *((name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS),
            ]
            for event in (
                h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
                h11.Data(data=b"the request could not be read as HTTP/1.1"),
                h11.EndOfMessage(),
            ):
                output = self.conn.send(event)
                if output:
                    self.transport.write(output)
            self.transport.close()

    return HeadTimeoutProtocol


def uvicorn_config(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    idle_timeout: int = DEFAULT_IDLE_TIMEOUT,
    max_connections: int | None = None,
    trusted_proxies: Sequence[str] = (),
) -> uvicorn.Config:
    """The uvicorn configuration ``cheekymonkey serve`` runs ``app`` with.

    Args:
        app: The ASGI application (:func:`~cheekymonkey.web.create_app`).
        host: The address to listen on.
        port: The port to listen on.
        header_timeout: Seconds a client has to send a request's head.
        idle_timeout: Seconds a keep-alive connection may stay idle.
        max_connections: Connections at once, past which uvicorn answers 503 (default: what the file
            limit leaves room for).
        trusted_proxies: The addresses (a reverse proxy's; networks such as ``10.0.0.0/8`` too) whose
            ``X-Forwarded-For`` header names the client, for the per-client limits. None by default, not
            even 127.0.0.1: any local process could otherwise claim to be any number of clients.
    """
    if max_connections is None:
        max_connections = max(16, raise_file_limit() - _SPARE_FILES)
    proxies = [address.strip() for address in trusted_proxies if address.strip()]
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_protocol(header_timeout),
        timeout_keep_alive=idle_timeout,
        limit_concurrency=max_connections,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies or None,
        lifespan="on",
        # The log would show nothing secret (tokens travel in headers), only noise per request.
        access_log=False,
        log_level="warning",
        # Event streams stay open while a page does: at Ctrl-C, give them 2 seconds, then cut them.
        timeout_graceful_shutdown=2,
    )


class Server(uvicorn.Server):
    """uvicorn's server, as ``cheekymonkey serve`` runs it: open event streams end as shutdown begins.

    An event stream stays open as long as its page does. At SIGTERM or Ctrl-C uvicorn waits for every open
    answer to end (``timeout_graceful_shutdown``), then cancels the rest, with a traceback each; this server
    first calls the application's ``state.end_streams`` (set by :func:`~cheekymonkey.web.create_app`), so
    every stream sends nothing more and ends, and the process stops at once. A signal that stopped it is
    not raised again once it has stopped: the exit status is 0, as for a clean stop.
    """

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """End the event streams, then shut down as uvicorn does."""
        end_streams = getattr(getattr(self.config.app, "state", None), "end_streams", None)
        if callable(end_streams):
            end_streams()
        await super().shutdown(sockets)

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """Stop at SIGINT and SIGTERM, as uvicorn does, without raising the signal again afterwards."""
        if threading.current_thread() is not threading.main_thread():
            yield
            return
        original = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)
