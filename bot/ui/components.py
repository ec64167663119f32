"""The components of play: lobby, Add AI, Take turn, My hand, the turn panel, and the board post's layout.

Registered once with `bot.add_dynamic_items`, they keep working after a restart for every game,
with no per-game `add_view`. Callbacks hand over to the games cog (`get_cog("GamesCog")`). Their
custom_ids follow the grammar of bot.ui.base, and every callback first asks `refused`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot import i18n
from bot.cogs import answering_failures
from bot.ui.async_play import SinceButton
from bot.ui.base import GAME, MAX_CUSTOM_ID, NUMBER, ChoiceButton, GameButton, refused
from bot.ui.history import RecordButton
from bot.ui.picker import Menu
from bot.ui.rematch import ANSWERS, RematchAnswer, RematchButton
from rules.words import N_, Plural

if TYPE_CHECKING:
    from bot.cogs.games import GamesCog

LOBBY_ACTIONS = {"join": (N_("Join"), discord.ButtonStyle.success), "leave": (N_("Leave"), discord.ButtonStyle.secondary),
                 "ai": (N_("Add AI"), discord.ButtonStyle.secondary), "start": (N_("Start"), discord.ButtonStyle.primary),
                 "cancel": (N_("Cancel"), discord.ButtonStyle.danger)}


def _cog(interaction: discord.Interaction) -> GamesCog:
    return interaction.client.get_cog("GamesCog")  # type: ignore[return-value]


class LobbyButton(ChoiceButton, kind="lobby", choices=LOBBY_ACTIONS):
    """The lobby's buttons: Join, Leave, Add AI, Start, Cancel."""

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_lobby_button(interaction, self.game_id, self.choice)


class TurnButton(GameButton, kind="turn", label=N_("Take turn"), style=discord.ButtonStyle.primary):
    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_take_turn(interaction, self.game_id)


class HandButton(GameButton, kind="hand", label=N_("My hand")):
    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_hand(interaction, self.game_id)


AI_LEVEL_BUTTONS = {"easy": (N_("Easy"), discord.ButtonStyle.secondary), "normal": (N_("Normal"), discord.ButtonStyle.primary),
                    "hard": (N_("Hard"), discord.ButtonStyle.danger)}


class AddAIButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=rf"jn:addai:{GAME}:(?P<level>{'|'.join(AI_LEVEL_BUTTONS)})"):
    """One level of the choice the lobby's Add AI button opens (ephemeral; persistent like the rest)."""

    def __init__(self, game_id: int, level: str) -> None:
        label, style = AI_LEVEL_BUTTONS[level]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"jn:addai:{game_id}:{level}"))
        self.game_id, self.level = game_id, level

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> AddAIButton:
        return cls(int(match["game"]), match["level"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_add_ai(interaction, self.game_id, self.level)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=rf"jn:pick:{GAME}:(?P<token>{NUMBER})"):
    """The picker's select. Values: `m:<move>` plays a move, `g:<prefix>` opens a group."""

    def __init__(self, game_id: int, token: int, menu: Menu | None = None, locale: Any = None) -> None:
        options = []
        for choice in menu.choices if menu else ():
            value = ("m:" if choice.is_move else "g:") + choice.value
            options.append(discord.SelectOption(  # a move's label is its notation: never translated
                label=choice.label[:100], value=value[:100],
                description=None if choice.is_move else i18n.say(locale, Plural("{n} move", "{n} moves",
                                                                                n=choice.count))))
        placeholder = (i18n.t(locale, "Choose a move") if menu is None or menu.prefix == ""
                       else i18n.t(locale, "Moves starting '{prefix}'", prefix=menu.prefix.rstrip("#").strip()))
        select = discord.ui.Select(custom_id=f"jn:pick:{game_id}:{token}", options=options or
                                   [discord.SelectOption(label="-", value="-")], placeholder=placeholder[:150])
        super().__init__(select)
        self.game_id, self.token = game_id, token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> PickSelect:
        return cls(int(match["game"]), int(match["token"]))

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        value = self.item.values[0] if self.item.values else ""
        await _cog(interaction).on_pick(interaction, self.game_id, self.token, value)


class PickPage(discord.ui.DynamicItem[discord.ui.Button],
               template=rf"jn:page:{GAME}:(?P<token>{NUMBER}):(?P<page>\d{{1,4}}):(?P<prefix>.*)"):
    """Picker navigation: another page, or back to all moves (prefix and page in the custom_id)."""

    def __init__(self, game_id: int, token: int, page: int, prefix: str, label: str = N_("Next ▶")) -> None:
        custom_id = f"jn:page:{game_id}:{token}:{page}:{prefix}"[:MAX_CUSTOM_ID]
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary, custom_id=custom_id))
        self.game_id, self.token, self.page, self.prefix = game_id, token, page, prefix

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> PickPage:
        return cls(int(match["game"]), int(match["token"]), int(match["page"]), match["prefix"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_picker_page(interaction, self.game_id, self.token, self.prefix, self.page)


QUICK_MOVES = {"undo": (N_("Undo"), discord.ButtonStyle.secondary)}  # moves a turn panel offers as a button too


class QuickMoveButton(discord.ui.DynamicItem[discord.ui.Button],
                      template=rf"jn:do:{GAME}:(?P<token>{NUMBER}):(?P<move>{'|'.join(QUICK_MOVES)})"):
    """A move the turn panel offers as one click beside its select (Off the Rails' `undo`)."""

    def __init__(self, game_id: int, token: int, move: str) -> None:
        label, style = QUICK_MOVES[move]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"jn:do:{game_id}:{token}:{move}"))
        self.game_id, self.token, self.move = game_id, token, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> QuickMoveButton:
        return cls(int(match["game"]), int(match["token"]), match["move"])

    @answering_failures
    async def callback(self, interaction: discord.Interaction) -> None:
        if await refused(interaction, self.game_id):
            return
        await _cog(interaction).on_pick(interaction, self.game_id, self.token, "m:" + self.move)


DYNAMIC_ITEMS = (LobbyButton, AddAIButton, TurnButton, HandButton, PickSelect, PickPage, QuickMoveButton)


def lobby_view(game_id: int, rematch: bool = False) -> discord.ui.View:
    """The lobby's buttons; a rematch's lobby has Confirm and Decline for its invited players first."""
    view = discord.ui.View(timeout=None)
    if rematch:
        for answer in ANSWERS:
            view.add_item(RematchAnswer(answer, game_id))
    for action in LOBBY_ACTIONS:
        view.add_item(LobbyButton(action, game_id))
    return view


def ai_level_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for level in AI_LEVEL_BUTTONS:
        view.add_item(AddAIButton(game_id, level))
    return view


def take_turn_view(game_id: int) -> discord.ui.View:
    """Only Take turn: under the note that a turn panel expired."""
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(game_id))
    return view


# The id of the board post's text display that says whose turn it is (the deadline and the mentions),
# so a deadline change can replace just that part (bot/cogs/clock.py). Ids are unique per message.
TURN_TEXT_ID = 90


def board_buttons(game_id: int, over: bool, rematch: bool = False) -> list[discord.ui.Item[Any]]:
    """Take turn / My hand / Since my last turn; once the game is over My hand and Game record (its
    history entry), and Rematch on the final post of a finished game."""
    if over:
        return [HandButton(game_id), RecordButton(game_id), *([RematchButton(game_id)] if rematch else [])]
    return [TurnButton(game_id), HandButton(game_id), SinceButton(game_id)]


def board_view(game_id: int, over: bool) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in board_buttons(game_id, over):
        view.add_item(item)
    return view


def board_layout(game_id: int, over: bool, *, story: str, turn: str = "", accent: int | None = None,
                 images: list[tuple[str, str]] = (), files: list[str] = (), rematch: bool = False,
                 buttons: bool = True) -> discord.ui.LayoutView:
    """A board post in Discord's layout components (Components V2): one container with the accent
    colour of the seat to act, holding what happened (`story`), the board and any other images
    (`images`: file name and alt text, shown in a media gallery in that order), whose turn it is
    (`turn`: the deadline and the mentions), other files by name (the end-of-game log) and the
    buttons (`rematch`: Rematch too, on a finished game's final post). The files must be uploaded with the
    message under these names."""
    container = discord.ui.Container(accent_colour=accent)
    container.add_item(discord.ui.TextDisplay(story))
    if images:
        container.add_item(discord.ui.MediaGallery(*(
            discord.MediaGalleryItem(f"attachment://{name}", description=alt[:1024] or None)
            for name, alt in images[:10])))
    if turn:
        container.add_item(discord.ui.TextDisplay(turn, id=TURN_TEXT_ID))
    for name in files:
        container.add_item(discord.ui.File(f"attachment://{name}"))
    if buttons:  # none under the line of a lobby closed before it started
        container.add_item(discord.ui.ActionRow(*board_buttons(game_id, over, rematch)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(container)
    return view


def picker_view(game_id: int, token: int, menu: Menu, moves: list[str] = (), locale: Any = None) -> discord.ui.View:
    """The turn panel: the select (its words in `locale`'s language), paging, and a button for each quick move
    among `moves` (undo)."""
    view = discord.ui.View(timeout=None)
    view.add_item(PickSelect(game_id, token, menu, locale))
    for move in QUICK_MOVES:
        if move in moves:
            view.add_item(QuickMoveButton(game_id, token, move))
    if menu.page > 0:
        view.add_item(PickPage(game_id, token, menu.page - 1, menu.prefix, N_("◀ Previous")))
    if menu.page + 1 < menu.pages:
        view.add_item(PickPage(game_id, token, menu.page + 1, menu.prefix, N_("Next ▶")))
    if menu.prefix:
        view.add_item(PickPage(game_id, token, 0, "", N_("All moves")))
    return view
