"""The catalogs, checked from the extracted templates (.pot), not by looking for Latin letters: every template is
current, every language is complete for every domain that is complete, and a pseudo-locale (accented, lengthened
English made from the templates, `pseudo_words`) over whole games of the five titles leaves no English anywhere
a player reads (tests/e2e/test_pseudo_locale.py).

KNOWN_GAPS is the ONE list of domains not converted to messages yet (the games' engines and images, converted by
their owners): empty it as each lands. A complete domain missing from it is checked in every language."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

import locales
from locales import catalogs

# The domains whose texts are not all messages with complete translations yet (issue 25's game helpers).
KNOWN_GAPS: tuple[str, ...] = ()

# Every language with catalogs (German before LINGUAS lists it too).
CATALOG_LANGUAGES = sorted(path.name for path in locales.ROOT.iterdir() if (path / "LC_MESSAGES").is_dir())


def test_every_template_is_current():
    stale = [problem for problem in catalogs.problems(languages=["__none__"]) if problem.startswith("templates/")]
    assert stale == []


@pytest.mark.parametrize("language", CATALOG_LANGUAGES)
def test_every_language_is_complete_for_every_complete_domain(language):
    complete = [domain for domain in catalogs.domains() if domain not in KNOWN_GAPS]
    assert {"bot", "images", "community"} <= set(complete)
    found = [problem for problem in catalogs.problems(languages=[language])
             if not problem.startswith("templates/") and problem.split(":")[0].split("/")[1] in complete]
    assert found == []


# --------------------------------------------------------------------------- the pseudo-locale

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_ACCENTED = "áƀçðéƒĝĥíĵķĺɱñöþǫŕšţúṽŵẋýž"
_PSEUDO = str.maketrans(_LETTERS + _LETTERS.upper(), _ACCENTED + _ACCENTED.upper())
# What a translation keeps as it is: placeholders, code, mentions and Discord stamps, markdown, commands.
_KEEP = re.compile(r"(\{[^}]*\}|`[^`]*`|<[^>]*>|\*\*|/[a-z][a-z-]*(?: [a-z][a-z-]*)?:?|[a-z_]+=[a-z0-9_]+)")
PSEUDO = "fr"  # a Discord locale Junction does not speak: the pseudo-locale takes its place in the tests


def pseudo(text: str) -> str:
    """Accented and about 30% longer (within Discord's 100 characters for what was that short)."""
    out = "".join(part if _KEEP.fullmatch(part) else part.translate(_PSEUDO) for part in _KEEP.split(text))
    room = (100 if len(text) <= 100 else 10_000) - len(out)
    return out + "~" * max(0, min(len(text) // 3, room))


def pseudo_words() -> locales.Words:
    """A language made from every template id (what the code says; lookups are of exact ids only)."""
    words = locales.Words(PSEUDO)
    for domain in catalogs.domains():
        ids = {m.id for m in read_po(locales.pot_path(domain).open("rb")) if m.id}
        words.domains[domain] = {key: tuple(pseudo(k) for k in key) if isinstance(key, tuple) else pseudo(key)
                                 for key in ids}
    return words


def test_the_pseudo_locale_keeps_what_is_no_word():
    assert pseudo("You played `{move}`.") .startswith("Ýöú þĺáýéð `{move}`.")
    assert pseudo("<@{user}>, see /game log") .startswith("<@{user}>, šéé /game log")
