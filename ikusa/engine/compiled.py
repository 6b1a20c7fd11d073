"""Which of ikusa's modules this checkout runs compiled (mypyc, setup.py), and whether any of
those builds is stale.

A module compiled by mypyc is an extension (``name.cpython-*.so``) beside its ``name.py``; Python
imports the extension first.  In an editable install (``pip install -e .``) an edit of the
``.py`` does not reach the extension: until the next ``pip install -e .`` the old code runs.
:func:`stale_modules` finds those (an extension older than its source), so the test suite can
refuse to run on them (tests/conftest.py) and the benches can say what they timed.

Nothing is imported: the files are looked up, so this is cheap and works before an import.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

#: the folder holding the ``ikusa`` package
PACKAGE = Path(__file__).resolve().parent.parent


def _extensions(package: Path) -> list[tuple[str, Path, Path]]:
    """(module name, extension, its source) for every extension in ``package`` beside a ``.py``."""
    out: dict[Path, tuple[str, Path, Path]] = {}
    for suffix in EXTENSION_SUFFIXES:  # the longest first (.cpython-311-….so before .so)
        for ext in sorted(package.rglob(f"*{suffix}")):
            src = ext.with_name(ext.name[: -len(suffix)] + ".py")
            if ext not in out and src.exists():
                rel = src.relative_to(package.parent).with_suffix("")
                out[ext] = (".".join(rel.parts), ext, src)
    return sorted(out.values())


def compiled_modules(package: Path = PACKAGE) -> list[str]:
    """The dotted names of the modules that import compiled (an extension beside the source)."""
    return [name for name, _, _ in _extensions(package)]


#: seconds a source may be newer than its extension and still count as built with it: a wheel's
#: files are unpacked one after the other (an edit comes later than that)
SLACK = 2.0


def stale_modules(package: Path = PACKAGE) -> list[str]:
    """The compiled modules whose source changed after they were built (rebuild: ``pip install -e .``)."""
    return [name for name, ext, src in _extensions(package) if src.stat().st_mtime > ext.stat().st_mtime + SLACK]


def describe() -> str:
    """One line for a bench's output: compiled (how many modules) or pure Python, and stale builds."""
    names = compiled_modules()
    if not names:
        return "pure Python (nothing compiled)"
    stale = stale_modules()
    line = f"compiled with mypyc ({len(names)} modules)"
    if stale:
        line += f"; STALE (source newer than the build, rebuild with pip install -e .): {', '.join(stale)}"
    return line
