"""Extraction, templates and updates of the catalogs (what `python -m locales` runs; the tests check with it).

Each domain reads its message ids from its own source files (`SOURCES`), with the keywords below, plus any
ids a module lists at run time (`PROVIDERS`: texts not written as a call in the code, such as the command
tree's descriptions or a game's option descriptions, gathered by importing them).
"""

from __future__ import annotations

import importlib
import io
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po, write_po

from locales import LANGUAGES, ROOT, SHARED_DOMAINS, SOURCE, po_path, pot_path
from rules.registry import GAME_KEYS

PROJECT = ROOT.parent

# The calls that carry message ids: Msg("..."), Plural("one", "many", n=...), N_("label"), the bot's
# t(locale, "..."), the images' fill_in("template", ...) and fit_name("template", ...), and a command
# description written as discord's `locale_str as _` ("_(...)": a command group built at run time, such as
# /admin season, is in no cog's class for bot.command_words to read).
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "Msg": None,
    "Plural": (1, 2),
    "N_": None,
    "t": (2,),
    "tn": (2, 3),
    "fill_in": None,
    "fit_name": None,
}

# Which files each domain's ids come from (globs relative to the project). Every game: its engine and its
# images. A file belongs to the first domain that lists it.
SOURCES: dict[str, tuple[str, ...]] = {
    **{key: (f"rules/{key}/**/*.py", f"render/{key}.py") for key in GAME_KEYS},
    # Ratings, profiles, history (issue 26 items 2-4), rematches, lobby hygiene and seasons (items 5-7).
    "community": ("bot/cogs/community.py", "bot/ui/community.py", "bot/ui/leaderboard.py", "bot/ui/history.py",
                  "bot/ui/profile.py", "bot/community.py", "bot/cogs/rematch.py", "bot/cogs/seasons.py",
                  "bot/service/hygiene.py", "bot/service/rematch.py", "bot/ui/rematch.py"),
    "images": ("render/*.py",),
    "bot": ("bot/**/*.py", "locales/*.py", "rules/*.py"),
}

# Modules whose `message_ids()` returns ids no call in the code spells out (domain -> "module:function").
PROVIDERS: dict[str, tuple[str, ...]] = {
    "bot": ("bot.command_words:message_ids",),  # the command tree's descriptions and choice names
    "community": ("bot.cogs.community:message_ids",),
}

_SKIP = re.compile(r"/(tests?|__pycache__)/")


def _files(domain: str) -> list[Path]:
    taken: set[Path] = set()
    for other, patterns in SOURCES.items():
        found = sorted({path for pattern in patterns for path in PROJECT.glob(pattern) if not _SKIP.search(str(path))})
        if other == domain:
            return [path for path in found if path not in taken]
        taken.update(found)
    return []


def domains() -> tuple[str, ...]:
    return tuple(SOURCES)


def extract(domain: str) -> Catalog:
    """A fresh template of `domain`: every message id its files and providers say."""
    template = Catalog(domain=domain, project="Junction", version="1", copyright_holder="Junction",
                       msgid_bugs_address="", fuzzy=False)
    for path in _files(domain):
        relative = path.relative_to(PROJECT).as_posix()
        for lineno, message, comments, context in extract_from_file(
                "python", str(path), keywords=KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            if isinstance(message, tuple) and len(message) == 1:
                message = message[0]
            if not message or message == "{text}":
                continue
            template.add(message, None, [(relative, lineno)], auto_comments=comments, context=context)
    for provider in PROVIDERS.get(domain, ()):
        module, _, function = provider.partition(":")
        for message in getattr(importlib.import_module(module), function)():
            if message and message not in template:
                template.add(message, None, [(module.replace(".", "/") + ".py", 0)])
    return template


def _write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, sort_output=True, include_lineno=False,
             include_previous=False)
    # The creation date would change the file on every run; keep templates stable for review.
    text = re.sub(rb'"POT-Creation-Date: [^"]*"\n', b"", buffer.getvalue())
    path.write_bytes(text)


def write_templates(only_domains: Iterable[str] | None = None) -> dict[str, int]:
    counts = {}
    for domain in only_domains or domains():
        template = extract(domain)
        _write(pot_path(domain), template)
        counts[domain] = len(template)
    return counts


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=locale)


def update_languages(only: Iterable[str] | None = None,
                     only_domains: Iterable[str] | None = None) -> Iterator[tuple[str, str, str]]:
    """Merge each template into each language's catalog of that domain (created when missing)."""
    for lang in only or LANGUAGES[1:]:
        for domain in only_domains or domains():
            template = _read(pot_path(domain))
            path = po_path(lang, domain)
            catalog = _read(path, lang) if path.exists() else Catalog(locale=lang, domain=domain, project="Junction",
                                                                     version="1", fuzzy=False)
            before = {m.id for m in catalog if m.id}
            catalog.update(template, no_fuzzy_matching=False, update_header_comment=False)
            after = {m.id for m in catalog if m.id}
            _write(path, catalog)
            yield lang, domain, f"{len(after - before)} new, {len(catalog.obsolete)} obsolete"


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)(?:[:!][^}]*)?\}", text))


def problems(languages: Iterable[str] | None = None) -> list[str]:
    """What keeps the catalogs from being complete and current: one line per problem."""
    found: list[str] = []
    templates: dict[str, Catalog] = {}
    for domain in domains():
        fresh = {m.id for m in extract(domain) if m.id}
        path = pot_path(domain)
        stored = {m.id for m in _read(path) if m.id} if path.exists() else set()
        if fresh != stored:
            found.append(f"templates/{domain}.pot is stale: {len(fresh - stored)} ids missing, "
                         f"{len(stored - fresh)} no longer used (run: python -m locales update)")
        templates[domain] = extract(domain)
    for lang in languages or LANGUAGES[1:]:
        for domain, template in templates.items():
            path = po_path(lang, domain)
            catalog = _read(path, lang) if path.exists() else None
            for message in template:
                if not message.id:
                    continue
                entry = catalog.get(message.id) if catalog is not None else None
                strings = (entry.string if isinstance(entry.string, tuple) else (entry.string,)) if entry else ()
                if entry is None or entry.fuzzy or not all(strings):
                    found.append(f"{lang}/{domain}: untranslated {message.id!r}")
                    continue
                ids = message.id if isinstance(message.id, tuple) else (message.id,)
                wanted = set().union(*(_placeholders(i) for i in ids))
                for string in strings:
                    if _placeholders(string) - wanted:
                        found.append(f"{lang}/{domain}: {message.id!r} has placeholders the English lacks: {string!r}")
    return found


def stats(only: Iterable[str] | None = None) -> Iterator[tuple[str, str, int, int]]:
    for lang in only or LANGUAGES[1:]:
        for domain in domains():
            template = [m for m in _read(pot_path(domain)) if m.id]
            path = po_path(lang, domain)
            catalog = _read(path, lang) if path.exists() else None
            done = sum(1 for m in template if catalog is not None and (e := catalog.get(m.id)) is not None
                       and not e.fuzzy and e.string and all(e.string if isinstance(e.string, tuple) else (e.string,)))
            yield lang, domain, done, len(template)


__all__ = ["KEYWORDS", "SOURCES", "PROVIDERS", "SHARED_DOMAINS", "SOURCE", "domains", "extract", "problems",
           "write_templates", "update_languages", "stats"]
