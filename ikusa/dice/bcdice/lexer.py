"""The tokenizer shared by the lexer-based common commands (BCDice ``CommonCommand::Lexer``).

Only the first word of the input is a command: text after the first run of whitespace is
a comment (BCDice's ``split(" ", 2)``, which also skips leading whitespace).  Whitespace is
what bcdice-js (BCDice compiled to JavaScript, whose ``\\s`` it uses) counts as such:
ASCII spaces plus the Unicode spaces, the full-width ``\\u3000`` among them, so
``1D6\\u3000コメント`` rolls ``1D6`` as BCDice 4.9.0 does (:data:`WS`).
Tokens are a run of ASCII digits (``NUM``), a run of ``<>!=`` (``CMP``, normalised with
:func:`~ikusa.dice.bcdice.fmt.normalize_cmp`), or any other single character, ASCII
letters upper-cased so commands are case-insensitive.

>>> [t.kind for t in tokenize("s2d6>=7 comment")]
['S', 'NUM', 'D', 'NUM', 'CMP', 'NUM']
"""

from __future__ import annotations

import re

from ikusa.dice.bcdice.fmt import normalize_cmp
from ikusa.dice.bcdice.limits import MAX_DEPTH

#: the whitespace class of JavaScript's ``\\s`` (bcdice-js), as a regex character class
WS = "[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]"
#: the characters :data:`WS` matches, for ``str.strip``
WS_CHARS = "\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"
_SPACE = re.compile(WS + "+")
_TOKEN = re.compile(r"(?P<num>[0-9]+)|(?P<cmp>[<>!=]+)|(?P<ch>.)", re.DOTALL)


class ParseFail(Exception):
    """Internal: the text is not this command (the caller answers ``None``)."""


class Token:
    """One token: ``kind`` is ``NUM``, ``CMP``, ``EOF`` or the (upper-cased) character itself;
    ``op`` the normalised operator of a ``CMP`` token (``None`` when it names none).  Treated as
    immutable; a plain slots class, not a dataclass, for the dice bot's start-up (issue #12)."""

    __slots__ = ("kind", "op", "text")

    def __init__(self, kind: str, text: str, op: str | None = None) -> None:
        self.kind = kind
        self.text = text
        self.op = op

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Token):
            return NotImplemented
        return (self.kind, self.text, self.op) == (other.kind, other.text, other.op)

    def __hash__(self) -> int:
        return hash((self.kind, self.text, self.op))

    def __repr__(self) -> str:
        return f"Token(kind={self.kind!r}, text={self.text!r}, op={self.op!r})"


EOF = Token("EOF", "")


def first_word(command: str) -> str:
    """The command part of the input: up to the first whitespace (:data:`WS`), leading
    whitespace skipped.

    >>> first_word("  1D6\u3000コメント"), first_word("")
    ('1D6', '')
    """
    parts = _SPACE.split(command.lstrip(WS_CHARS), maxsplit=1)
    return parts[0] if parts else ""


def tokenize(command: str) -> list[Token]:
    out: list[Token] = []
    for m in _TOKEN.finditer(first_word(command)):
        if m.group("num") is not None:
            out.append(Token("NUM", m.group("num")))
        elif m.group("cmp") is not None:
            text = m.group("cmp")
            out.append(Token("CMP", text, normalize_cmp(text)))
        else:
            ch = m.group("ch")
            out.append(Token(ch.upper() if ch.isascii() else ch, ch))
    return out


class Tokens:
    """A cursor over the tokens with the small helpers a recursive-descent parser needs."""

    def __init__(self, tokens: list[Token]) -> None:
        self._toks = tokens
        self.pos = 0
        self.depth = 0

    @classmethod
    def of(cls, command: str) -> Tokens:
        return cls(tokenize(command))

    def peek(self, k: int = 0) -> Token:
        i = self.pos + k
        return self._toks[i] if i < len(self._toks) else EOF

    def is_kinds(self, *kinds: str) -> bool:
        """Whether the next tokens are exactly ``kinds`` (in order)."""
        return all(self.peek(i).kind == k for i, k in enumerate(kinds))

    def accept(self, kind: str) -> Token | None:
        tok = self.peek()
        if tok.kind == kind:
            self.pos += 1
            return tok
        return None

    def comparison(self) -> str | None:
        """The operator of a comparison token here (consumed), or None if there is none; a
        ``CMP`` token that names no operator is not a command."""
        tok = self.peek()
        if tok.kind != "CMP":
            return None
        if tok.op is None:
            raise ParseFail("not a comparison operator")
        self.pos += 1
        return tok.op

    def expect(self, kind: str) -> Token:
        tok = self.accept(kind)
        if tok is None:
            raise ParseFail(f"expected {kind} at token {self.pos}")
        return tok

    def at_end(self) -> bool:
        return self.pos >= len(self._toks)

    def expect_end(self) -> None:
        if not self.at_end():
            raise ParseFail(f"unexpected {self.peek().text!r}")

    def enter(self) -> None:
        """One more level of parentheses; too deep is not a command."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseFail("nesting too deep")

    def leave(self) -> None:
        self.depth -= 1
