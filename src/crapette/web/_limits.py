"""Bounds on what one client can hold: request bodies (size and time to send them), and,
for ``crapette serve``, connections (how many at once, and how long one may take to send
its request's headers).

uvicorn has neither of the connection bounds (measured, see docs/web.md: half-sent requests
stay open for ever, and a flood of them exhausts the descriptors); nor have hypercorn (a
timeout per read only) and granian (its header timeout starts at the first byte, so silent
connections hold its slots for ever). ``ConnectionGuard`` adds both to uvicorn through
uvicorn's own extension point, the HTTP protocol class (``uvicorn.Config(http=...)``), with
the asyncio ``Protocol`` methods only, and an ASGI wrapper that tells it when a request
reaches the application and when its answer is complete.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any, Final, cast

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["BodyLimit", "ConnectionGuard", "error_response"]


def error_response(status: int, code: str, message: str, **headers: str) -> Any:
    """An error answer ``{"error": {"code": ..., "message": ...}}``."""
    from fastapi.responses import JSONResponse

    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=status, headers=headers
    )


class BodyLimit:
    """ASGI middleware: refuse request bodies above ``limit`` bytes with a JSON 413, and
    bodies not received within ``timeout`` seconds with a JSON 408.

    The body is read here (at most ``limit + 1`` bytes) before the application sees it, so
    a client that sends no ``Content-Length`` is bounded as well.
    """

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check the declared length, then read and count the body."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = True
                if too_big:
                    await self._refuse(scope, receive, send)
                    return
        chunks: list[bytes] = []
        seen = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), self.timeout)
            except asyncio.TimeoutError:
                response = error_response(
                    408,
                    "request_timeout",
                    f"the request body was not received within {self.timeout:g} s",
                    connection="close",
                )
                await response(scope, receive, send)
                return
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # a disconnect: let the app see it
                return
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(body)
            more = message.get("more_body", False)
        whole = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": whole, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            413, "body_too_large", f"request bodies are limited to {self.limit} bytes"
        )
        await response(scope, receive, send)


def _canned(status: str, code: str, message: str, headers: str = "") -> bytes:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {len(body)}"
        f"\r\nconnection: close\r\n{headers}\r\n"
    )
    return head.encode() + body


_BUSY: Final = _canned(
    "503 Service Unavailable",
    "too_many_connections",
    "the server has too many connections open: try again",
    "retry-after: 5\r\n",
)
_SLOW: Final = _canned(
    "408 Request Timeout", "request_timeout", "the request headers were not received in time"
)

_Peer = tuple[str, int]


class ConnectionGuard:
    """Connection bounds for a uvicorn server: at most ``max_connections`` at once (HTTP
    and WebSocket; one more is answered ``503 too_many_connections`` and closed at once,
    before it costs anything), and ``header_timeout`` seconds for a connection to deliver
    its next request's headers, from when it opens or its last answer was sent (then
    ``408`` and closed). A WebSocket, once upgraded, is not timed (its hello has its own
    timeout, and the server pings it).

    Use ``wrap(app)`` as the application and ``protocol(base)`` as uvicorn's ``http``
    protocol class.
    """

    def __init__(self, max_connections: int, header_timeout: float) -> None:
        self.max_connections = max_connections
        self.header_timeout = header_timeout
        self.refused = 0
        self.timed_out = 0
        self._waiting: dict[_Peer, asyncio.TimerHandle] = {}
        self._protocols: dict[_Peer, tuple[object, asyncio.BaseTransport]] = {}

    # -- the protocol side

    def protocol(self, base: type[asyncio.Protocol]) -> type[asyncio.Protocol]:
        """A subclass of uvicorn's HTTP protocol class ``base`` bounded by this guard."""
        guard = self

        class Guarded(base):  # type: ignore[valid-type,misc]
            """uvicorn's HTTP protocol, bounded by a ``ConnectionGuard``."""

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                state = kwargs.get("server_state")
                self._open: set[object] = state.connections if state is not None else set()
                self._refused = False
                self._peer: _Peer | None = None
                super().__init__(*args, **kwargs)

            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                if len(self._open) >= guard.max_connections:
                    self._refused = True
                    guard.refused += 1
                    cast(asyncio.Transport, transport).write(_BUSY)
                    transport.close()
                    return
                super().connection_made(transport)
                self._peer = guard._peer_of(transport)
                if self._peer is not None:
                    guard._protocols[self._peer] = (self, transport)
                    guard._arm(self._peer, transport, self)

            def data_received(self, data: bytes) -> None:
                if not self._refused:
                    super().data_received(data)

            def connection_lost(self, exc: Exception | None) -> None:
                if self._refused:
                    return
                if self._peer is not None:
                    guard._forget(self._peer, self)
                super().connection_lost(exc)

            def eof_received(self) -> Any:
                if self._refused:
                    return None
                return super().eof_received()

        Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
        return Guarded

    @staticmethod
    def _peer_of(transport: asyncio.BaseTransport) -> _Peer | None:
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and len(peer) >= 2:
            return (str(peer[0]), int(peer[1]))
        return None

    def _arm(self, peer: _Peer, transport: asyncio.BaseTransport, protocol: object) -> None:
        self._disarm(peer)
        loop = asyncio.get_running_loop()

        def too_slow() -> None:
            self._waiting.pop(peer, None)
            if transport.get_protocol() is not protocol or transport.is_closing():
                return  # upgraded to a WebSocket, or gone
            self.timed_out += 1
            cast(asyncio.Transport, transport).write(_SLOW)
            transport.close()

        self._waiting[peer] = loop.call_later(self.header_timeout, too_slow)

    def _disarm(self, peer: _Peer) -> None:
        timer = self._waiting.pop(peer, None)
        if timer is not None:
            timer.cancel()

    def _forget(self, peer: _Peer, protocol: object) -> None:
        held = self._protocols.get(peer)
        if held is not None and held[0] is protocol:
            del self._protocols[peer]
            self._disarm(peer)

    # -- the application side

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """The ASGI application ``app``, telling this guard when a request reaches it (its
        headers are in) and when its answer is complete (the next request's headers are
        awaited again)."""

        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] not in ("http", "websocket"):
                await app(scope, receive, send)
                return
            client = scope.get("client")
            peer = (str(client[0]), int(client[1])) if client else None
            if peer is not None:
                self._disarm(peer)
            if peer is None:
                await app(scope, receive, send)
                return
            if scope["type"] == "websocket":
                try:
                    await app(scope, receive, send)
                finally:  # an upgraded connection's HTTP protocol never hears it close
                    held = self._protocols.get(peer)
                    if held is not None and held[1].get_protocol() is not held[0]:
                        del self._protocols[peer]
                return

            async def sending(message: Message) -> None:
                await send(message)
                if message["type"] == "http.response.body" and not message.get("more_body"):
                    held = self._protocols.get(peer)
                    if held is not None:
                        self._arm(peer, held[1], held[0])

            await app(scope, receive, sending)

        return guarded
