"""Great Western images on a phone: no text over text or over a city, token or die, sizes that read,
at 2-4 players in English and Japanese."""

from __future__ import annotations

import pytest

from tests.render.layout_check import layout_findings, report


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_great_western_layout(seats: int, lang: str) -> None:
    found = layout_findings("great_western", seats, lang)
    assert not found, report(found)
