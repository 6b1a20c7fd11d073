"""Run a module's doctests, also when the module is compiled (mypyc, setup.py).

A compiled module keeps no docstrings, so :func:`doctest.testmod` finds no examples in it.
:func:`testmod` reads the examples from the ``.py`` source beside the extension instead (the
module's, its classes', functions' and methods' docstrings, as ``doctest`` would) and runs them
in the compiled module's namespace: the examples test the compiled code.
"""

from __future__ import annotations

import ast
import doctest
from pathlib import Path
from types import ModuleType


def testmod(mod: ModuleType, optionflags: int = 0) -> doctest.TestResults:
    """:func:`doctest.testmod` of ``mod``, its examples read from its source file."""
    file = Path(mod.__file__ or "")
    if file.suffix == ".py":
        return doctest.testmod(mod, optionflags=optionflags)
    src = file.with_name(mod.__name__.rsplit(".", 1)[-1] + ".py")
    tree = ast.parse(src.read_text(encoding="utf-8"))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=optionflags, verbose=False)
    for name, node in _documented(tree, mod.__name__):
        doc = ast.get_docstring(node, clean=False)
        if doc and ">>>" in doc:
            runner.run(parser.get_doctest(doc, dict(vars(mod)), name, str(src), node.lineno if
                                          not isinstance(node, ast.Module) else 0))
    return runner.summarize(verbose=False)


def _documented(node: ast.AST, name: str) -> list[tuple[str, ast.Module | ast.ClassDef | ast.FunctionDef]]:
    """``node`` (a module, class or function) and the classes and functions defined in it."""
    out: list[tuple[str, ast.Module | ast.ClassDef | ast.FunctionDef]] = []
    if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
        out.append((name, node))
    for child in getattr(node, "body", []):
        if isinstance(child, (ast.ClassDef, ast.FunctionDef)):
            out += _documented(child, f"{name}.{child.name}")
    return out
