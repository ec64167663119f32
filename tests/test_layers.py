"""Imports point downward only: bot -> render -> rules; the service layer is free of discord."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "rules": {"render", "bot", "discord", "PIL", "aiosqlite", "aiohttp", "sqlite3"},
    "render": {"bot", "discord", "aiosqlite", "aiohttp", "sqlite3"},
    "bot/tables.py": {"discord", "PIL", "render"},
    "bot/store.py": {"discord", "PIL", "render"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            roots.add(str(node.args[0].value).split(".")[0])
    return roots


def files(layer: str) -> list[Path]:
    target = ROOT / layer
    return [target] if target.suffix == ".py" else sorted(target.rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_imports_point_downward(layer):
    found = files(layer)
    assert found, f"no Python files under {layer}"
    bad = {str(p.relative_to(ROOT)): sorted(imported_roots(p) & FORBIDDEN[layer]) for p in found}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_checker_sees_imports():
    sample = ROOT / "bot" / "app.py"
    assert {"discord", "bot"} <= imported_roots(sample)
