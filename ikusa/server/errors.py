"""The refusals of the table service, each with its HTTP status and one clear line."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused request: ``status`` (403, 404, 409, 413, 422), the ``error`` line, and for
    409 the fresh ``view`` of the caller's role."""

    status = 400

    def __init__(self, error: str, view: dict[str, Any] | None = None) -> None:
        super().__init__(error)
        self.error = error
        self.view = view

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.error}
        if self.view is not None:
            out["view"] = self.view
        return out


class Forbidden(ServiceError):
    status = 403


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    """The table changed since the version the write carries."""

    status = 409


class TooLarge(ServiceError):
    status = 413


class Unprocessable(ServiceError):
    """Malformed input or an illegal action (the rule named)."""

    status = 422
