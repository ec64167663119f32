"""A pseudo-locale (accented, lengthened English from the templates: tests/i18n/test_catalogs.pseudo_words) over a
whole game of each title: no English left in posts (every version), replies, DMs, alt texts or button labels."""

from __future__ import annotations

import functools
import re

import pytest

import locales
from rules.registry import GAME_KEYS
from tests.e2e.test_names import play
from tests.e2e.test_table_traffic import GAME_OPTIONS
from tests.i18n.test_catalogs import KNOWN_GAPS, PSEUDO, pseudo_words


@pytest.fixture
def pseudo_locale():
    locales.install(PSEUDO, pseudo_words())
    yield PSEUDO
    locales.uninstall(PSEUDO)


def vocabulary() -> set[str]:
    """The English words of the bot's and the images' templates (what an untranslated text of ours is made of)."""
    from babel.messages.pofile import read_po

    found: set[str] = set()
    for domain in ("bot", "images", "community"):
        for message in read_po(locales.pot_path(domain).open("rb")):
            for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
                found |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}|`[^`]*`", " ", msgid))}
    return found - {"junction", "discord", "key", "value", "true", "false", "any", "ai", "dms", "thread"}


VOCABULARY = vocabulary()


@functools.cache
def data_strings(key: str, field: str) -> frozenset[str]:
    """Every string under `field` in a game's board and card data (read once: every line checked asks)."""
    import json
    from pathlib import Path

    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k == field and isinstance(v, str):
                    found.add(v)
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in (Path(__file__).resolve().parents[2] / "rules" / key / "data").glob("*.json"):
        walk(json.loads(path.read_text()))
    return frozenset(found)


def proper_nouns(key: str) -> tuple[str, ...]:
    """The names on a game's board and cards (cities as printed: "New Orleans"), shown as they are in every
    language, like a player's name: never an untranslated word."""
    return tuple(sorted(data_strings(key, "name"), key=len, reverse=True))


def notation(key: str) -> tuple[str, ...]:
    """A game's move notation made of words ("head-to-head", a mission's id in Off the Rails): shown as typed in
    every language, beside its translated name, so that a player knows what to type."""
    return tuple(sorted((i for i in data_strings(key, "id") if "-" in i), key=len, reverse=True))


def without_notation(text: str, ids: tuple[str, ...]) -> str:
    """`text` without the ids of `notation` (whole: "red-1", not the "red" of "red-leader")."""
    for word in ids:
        text = re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", " ", text)
    return text


def english_words(text: str, names: tuple[str, ...], ids: tuple[str, ...] = ()) -> list[str]:
    """Our English words left in `text` (names, notation, code, mentions and links aside); two or more:
    untranslated."""
    text = re.sub(r"`[^`]*`|<[^>]*>|https?://\S+|\[[^\]]*\]\([^)]*\)|/[a-z-]+", " ", text)
    for name in names:
        text = text.replace(name, " ")
    text = without_notation(text, ids)
    words = [w for w in re.findall(r"(?<![\w~])[A-Za-z]{3,}(?![\w~])", text) if w.lower() in VOCABULARY]
    return words if len(words) >= 2 else []


def test_the_check_finds_english():
    assert english_words("**Trans Europa** · game #1 · move 3", ("Ann",))
    assert english_words("It is not your turn. Waiting for Ann.", ("Ann",))
    assert not english_words(pseudo_words().gettext("It is not your turn."), ())


def test_the_check_leaves_notation_aside():
    """A mission's id is what a player types (`claim head-to-head`): shown untranslated beside its name. The
    words of a template around it still count."""
    ids = notation("off_the_rails")
    assert "head-to-head" in ids
    line = "• Ann çĺáíɱš ĤÉÁÐ ŢÖ ĤÉÁÐ!~~~~ (head-to-head, 4 þöíñţš)."
    assert english_words(line, ("Ann",))
    assert not english_words(line, ("Ann",), ids)
    assert english_words("Ann claims the mission (head-to-head, 4 points).", ("Ann",), ids)


@pytest.mark.parametrize("key", GAME_KEYS)
async def test_a_whole_game_in_the_pseudo_locale_shows_no_english(fake_discord, tmp_path, pseudo_locale, key):
    """Posts in every version, replies, DMs, alt texts and button labels of a whole game. For a game in KNOWN_GAPS
    only the bot's own texts are checked (its event lines, in bullets, and its images' alt text are the gap)."""
    fake = fake_discord
    names = ("Ann", "Bob")
    channel, users, _ = await play(fake, tmp_path, pseudo_locale, key, names, GAME_OPTIONS[key])
    gap = key in KNOWN_GAPS
    found: dict[str, list[str]] = {}
    messages = [*channel.messages, *(m for user in users for m in fake.dms(user))]
    for message in messages:
        for version in [*message.versions, message]:
            lines = version.every_text().splitlines()
            if gap:
                lines = [line for line in lines if not line.startswith(("• ", "› ", "…"))]
            shown = [*lines, *(b.get("label", "") for b in version.buttons())]
            if not gap:
                shown += [a.description or "" for a in version.all_attachments()]
            for text in shown:
                runs = english_words(text, (*names, *proper_nouns(key)), notation(key))
                if runs:
                    found[text[:120]] = runs
    assert found == {}
