"""Off the Rails images on a phone: no text over text or over a gem/token, sizes that read, at 1-4 players in
English, Japanese and German (long words: "Einsturzkarte gezogen", "Rissplättchen")."""

from __future__ import annotations

import pytest

from tests.i18n.vocabulary import speaking
from tests.render.layout_check import layout_findings, report


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "ja", "de"])
def test_off_the_rails_layout(seats: int, lang: str) -> None:
    with speaking(lang):
        found = layout_findings("off_the_rails", seats, lang)
    assert not found, report(found)
