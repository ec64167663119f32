"""The newcomer's path: the README's first commands, what CI runs, the docs' links, and what the package ships."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

from tests.conftest import SLOW

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block, "the README must open with a shell block of commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_starts_with_the_install_the_run_and_the_test_command():
    install, run, test = _readme_commands()[:3]
    assert "pip install -e" in install
    assert run.endswith("python -m bot")
    assert test.startswith("python -m pytest")


def test_readme_is_a_front_page():
    """At most 200 lines, the commands first; the guides and the measurements live in docs/."""
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines"
    assert lines.index("```sh") < 5


def test_ci_runs_the_readmes_test_command():
    test_command = _readme_commands()[2].split("&&")[-1].strip()
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    assert test_command in ci_lines
    assert 'pip install -q -e ".[dev]"' in ci_lines


def _anchors(doc: Path) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    headings = re.findall(r"^#+ (.+)$", doc.read_text(), re.M)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_links_between_the_docs_lead_somewhere():
    """Every relative link of the README and docs/*.md names a file that exists, and a heading in it
    when it names one."""
    broken = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text()):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = doc.parent / path if path else doc
            if not linked.exists() or (anchor and anchor not in _anchors(linked)):
                broken.append(f"{doc.relative_to(ROOT)}: {target}")
    assert broken == []


def test_every_slow_entry_names_a_test():
    """A test renamed or moved out from under tests/conftest.py's SLOW would quietly join the fast subset."""
    def functions(path: Path) -> set[str]:
        tree = ast.parse(path.read_text())
        return {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}

    gone = []
    for entry in sorted(SLOW):
        path, _, function = entry.partition("::")
        if not (ROOT / path).is_file() or (function and function not in functions(ROOT / path)):
            gone.append(entry)
    assert gone == []


def test_dependencies_are_the_agreed_ones():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {re.split(r"[=<>]", dep)[0] for dep in project["dependencies"]}
    assert runtime == {"discord.py", "aiosqlite", "asyncpg", "Pillow", "python-dotenv", "openskill", "Babel"}
    assert "discord.py==2.7.1" in project["dependencies"]
    dev = {re.split(r"[=<>]", dep)[0] for dep in project["optional-dependencies"]["dev"]}
    assert dev == {"pytest", "pytest-asyncio", "hypothesis", "ruff"}
