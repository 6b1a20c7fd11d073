"""The links of a table (issue #9, "links instead of accounts"): capability tokens stored hashed,
looked up, rotated and revoked.

:class:`LinkService` is the part of :class:`~ikusa.server.service.TableService` that holds them.
A link found valid is kept in the process for :data:`LINK_TTL` seconds (a lookup per request
cost a database round trip, more than the request's own work), and a revocation ends it at
once: in the revoking process when it commits, in every other one by the revocation's NOTIFY
(PostgreSQL, :meth:`Hub.close` calls :meth:`LinkService.forget_links`).  The TTL bounds only
several processes on one SQLite file, which have no NOTIFY.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Collection
from contextlib import AbstractContextManager
from typing import Any

from sqlalchemy import bindparam, insert, select, text, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import Session

from ikusa.server.db import Base, TokenRow
from ikusa.server.errors import Forbidden, Unprocessable
from ikusa.server.hub import CHANNEL, Hub, revoke_payload
from ikusa.server.projection import Principal
from ikusa.server.table import TableState

#: seconds a link found valid is trusted without asking the database again
LINK_TTL = 10.0
#: links kept at most (the lookups of a busy server; forged tokens are never kept)
LINKS_KEPT = 10_000

_TOKENS = Base.metadata.tables["tokens"]
_INSERT_TOKENS = insert(_TOKENS)
_LINK = (select(_TOKENS.c.table_id, _TOKENS.c.role, _TOKENS.c.name, _TOKENS.c.revoked)
         .where(_TOKENS.c.token_hash == bindparam("b_hash")))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class LinkService:
    """Tokens of the tables on one database (a part of the table service)."""

    engine: Engine
    hub: Hub
    postgres: bool

    def _writing(self) -> AbstractContextManager[Any]:
        raise NotImplementedError

    def _state(self, table_id: str, min_version: int | None = None) -> TableState:
        raise NotImplementedError

    def _require_gm(self, principal: Principal) -> None:
        if not principal.is_gm:
            raise Forbidden("only the GM may do this")

    def _init_links(self) -> None:
        #: valid links looked up lately: digest → (until when, principal)
        self._links: dict[str, tuple[float, Principal]] = {}
        self._link_generation = 0
        self.hub.on_close.append(lambda _table_id, hashes: self.forget_links(hashes))

    def principal(self, token: str, table_id: str | None = None) -> Principal:
        """The principal a token stands for; ``Forbidden`` if forged, revoked or another table's."""
        if not token or len(token) > 200:
            raise Forbidden("invalid link")
        digest = hash_token(token)
        now = time.monotonic()
        kept = self._links.get(digest)
        if kept is None or kept[0] < now:
            generation = self._link_generation  # a revocation while we ask: not kept
            with self.engine.connect() as conn:
                row = conn.execute(_LINK, {"b_hash": digest}).first()
            if row is None or row.revoked:
                raise Forbidden("this link is not valid for this table (forged, revoked or another table's)")
            kept = (now + LINK_TTL, Principal(row.table_id, row.role, row.name, digest))
            if len(self._links) >= LINKS_KEPT:
                self._links.clear()
            if generation == self._link_generation:
                self._links[digest] = kept
        if table_id is not None and kept[1].table_id != table_id:
            raise Forbidden("this link is not valid for this table (forged, revoked or another table's)")
        return kept[1]

    def kept_principal(self, token: str, table_id: str) -> Principal | None:
        """The principal of ``token`` for ``table_id`` if a lookup of it is kept (:meth:`principal`
        without a database query), else ``None`` (ask :meth:`principal`)."""
        kept = self._links.get(hash_token(token)) if token and len(token) <= 200 else None
        if kept is None or kept[0] < time.monotonic() or kept[1].table_id != table_id:
            return None
        return kept[1]

    def forget_links(self, token_hashes: Collection[str]) -> None:
        """Drop revoked links from the lookups kept (:meth:`principal`)."""
        self._link_generation += 1
        for digest in token_hashes:
            self._links.pop(digest, None)

    def link_active(self, principal: Principal) -> bool:
        """Whether the link ``principal`` came from is still valid (not revoked since)."""
        with self.engine.connect() as conn:
            row = conn.execute(_LINK, {"b_hash": principal.token_hash}).first()
        return row is not None and not row.revoked

    def _new_token(self, s: Session | Connection, table_id: str, role: str, name: str = "") -> str:
        token = secrets.token_urlsafe(32)
        s.execute(_INSERT_TOKENS, [{"table_id": table_id, "role": role, "name": name, "token_hash": hash_token(token),
                                    "revoked": False}])
        return token

    def rotate(self, principal: Principal, role: str, name: str = "") -> str:
        """Revoke the link(s) of ``role``/``name`` and issue a new one (GM only)."""
        return self._revoke_links(principal, role, name, issue=True)

    def revoke(self, principal: Principal, role: str, name: str = "") -> None:
        """Revoke the link(s) of ``role``/``name`` (GM only); a later ``rotate`` issues a new one."""
        self._revoke_links(principal, role, name, issue=False)

    def _revoke_links(self, principal: Principal, role: str, name: str, issue: bool) -> str:
        """Revoke in one transaction (and, with ``issue``, add the new link there too: its token is
        returned, else ``""``); then the kept links and open streams of the revoked ones go."""
        self._require_gm(principal)
        self._check_role(principal.table_id, role, name)
        with self._writing(), Session(self.engine) as s, s.begin():
            revoked = self._revoke(s, principal.table_id, role, name)
            token = self._new_token(s, principal.table_id, role, name) if issue else ""
        self.forget_links(revoked)
        self._close_streams(principal.table_id, revoked)
        return token

    def links(self, principal: Principal) -> list[dict[str, Any]]:
        """The table's links (role, name, active) for the GM; tokens themselves are not stored."""
        self._require_gm(principal)
        with Session(self.engine) as s:
            rows = s.scalars(select(TokenRow).where(TokenRow.table_id == principal.table_id)
                             .order_by(TokenRow.id)).all()
        return [{"role": r.role, "name": r.name, "active": not r.revoked} for r in rows]

    def _check_role(self, table_id: str, role: str, name: str) -> None:
        if role not in ("gm", "player", "spectator"):
            raise Unprocessable(f"role must be gm, player or spectator, not {role!r}")
        if role == "player" and name not in self._state(table_id).players():
            raise Unprocessable(f"no player {name!r} at this table")

    def _revoke(self, s: Session, table_id: str, role: str, name: str) -> list[str]:
        """Revoke the active links of ``role``/``name``; their hashes (on PostgreSQL the NOTIFY
        that ends their streams in every process goes with the transaction)."""
        where = (TokenRow.table_id == table_id, TokenRow.role == role, TokenRow.name == name,
                 TokenRow.revoked.is_(False))
        hashes = list(s.scalars(select(TokenRow.token_hash).where(*where)))
        if hashes:
            s.execute(update(TokenRow).where(*where).values(revoked=True))
            if self.postgres:
                s.execute(text("SELECT pg_notify(:c, :p)"), {"c": CHANNEL, "p": revoke_payload(table_id, hashes)})
        return hashes

    def _close_streams(self, table_id: str, hashes: list[str]) -> None:
        """End the open streams of revoked links (committed first; PostgreSQL: by NOTIFY)."""
        if hashes and not self.postgres:
            self.hub.close(table_id, hashes)
