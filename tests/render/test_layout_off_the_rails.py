"""Off the Rails images on a phone: no text over text or over a gem/token, sizes that read, at 1-4 players."""

from __future__ import annotations

import pytest

from tests.render.layout_check import layout_findings, report


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_off_the_rails_layout(seats: int, lang: str) -> None:
    found = layout_findings("off_the_rails", seats, lang)
    assert not found, report(found)
