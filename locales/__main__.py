"""Manage the catalogs: `python -m locales extract | update | check | stats`.

    extract   read every message id from the code (Babel's Python extractor with Junction's keywords) and
              write locales/templates/<domain>.pot, one template per domain
    update    merge the templates into every language's .po (new ids added untranslated, changed ones fuzzy,
              gone ones kept as obsolete `#~` entries for the translator), then `check`
    check     exit 1 when a template is stale (the code says a message id it lacks, or it keeps one the code
              no longer says), or a language in LINGUAS lacks a translation or changes a placeholder
    stats     how much of each domain each language has translated

A translator never runs any of this: they edit locales/<lang>/LC_MESSAGES/<domain>.po in any .po editor.
See docs/translating.md.
"""

from __future__ import annotations

import argparse
import sys

from locales import catalogs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m locales", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "check", "stats"))
    parser.add_argument("--lang", action="append", help="only these languages (update, check, stats)")
    parser.add_argument("--domain", action="append", help="only these domains (update)")
    args = parser.parse_args(argv)
    if args.command == "extract":
        for domain, count in catalogs.write_templates().items():
            print(f"{domain}: {count} message ids")
        return 0
    if args.command == "update":
        catalogs.write_templates(args.domain)
        for lang, domain, counts in catalogs.update_languages(args.lang, args.domain):
            print(f"{lang}/{domain}: {counts}")
        args.command = "check"
    if args.command == "stats":
        for lang, domain, done, total in catalogs.stats(args.lang):
            print(f"{lang}/{domain}: {done}/{total} translated")
        return 0
    problems = catalogs.problems(args.lang)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
