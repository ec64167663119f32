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


# ---- the cogs in discord.py's idiom

COGS = sorted((ROOT / "bot" / "cogs").glob("*.py"))
# How one cog reaches another: the bot's attributes that hold cogs, and a cog property naming one.
OTHER_COGS = {("bot", "junction"), ("bot", "admin"), ("bot", "clock"), ("self", "games")}


def _is_command_decorator(node: ast.expr) -> bool:
    """`@app_commands.command(...)`, `@some_group.command(...)`: what makes a slash command."""
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Attribute) and target.attr in ("command", "context_menu")


@pytest.mark.parametrize("path", COGS, ids=lambda p: p.name)
def test_slash_commands_are_methods_of_a_cog_class(path):
    """Commands are decorated methods of a Cog (its groups class attributes), never closures built
    inside a method: discord.py binds them to the cog, and they read like its documentation."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    methods = {id(node) for cls in ast.walk(tree) if isinstance(cls, ast.ClassDef) for node in cls.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef) and any(
                _is_command_decorator(d) for d in node.decorator_list):
            assert id(node) in methods, f"{path.name}:{node.lineno} {node.name} is not a method of a cog class"


@pytest.mark.parametrize("path", COGS, ids=lambda p: p.name)
def test_a_cog_uses_only_the_public_side_of_another(path):
    """No `self.bot.junction._post_board(...)`, `GamesCog._reply`: what cogs share is public, or lives
    in a shared module (bot.cogs, bot.texts, bot.ui)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    cog_classes = {"GamesCog", "ClockCog", "AdminCog"}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute) or not node.attr.startswith("_") or node.attr.startswith("__"):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in cog_classes:
            raise AssertionError(f"{path.name}:{node.lineno} reaches {base.id}.{node.attr}")
        if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name | ast.Attribute):
            owner = base.value.id if isinstance(base.value, ast.Name) else base.value.attr
            assert (owner, base.attr) not in OTHER_COGS, (
                f"{path.name}:{node.lineno} reaches {owner}.{base.attr}.{node.attr}, another cog's private part")
