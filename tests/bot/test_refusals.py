"""A refusal is answered once, by the error handlers (bot.cogs.answer_failure), never by the cogs."""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace

import discord
import pytest

from bot import i18n
from bot.cogs import ALREADY_ACKNOWLEDGED, answer_failure, mark_answered
from bot.tables import NOT_SEATED, Refused

ROOT = Path(__file__).resolve().parents[2]


class Response:
    """The part of discord.InteractionResponse the answer uses; `deferred`: a deferral was sent."""

    def __init__(self, *, deferred: bool = False, fail: int | None = None) -> None:
        self.type = discord.InteractionResponseType.deferred_channel_message if deferred else None
        self.sent: list[tuple[str, dict]] = []
        self.fail = fail

    def is_done(self) -> bool:
        return self.type is not None

    async def send_message(self, text: str, **kwargs) -> None:
        if self.fail is not None:
            raise discord.HTTPException(SimpleNamespace(status=400, reason="Bad Request"),
                                        {"code": self.fail, "message": "Interaction has already been acknowledged."})
        self.type = discord.InteractionResponseType.channel_message
        self.sent.append((text, kwargs))


def interaction(locale: str = "en-US", **response) -> SimpleNamespace:
    followups: list[tuple[str, dict]] = []

    async def follow(text: str, **kwargs) -> None:
        followups.append((text, kwargs))

    return SimpleNamespace(id=1, locale=discord.Locale(locale), extras={}, response=Response(**response),
                           followup=SimpleNamespace(send=follow, sent=followups))


async def test_a_refusal_is_answered_in_the_readers_language():
    ix = interaction("ja")
    assert await answer_failure(ix, Refused(NOT_SEATED))
    assert [(text, kwargs["ephemeral"]) for text, kwargs in ix.response.sent] == [
        (i18n.t("ja", NOT_SEATED), True)]
    assert ix.response.sent[0][0] != NOT_SEATED  # the catalog has it in Japanese


async def test_a_refusal_after_a_deferral_is_a_followup():
    ix = interaction(deferred=True)
    assert await answer_failure(ix, Refused(NOT_SEATED))
    assert ix.response.sent == [] and [text for text, _ in ix.followup.sent] == [NOT_SEATED]


async def test_an_answered_interaction_is_not_answered_twice():
    ix = interaction()
    mark_answered(ix)
    assert await answer_failure(ix, Refused(NOT_SEATED))
    assert ix.response.sent == [] and ix.followup.sent == []


async def test_a_repeated_delivery_answered_elsewhere_is_no_error():
    assert await answer_failure(interaction(fail=ALREADY_ACKNOWLEDGED), Refused(NOT_SEATED))
    with pytest.raises(discord.HTTPException):  # any other failure of the answer is a real error
        await answer_failure(interaction(fail=50001), Refused(NOT_SEATED))


def _only_replies(handler: ast.ExceptHandler) -> bool:
    """`except Refused as r: <reply with r.reason>; return`: what the error handlers do already."""
    names = [handler.type] if not isinstance(handler.type, ast.Tuple) else handler.type.elts
    return (any(isinstance(n, ast.Name) and n.id == "Refused" for n in names) and len(handler.body) <= 2
            and "reason" in ast.unparse(handler.body[0]) and "reply" in ast.unparse(handler.body[0]))


@pytest.mark.parametrize("path", sorted((ROOT / "bot" / "cogs").glob("*.py")), ids=lambda p: p.name)
def test_cogs_leave_refusals_to_the_error_handlers(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.ExceptHandler) and _only_replies(node)]
    assert found == [], f"{path.name}: `except Refused` blocks that only reply, at lines {found}"
