"""How ``cheekymonkey serve`` runs the application on uvicorn: timeouts, the connection cap, the file limit.

uvicorn closes a keep-alive connection left idle (``timeout_keep_alive``) but waits for ever for the head of
a request: a client that connects and sends nothing, or a byte a minute, holds a connection and a file
descriptor. :func:`uvicorn_config` uses an HTTP protocol of uvicorn's own (h11) that also closes a
connection whose request head has not arrived within ``header_timeout`` seconds. It caps connections
(``limit_concurrency``: uvicorn answers 503 past it) below the process's file descriptor limit, which
:func:`raise_file_limit` first raises as far as the system allows.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any, Final

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["DEFAULT_HEADER_TIMEOUT", "DEFAULT_IDLE_TIMEOUT", "raise_file_limit", "uvicorn_config"]

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

    return HeadTimeoutProtocol


def uvicorn_config(
    app: Any,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    idle_timeout: int = DEFAULT_IDLE_TIMEOUT,
    max_connections: int | None = None,
    forwarded_allow_ips: str = "127.0.0.1",
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
        forwarded_allow_ips: The addresses (a reverse proxy's) whose ``X-Forwarded-For`` header names the
            client, for the per-client limits.
    """
    if max_connections is None:
        max_connections = max(16, raise_file_limit() - _SPARE_FILES)
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_protocol(header_timeout),
        timeout_keep_alive=idle_timeout,
        limit_concurrency=max_connections,
        proxy_headers=True,
        forwarded_allow_ips=forwarded_allow_ips,
        lifespan="on",
        # The log would show nothing secret (tokens travel in headers), only noise per request.
        access_log=False,
        log_level="warning",
        # Event streams stay open while a page does: at Ctrl-C, give them 2 seconds, then cut them.
        timeout_graceful_shutdown=2,
    )
