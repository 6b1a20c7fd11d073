"""Build ikusa, compiling the maai engine's hot modules to C with mypyc (issue #12 target 1).

mypyc (it ships with mypy) turns the listed modules, type-checked with the project's
``mypy --strict`` settings (``[tool.mypy]`` in pyproject.toml), into C extensions built with the
machine's C compiler; an extension (``<module>.cpython-*.so``) is imported instead of the
``.py`` beside it.  Behaviour is the same as the pure-Python modules (tests/qa/test_byte_identity.py
runs on both; tests/qa/test_compiled_build.py), only faster.

The build falls back to pure Python, with a one-line message, when

* ``IKUSA_PURE=1`` is set (``IKUSA_PURE=1 pip install -e .``), or
* there is no C compiler, or mypyc or the C compiler fails.

An editable install (``pip install -e .``) puts the extensions beside the sources.  They do not
follow edits of the ``.py`` files: rebuild with ``pip install -e .`` (``scripts/test.sh`` does,
and the test suite refuses to run on a stale build; see README).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: the modules a maai battle runs through (cProfile of bench/bench_maai_duels.py), compiled.
#: Left out: the pydantic models (options, tables, catalog, encounter, rulings: mypyc cannot
#: compile classes of pydantic's metaclass, and they are read once per encounter), defence.py
#: (rules_text.py shows its module docstring, which a compiled module drops) and
#: engine/continuation.py (table mode only).
#: fantasy and sengensyou (issue #12 target 2): their engine modules, without the pydantic
#: models' modules (fantasy: battlefields, character, check, conditions, encounter, options;
#: sengensyou: catalog, character, encounter, homebrew, options, status), the text and ruling
#: modules read once (rules_text, rulings, data_files) and sengensyou's column_option.py (its
#: ColumnOption is a Python subclass of the compiled Option, made through Option.__new__).
#: Classes copied through ``cls.__new__`` (deepcopy for the lab's clones, pickle for
#: ``ikusa sim --workers``, SengensyouState.clone) are ``allow_interpreted_subclasses``: with it a
#: compiled ``__new__`` does not call ``__init__`` (mypy 2.4.1's ``serializable=True`` does not
#: either, but then a plain ``Cls(args)`` no longer runs ``__init__`` at all).
COMPILED = [
    "ikusa/dice/odds.py",
    "ikusa/dice/source.py",
    "ikusa/engine/errors.py",
    "ikusa/engine/events.py",
    "ikusa/engine/int_limit.py",
    "ikusa/engine/protocol.py",
    "ikusa/engine/rounding.py",
    *(f"ikusa/systems/maai/{name}.py" for name in (
        "attack_flow", "breath", "breath_flow", "breath_memo", "breath_options", "check", "conditions", "costs",
        "count_index", "count_ties", "damage", "effects", "equipment", "event_text", "fatigue", "fear", "flow_base",
        "fumble", "grades", "guard", "lull", "movement", "moves", "noncorporeal", "odds", "option_odds",
        "policies", "puppets", "reinforcements", "rules_link", "rules_snapshot", "state", "survival", "units",
    )),
    *(f"ikusa/systems/fantasy/{name}.py" for name in (
        "actions", "applying", "board", "cand", "commands", "effects", "formation", "legal", "lines",
        "odds", "opposed", "option_cache", "option_list", "policies", "resolution", "setup", "state",
        "surprise", "turns",
    )),
    *(f"ikusa/systems/sengensyou/{name}.py" for name in (
        "actions", "attack_options", "attacks", "board", "bullets", "check", "checks_flow", "commands",
        "defence", "effects", "gm", "graze", "legality", "movement", "odds", "policies", "refusals",
        "spellcards", "state", "turn",
    )),
]


#: mypyc's shared library of the compiled modules (``ikusa_compiled__mypyc.*.so``, top level)
GROUP = "ikusa_compiled"
ROOT = Path(__file__).resolve().parent


def _say(msg: str) -> None:
    print(f"ikusa: {msg}", file=sys.stderr)


def _has_compiler() -> bool:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    return bool(words) and shutil.which(words[0]) is not None


def _built_in_tree() -> list[Path]:
    """Every extension an earlier build left in the source tree (an editable install puts them
    beside the sources): ikusa's modules and mypyc's shared libraries."""
    found: set[Path] = set()  # a set: one file ends with several suffixes (.cpython-311-….so, .so)
    for suffix in EXTENSION_SUFFIXES:
        found.update(ROOT.joinpath("ikusa").rglob(f"*{suffix}"))
        found.update(ROOT.glob(f"*__mypyc{suffix}"))
    return sorted(found)


def _remove_built(keep: set[Path]) -> None:
    """Remove the tree's extensions this build does not make again (a module taken off
    :data:`COMPILED`, an old shared library, all of them for a pure-Python build), so no old
    compiled code stays in front of its ``.py``."""
    for ext in _built_in_tree():
        if ext not in keep:
            ext.unlink()


def _kept() -> set[Path]:
    names = [ROOT / p[: -len(".py")] for p in COMPILED] + [ROOT / f"{GROUP}__mypyc"]
    return {n.with_name(n.name + suffix) for n in names for suffix in EXTENSION_SUFFIXES}


#: the setup.py commands that build code; the others (pip's metadata steps: egg_info, dist_info)
#: get no extensions, so mypyc runs once per install, not once per step
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop", "bdist_egg"}


def _extensions() -> list[Any]:
    if not BUILDS & set(sys.argv[1:]):
        return []
    if os.environ.get("IKUSA_PURE", "") not in ("", "0"):
        _say("IKUSA_PURE is set: pure Python, nothing compiled")
        _remove_built(set())
        return []
    if not _has_compiler():
        _say("no C compiler found: pure Python, nothing compiled (same behaviour, slower)")
        _remove_built(set())
        return []
    _remove_built(_kept())
    try:
        from mypyc.build import mypycify

        return list(mypycify(COMPILED, opt_level="3", group_name=GROUP))
    except (Exception, SystemExit) as exc:  # mypyc's type check or code generation refused
        _say(f"mypyc failed ({exc!s:.300}): pure Python, nothing compiled (same behaviour, slower)")
        _remove_built(set())
        return []


class BuildExt(build_ext):
    """build_ext that falls back to pure Python (with a one-line message) when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler failure: fall back, and say so
            _say(f"C compilation failed ({exc!s:.300}): pure Python, nothing compiled (same behaviour, slower)")
            _remove_built(set())
            self.extensions = []


setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
