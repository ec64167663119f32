"""The bot's own texts in Japanese: every reply, refusal and post line the code writes has an entry."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from bot import i18n
from tests.i18n.support import _sample, english_left

ROOT = Path(__file__).resolve().parents[2]
# Calls whose string arguments reach a user: replies, posts, refusals, catalog keys.
USER_TEXT_CALLS = {"reply", "_reply", "send", "send_message", "edit_message", "Refused", "update_board", "t",
                   "localize", "_update", "append"}
USER_TEXT_NAMES = {"text", "key", "head", "alt", "summary"}  # variables that hold a text about to be sent
# Words that stay Latin in Japanese: the product, commands and their values, time formats, examples.
KEEP = ["Junction", "AI", "Discord", "DM", "HH:MM", "HH", "Europe/Paris", "Asia/Tokyo", "thread:true",
        "/game new", "/game join", "/seat ai", "/seat back", "/clock resume", "/clock reminders on:true", "/hand",
        "ai", "skip", "end", "shuffle", "join", "any", "Manage Server", "key=value",
        *(f"X{n}" for n in range(1, 9))]


def user_texts() -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.name == "i18n.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", "") in USER_TEXT_NAMES for t in node.targets):
                sample = _sample(node.value)
                if sample and re.search("[A-Za-z]{2}", sample):
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", sample))
                continue
            if not isinstance(node, ast.Call):
                continue
            if getattr(node.func, "id", getattr(node.func, "attr", "")) not in USER_TEXT_CALLS:
                continue
            for arg in [*node.args, *(k.value for k in node.keywords if k.arg in ("content", "key", "text"))]:
                sample = _sample(arg)
                if sample and re.search("[A-Za-z]{2}", sample):
                    found.append((f"{path.relative_to(ROOT)}:{node.lineno}", sample))
    return found


def test_the_scan_finds_the_bots_texts():
    samples = [text for _, text in user_texts()]
    assert len(samples) > 100
    assert "Your seat is yours again." in samples


def test_every_reply_and_refusal_has_japanese():
    missing = {where: text for where, text in user_texts() if english_left(i18n.localize("ja", text), KEEP)}
    assert missing == {}


def test_a_timeout_line_and_a_log_line_in_japanese():
    assert i18n.localize("ja", "Time ran out for Ann: the AI played for them.") == "Ann の時間切れ：AI が代わりに指しました。"
    # Several events of one move are translated one by one (a pattern must not swallow the next one).
    joined = "3. Ann: Reminders for game #5 are muted. ‖ Reminders for game #4 are on."
    assert i18n.localize("ja", joined) == "3. Ann：ゲーム #5 のリマインダーはミュート中です。 ゲーム #4 のリマインダーはオンです。"
    assert i18n.localize("en", joined) == "3. Ann: Reminders for game #5 are muted. Reminders for game #4 are on."
