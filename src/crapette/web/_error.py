"""The game server's refusal of a request: the session's refusal with an HTTP status."""

from __future__ import annotations

from typing import Any

from crapette.errors import SessionError

__all__ = ["WebError"]


class WebError(SessionError):
    """A request the game server refuses (``crapette.web``): an HTTP status, a short
    machine-readable code and a message, sent to the client as
    ``{"error": {"code": ..., "message": ...}}``; a move the rules refuse adds the rules'
    reason as data, ``"reason": {"code": ..., "params": {...}}``. The game server refuses a
    session's action with one of these (the session's code, and its HTTP status).
    Attributes:
        status: the HTTP status (a 4xx, or 503 when the server is full).
        code: the machine-readable reason, such as ``"illegal_move"``.
        message: the readable reason.
        reason: for an illegal move, the rules' refusal as JSON-ready data (its reason code
            of the rule spec and its parameters, ``Refusal.to_dict()``); else ``None``.
    """

    def __init__(
        self, status: int, code: str, message: str, reason: dict[str, Any] | None = None
    ) -> None:
        super().__init__(code, message, reason)
        self.status = status

    def body(self) -> dict[str, Any]:
        """The JSON body of the refusal: ``{"error": {"code", "message"[, "reason"]}}``."""
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.reason is not None:
            error["reason"] = self.reason
        return {"error": error}
