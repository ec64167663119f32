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
    "bot/service": {"discord", "PIL", "render"},
    "bot/store": {"discord", "PIL", "render"},
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


# ---- no import circles, and a cog never imports another cog

LAYERS = ("bot", "render", "rules")

# Circles that exist today, allowed until the bot layer's split (issue #24) removes them; the lead
# empties this list when that lands. Any other circle fails, and so does an entry here that is gone.
KNOWN_CIRCLES: set[tuple[str, ...]] = set()
# The same for a cog importing another cog: (importer, imported).
KNOWN_COG_IMPORTS: set[tuple[str, str]] = set()


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def module_imports(root: Path, path: Path, modules: set[str], *, type_checking: bool = False) -> set[str]:
    """The modules of `modules` that `path` imports, at any depth: an import inside a function is the
    same dependency, only later. `if TYPE_CHECKING:` blocks count only with `type_checking`.
    `from a import b` names the module a.b when it is one, else a (its __init__)."""
    name = module_name(root, path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test) and not type_checking:
                for other in child.orelse:
                    visit_node(other)
            else:
                visit_node(child)

    def visit_node(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    found.add(f"{source}.{alias.name}")
                elif source in modules:
                    found.add(source)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    found.discard(name)
    return found


def import_graph(root: Path, layers: tuple[str, ...] = LAYERS, *, type_checking: bool = False) -> dict[str, set[str]]:
    paths = {module_name(root, p): p for layer in layers for p in sorted((root / layer).rglob("*.py"))}
    return {name: module_imports(root, path, set(paths), type_checking=type_checking) for name, path in paths.items()}


def import_circles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Each set of modules that import one another in a circle (a strongly connected component of
    two or more), as a sorted tuple."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: set[tuple[str, ...]] = set()

    def connect(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for other in sorted(graph[module]):
            if other not in index:
                connect(other)
                low[module] = min(low[module], low[other])
            elif other in on_stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                circles.add(tuple(sorted(component)))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return circles


def defines_a_cog(path: Path) -> bool:
    """Whether the module defines a discord.py cog (a class based on Cog or GroupCog)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if (base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")) in ("Cog", "GroupCog"):
                    return True
    return False


def cog_imports(root: Path, graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(cog, other cog) for every module of a cog that imports the module of another one."""
    def path_of(name: str) -> Path:
        module = root / Path(*name.split("."))
        return module.with_suffix(".py") if module.with_suffix(".py").exists() else module / "__init__.py"

    cogs = {name for name in graph if defines_a_cog(path_of(name))}
    return {(cog, other) for cog in cogs for other in graph[cog] if other in cogs}


def test_no_import_circle():
    circles = import_circles(import_graph(ROOT))
    assert circles - KNOWN_CIRCLES == set(), "new import circle(s); break them (a shared module, an argument)"
    assert KNOWN_CIRCLES - circles == set(), "circle(s) gone: remove them from KNOWN_CIRCLES"


def test_a_cog_never_imports_another_cog():
    """Not even for type hints: what two cogs share lives in a shared module (bot.cogs, bot.texts,
    bot.ui), and a cog gets its collaborators from the bot that loads it."""
    found = cog_imports(ROOT, import_graph(ROOT, ("bot",), type_checking=True))
    assert found - KNOWN_COG_IMPORTS == set(), "a cog imports another cog"
    assert KNOWN_COG_IMPORTS - found == set(), "gone: remove them from KNOWN_COG_IMPORTS"


def test_the_circle_checker_sees_circles(tmp_path):
    """The checkers on a small tree: a circle through a function-level and a relative import counts;
    one closed only by an import under TYPE_CHECKING does not; a cog importing a cog is found."""
    files = {
        "bot/__init__.py": "",
        "bot/a.py": "from bot import b\n",
        "bot/b.py": "def later():\n    from .c import thing\n",
        "bot/c.py": "import bot.a\nthing = 1\n",
        "bot/d.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.e import E\n",
        "bot/e.py": "from bot.d import D\n",
        "bot/cogs/__init__.py": "",
        "bot/cogs/one.py": "from discord.ext import commands\nfrom bot.cogs import shared\n"
                           "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.cogs.two import Two\n"
                           "class One(commands.Cog):\n    pass\n",
        "bot/cogs/two.py": "from discord.ext.commands import Cog\nfrom bot.cogs.shared import reply\n"
                           "class Two(Cog):\n    pass\n",
        "bot/cogs/shared.py": "reply = None\n",
        "bot/app.py": "from bot.cogs.one import One\nfrom bot.cogs.two import Two\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = import_graph(tmp_path, ("bot",))
    assert import_circles(graph) == {("bot.a", "bot.b", "bot.c")}
    assert cog_imports(tmp_path, graph) == set()  # the bot may import cogs; TYPE_CHECKING aside
    assert cog_imports(tmp_path, import_graph(tmp_path, ("bot",), type_checking=True)) == {
        ("bot.cogs.one", "bot.cogs.two")}
