"""Listing pages: whole lines only, every line once, within Discord's 2,000 characters."""

from __future__ import annotations

import re

from bot.ui.listing import ListPage, page_buttons, page_text, paginate


def game_lines(count: int) -> list[str]:
    return [f"• [#{n} Trans Europa](https://discord.com/channels/123456789012345678/234567890123456789/"
            f"345678901234567890) · waiting for Ann · since <t:1767225600:R>" for n in range(1, count + 1)]


def test_pages_keep_every_line_whole_and_once():
    head = "**Your games**"
    lines = game_lines(60)
    pages = paginate(head, lines)
    assert len(pages) > 2 and [line for page in pages for line in page] == lines
    for n in range(len(pages)):
        text, shown = page_text(head, pages, n)
        assert shown == n and len(text) <= 2000 and text.splitlines()[0] == f"{head} ({n + 1}/{len(pages)})"
        assert all(line.endswith(":R>") for line in text.splitlines()[1:])  # no link cut in the middle
    # a page past the end (the list got shorter since the buttons were drawn) shows the last one
    assert page_text(head, pages, 99)[1] == len(pages) - 1
    assert page_text(head, paginate(head, lines[:3]), 0)[0] == "\n".join([head, *lines[:3]])  # one page: no counter


def test_page_buttons_carry_their_page_and_fit_the_template():
    assert page_buttons("mine", 0, 1) is None
    view = page_buttons("guild", 0, 3)
    previous, following = view.children
    assert previous.item.disabled and not following.item.disabled
    assert previous.item.custom_id != following.item.custom_id
    for button in (previous, following):
        assert ListPage.__discord_ui_compiled_template__.fullmatch(button.item.custom_id)
        assert len(button.item.custom_id) <= 100
    assert following.item.custom_id == "jn:list:guild:1:n"
    # bounded digits: a forged page number cannot be huge
    assert not re.fullmatch(ListPage.__discord_ui_compiled_template__, "jn:list:guild:12345:n")
