"""Santa Fe images on a phone: no name over another, over a city, a railroad square or a railhead tag,
and sizes that read, at 2-5 players in English, Japanese and German (German's long words included)."""

from __future__ import annotations

import pytest

import render
from tests.render.layout_check import layout_findings, report


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("lang", ["en", "ja", "de"])
def test_santa_fe_layout(seats: int, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # German is drawn from its catalog whether or not locales/LINGUAS lists it yet.
    monkeypatch.setattr(render, "LANGUAGES", tuple(dict.fromkeys((*render.LANGUAGES, lang))))
    found = layout_findings("santa_fe", seats, lang)
    assert not found, report(found)
