"""Santa Fe images on a phone: no name over another, over a city, a railroad square or a railhead tag,
and sizes that read, at 2-5 players in English and Japanese."""

from __future__ import annotations

import pytest

from tests.render.layout_check import layout_findings, report


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_santa_fe_layout(seats: int, lang: str) -> None:
    found = layout_findings("santa_fe", seats, lang)
    assert not found, report(found)
