"""The community answers stay inside Discord's 2,000 characters at their worst: a history page of the longest
lines, a profile with six long titles and five results, a leaderboard page of 10 tied rows at 10,000 players,
in every language Junction speaks (German and Japanese included)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.ratings import Rating
from bot.store import stats
from bot.ui.community import HISTORY_PAGE
from bot.ui.history import history_line
from bot.ui.leaderboard import board_row
from bot.ui.profile import h2h_line, profile_text
from rules.registry import GAMES

LONG_TITLE = max((d.title for d in GAMES.values()), key=len)
SNOWFLAKE = 1_456_074_443_980_800_003  # 19 digits, as Discord's ids are now
NAME = "Bartholomew Featherstonehaugh-W"  # 32 characters, Discord's longest display name
LANGS = ["en", "ja", "de"]


def interaction():
    return SimpleNamespace(client=SimpleNamespace(tables=SimpleNamespace(games=GAMES)))


def worst_entry(game_id: int) -> stats.Entry:
    """Six seats all tied first (every name shown), a long title, ids as long as they come."""
    standings = tuple((NAME, SNOWFLAKE + n, 1, 999) for n in range(6))
    return stats.Entry(game_id, max(GAMES, key=lambda k: len(GAMES[k].title)), SNOWFLAKE, SNOWFLAKE, SNOWFLAKE,
                       1.8e9, 1.8e9 - 40 * 86400, 9999, standings)


@pytest.mark.parametrize("lang", LANGS)
def test_a_history_page_of_the_longest_lines_fits(lang, monkeypatch):
    if lang == "de":  # German is not in LINGUAS yet: read its catalog as the bot will
        import locales
        monkeypatch.setattr(locales, "LANGUAGES", (*locales.LANGUAGES, "de"))
    lines = [history_line(interaction(), lang, worst_entry(999_999_999_999_999), None)
             for _ in range(HISTORY_PAGE)]
    head = 200  # the heading, the page counter and the footer, generously
    assert all(len(line) <= 250 for line in lines), max(map(len, lines))
    assert head + len("\n".join(lines)) <= 2000


@pytest.mark.parametrize("lang", LANGS)
def test_the_longest_profile_fits(lang, monkeypatch):
    if lang == "de":
        import locales
        monkeypatch.setattr(locales, "LANGUAGES", (*locales.LANGUAGES, "de"))
    titles = [stats.TitleStats(key, 99_999, 99_999, 99_999, 9_999, 86_399.0, Rating(40, 1, 99_999), 99_999, 99_999,
                               Rating(40, 1, 99_999)) for key in GAMES] + [stats.TitleStats("x" * 32, 1)]
    recent = [stats.Played(999_999_999_999 - n, max(GAMES, key=lambda k: len(GAMES[k].title)), "over", 0, True, 6, 6,
                           1.8e9, SNOWFLAKE, SNOWFLAKE, SNOWFLAKE) for n in range(stats.RECENT)]
    figures = stats.Profile(SNOWFLAKE, titles, recent, {g.game_id: -123 for g in recent})
    versus = h2h_line(lang, SNOWFLAKE, stats.HeadToHead(99_999, 33_333, 33_333, 33_333))
    text = profile_text(lang, SNOWFLAKE, figures, lambda key: GAMES[key].title if key in GAMES else key, versus)
    assert len(text) <= 2000
    assert text.endswith(versus) and LONG_TITLE in text  # the head-to-head and every title survive


def test_a_leaderboard_page_of_ten_tied_rows_fits():
    row = board_row("en", stats.Standing(10_000, SNOWFLAKE, 9_999, 99_999, 9_999, True), True, you=True)
    assert 200 + 11 * len(row) <= 2000  # ten rows, the viewer's own under them, the heading and the notes


def test_page_buttons_read_back_every_page_and_nothing_more():
    from bot.ui.base import reads
    from bot.ui.community import MAX_PAGE
    from bot.ui.history import HISTORY_ITEMS, HistoryPage
    from bot.ui.leaderboard import BOARD_ITEMS, BoardPage

    COMMUNITY_ITEMS = (*BOARD_ITEMS, *HISTORY_ITEMS)

    longest = HistoryPage(10**19, "x" * 32, MAX_PAGE, "e", "n").custom_id
    assert len(longest) <= 100 and reads(COMMUNITY_ITEMS, longest)
    assert reads(COMMUNITY_ITEMS, "jn:hist:0:-:14285:n:p")  # 100,000 games at 7 a page
    assert reads(COMMUNITY_ITEMS, BoardPage("santa_fe", "w", 99_999, "e", "m").custom_id)
    season = BoardPage("x" * 32, f"s{10**18 - 1}", MAX_PAGE, "n", "m").custom_id  # a season's board: s<id>
    assert len(season) <= 100 and reads(COMMUNITY_ITEMS, season)
    for forged in ("jn:hist:0:-:1234567:e:n", "jn:lb:Santa Fe:g:1:e:n", "jn:lb:santa_fe:x:1:e:n", "jn:rec:abc",
                   "jn:lb:guess:s:1:e:n", f"jn:lb:guess:s{10**18}:1:e:n", "jn:lb:guess:sx:1:e:n"):
        assert not reads(COMMUNITY_ITEMS, forged), forged
