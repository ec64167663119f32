"""Great Western images on a phone: no text over text or over a city, token or die, sizes that read,
at 2-4 players in English, Japanese and German (long words: "Versteigerung", "Einwohner")."""

from __future__ import annotations

import pytest

from tests.i18n.vocabulary import speaking
from tests.render.layout_check import layout_findings, report


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "ja", "de"])
def test_great_western_layout(seats: int, lang: str) -> None:
    with speaking(lang):
        found = layout_findings("great_western", seats, lang)
    assert not found, report(found)
