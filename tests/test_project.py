"""The newcomer's path: the README's first commands, what CI runs, and what the package ships."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert block, "the README must open with a shell block of commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_starts_with_the_run_and_the_test_command():
    run, test = _readme_commands()[:2]
    assert run.endswith("python -m bot") and "pip install -e" in run
    assert "python -m pytest" in test and "pip install -e" in test


def test_ci_runs_the_readmes_test_command():
    test_command = _readme_commands()[1].split("&&")[-1].strip()
    ci_lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines()]
    assert test_command in ci_lines
    assert 'pip install -q -e ".[dev]"' in ci_lines


def test_dependencies_are_the_agreed_ones():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = {re.split(r"[=<>]", dep)[0] for dep in project["dependencies"]}
    assert runtime == {"discord.py", "aiosqlite", "asyncpg", "Pillow", "python-dotenv", "openskill"}
    assert "discord.py==2.7.1" in project["dependencies"]
    dev = {re.split(r"[=<>]", dep)[0] for dep in project["optional-dependencies"]["dev"]}
    assert dev == {"pytest", "pytest-asyncio", "hypothesis", "ruff"}
