"""Junction's words in every language: gettext catalogs (`.po`), read at start, and the translation of messages.

The tree (standard gettext, managed with Babel; see `python -m locales --help` and docs/translating.md):

    locales/LINGUAS                          the languages besides English, one per line
    locales/templates/<domain>.pot           every message id of a domain, extracted from the code
    locales/<lang>/LC_MESSAGES/<domain>.po   one language's translations of a domain

English is the source language: a message id is the English text itself. The domains are one per game
(its event lines, refusals, options, rules summary and the words on its images), `images` (the words every
game's images share), `bot` (replies, posts, DMs, commands) and `community` (ratings, profiles, history).
A text is looked up in its game's domain first, then in the shared ones.

`say(msg, lang, names, game)` translates a `rules.words.Msg`: the template first, then its parameters,
a seat becoming its player's name (never translated) and a `Term` translated as a word.
`gettext(lang, msgid, game)` translates one fixed text. Nothing is compiled: the `.po` files are read when
a language is first used, so `pip install -e .` is all a running bot needs, and there is no compiled file
that could go stale.
"""

from __future__ import annotations

import gettext as _gettext
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel.lists import format_list
from babel.messages.pofile import read_po

from rules.words import N_, Items, Msg, Seat, Term

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent
SOURCE = "en"
SHARED_DOMAINS = ("images", "bot", "community")


def _read_linguas() -> tuple[str, ...]:
    lines = (ROOT / "LINGUAS").read_text(encoding="utf-8").splitlines()
    return tuple(line.strip() for line in lines if line.strip() and not line.startswith("#"))


# Every language the bot speaks, English first.
LANGUAGES: tuple[str, ...] = (SOURCE, *_read_linguas())


def language_of(locale: Any) -> str:
    """The language Junction speaks for a Discord locale (`discord.Locale.japanese`, "de", "en-US", "ja"):
    one of LANGUAGES, English when Junction does not speak it."""
    value = getattr(locale, "value", locale)
    if not isinstance(value, str):
        return SOURCE
    code = value.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES or code in _EXTRA else SOURCE


def english_name(lang: str) -> str:
    """A language's name in English ("Japanese", "German"; CLDR's), as a menu lists it (a message id)."""
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(lang).get_display_name(SOURCE)
    except (ValueError, UnknownLocaleError):
        return lang


EVERY = ("*",)  # look in the shared domains, then in every game's (a text about no game in particular)


def domains_for(game: str | None) -> tuple[str, ...]:
    """The domains a text about `game` is looked up in, in order (no game: the shared ones, then every
    game's, so a list of games still shows each title in the reader's language)."""
    return (game, *SHARED_DOMAINS) if game else (*SHARED_DOMAINS, *EVERY)


def po_path(lang: str, domain: str) -> Path:
    return ROOT / lang / "LC_MESSAGES" / f"{domain}.po"


def pot_path(domain: str) -> Path:
    return ROOT / "templates" / f"{domain}.pot"


# --------------------------------------------------------------------------- one language


@dataclass
class Words:
    """One language's catalogs: message id (or (singular, plural)) -> translation, per domain."""

    lang: str
    domains: dict[str, dict[Any, Any]] = field(default_factory=dict)
    plural_index: Any = staticmethod(lambda n: 0 if n == 1 else 1)

    def find(self, key: Any, domains: Iterable[str]) -> Any:
        for domain in domains:
            if domain == "*":
                for name, catalog in self.domains.items():
                    if name not in SHARED_DOMAINS and catalog.get(key):
                        return catalog[key]
                continue
            found = self.domains.get(domain, {}).get(key)
            if found:
                return found
        return None

    def gettext(self, msgid: str, domains: Sequence[str] = SHARED_DOMAINS) -> str:
        """A fixed text in this language (the English itself when untranslated)."""
        return self.find(msgid, domains) or msgid

    def ngettext(self, singular: str, plural: str, n: int, domains: Sequence[str] = SHARED_DOMAINS) -> str:
        forms = self.find((singular, plural), domains)
        if forms:
            index = self.plural_index(n)
            if 0 <= index < len(forms) and forms[index]:
                return forms[index]
        return singular if n == 1 else plural

    def say(self, msg: Msg | str, names: Sequence[str] | None = None,
            domains: Sequence[str] = SHARED_DOMAINS) -> str:
        """A message in this language, seats named by `names` (a plain str is shown as it is)."""
        if not isinstance(msg, Msg):
            return msg
        if msg.plural is not None:
            template = self.ngettext(msg.id, msg.plural, int(msg.params.get("n", 0)), domains)
        else:
            template = self.gettext(msg.id, domains)
        values = {key: self.value(value, names, domains) for key, value in msg.params.items()}
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            log.warning("%s translation of %r does not fit its parameters; English shown", self.lang, msg.id)
            return msg.template().format(**values)

    def value(self, value: Any, names: Sequence[str] | None, domains: Sequence[str]) -> Any:
        if isinstance(value, Seat):
            if names is not None and 0 <= value.index < len(names):
                return names[value.index]
            return self.say(Msg("Seat {n}", n=value.index + 1), None, domains)
        if isinstance(value, Term):
            return self.gettext(value.word, domains)
        if isinstance(value, Msg):
            return self.say(value, names, domains)
        if isinstance(value, Items):
            return self.join([str(self.value(item, names, domains)) for item in value.items], value.kind, value,
                             domains)
        return value

    def join(self, parts: list[str], kind: str, items: Items | None = None,
             domains: Sequence[str] = SHARED_DOMAINS) -> str:
        if self.lang == SOURCE:
            return (items or Items((), kind)).join(parts)
        if items is not None and items.sep is not None:
            return self.gettext(items.sep, domains).join(parts)
        if kind == "comma":
            return self.gettext(N_(", "), domains).join(parts)
        if not parts:
            return ""
        return format_list(parts, style="standard" if kind == "and" else "or", locale=_babel_locale(self.lang))


_EXTRA: dict[str, Words] = {}  # languages installed at run time (the tests' pseudo-locale)


def _babel_locale(lang: str) -> str:
    return "en" if lang in _EXTRA else lang


def _read_domain(path: Path) -> tuple[dict[Any, Any], Any]:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    entries: dict[Any, Any] = {}
    for message in catalog:
        if not message.id or message.fuzzy or not message.string:
            continue
        if isinstance(message.id, tuple):
            entries[tuple(message.id[:2])] = tuple(message.string)
        else:
            entries[message.id] = message.string
    return entries, catalog.plural_expr


@cache
def words(lang: str) -> Words:
    """The catalogs of `lang` (read from its .po files the first time)."""
    if lang in _EXTRA:
        return _EXTRA[lang]
    result = Words(lang)
    if lang == SOURCE:
        return result
    folder = ROOT / lang / "LC_MESSAGES"
    plural_expr = None
    for path in sorted(folder.glob("*.po")):
        entries, plural_expr = _read_domain(path)
        result.domains[path.stem] = entries
    if plural_expr:
        result.plural_index = _gettext.c2py(plural_expr)
    return result


def install(lang: str, catalog: Words) -> None:
    """Speak an extra language (tests: the pseudo-locale) until `uninstall`."""
    _EXTRA[lang] = catalog
    words.cache_clear()


def uninstall(lang: str) -> None:
    _EXTRA.pop(lang, None)
    words.cache_clear()


# --------------------------------------------------------------------------- the calls the edge makes


def say(msg: Msg | str, lang: str, names: Sequence[str] | None = None, game: str | None = None) -> str:
    """`msg` in `lang` with seats named by `names`, looked up in `game`'s domain first."""
    return words(lang).say(msg, names, domains_for(game))


def gettext(lang: str, msgid: str, game: str | None = None) -> str:
    """A fixed text (a label, a heading) in `lang`."""
    return words(lang).gettext(msgid, domains_for(game))


def entries(lang: str, domain: str) -> dict[str, str]:
    """The translations of one domain by English text (msgid -> text); a plural message gives both its English
    forms, each with the translation of that form (what tests and tools list)."""
    found: dict[str, str] = {}
    for key, value in words(lang).domains.get(domain, {}).items():
        if isinstance(key, str):
            found[key] = value
        elif value:
            singular, plural = key
            found.setdefault(singular, value[0])
            found.setdefault(plural, value[1] if len(value) > 1 else value[0])
    return found
