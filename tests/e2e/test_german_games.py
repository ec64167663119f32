"""A German server plays a whole game of every title (issue 25): the server's language chosen by an admin with
`/admin settings language:de`, the players' Discord in German, players named like catalog words. Every post (in
every version), reply and DM the bot sends is checked: within Discord's limits (the fake refuses the rest), no
English left (the pseudo-locale test's check, with each game's own words), each name as it is, a ping only for
the player whose turn begins, a private line only to its owner, the end-of-game report in German."""

from __future__ import annotations

import re
from functools import cache

import pytest
from babel.messages.pofile import read_po

import locales
from bot import words
from rules.engine import replay
from rules.registry import GAME_KEYS, GAMES
from tests.e2e.test_names import count, play
from tests.e2e.test_platform import table_snapshot
from tests.e2e.test_pseudo_locale import VOCABULARY, notation, proper_nouns, without_notation
from tests.e2e.test_table_traffic import GAME_OPTIONS, awaited_after

NAMES = ("Deck", "Score", "Black")  # words of the English catalogs: never translated as a name
# Games whose secrets are only drawn (a hand image), never said in a private line.
NO_PRIVATE_LINES = frozenset({"great_western", "off_the_rails"})
MOVE = re.compile(r"Spiel #\d+ · Zug (\d+)")  # the board post's header in German: "**{title}** · Spiel #1 · Zug 3"


@cache
def german_words() -> frozenset[str]:
    """Every word the German catalogs use: an English-looking word in a German text that is one of them
    ("Start", "Bonus", "Name") is German too."""
    found: set[str] = set()
    for path in (locales.ROOT / "de" / "LC_MESSAGES").glob("*.po"):
        for message in read_po(path.open("rb")):
            for text in message.string if isinstance(message.string, tuple) else (message.string,):
                prose = re.sub(r"\{[^}]*\}|`[^`]*`|/[a-z][a-z-]*(?: [a-z][a-z-]*)?|\w+=\w+", " ", text or "")
                found |= {w.lower() for w in re.findall(r"[A-Za-zÄÖÜäöüß]{3,}", prose)}
    return frozenset(found)


@cache
def english_vocabulary(key: str) -> frozenset[str]:
    """The English words of the bot's, the images' and the game's own templates that German never uses."""
    found = set(VOCABULARY)
    for message in read_po(locales.pot_path(key).open("rb")):
        for msgid in message.id if isinstance(message.id, tuple) else (message.id,):
            found |= {w.lower() for w in re.findall(r"[A-Za-z]{3,}", re.sub(r"\{[^}]*\}|`[^`]*`", " ", msgid))}
    return frozenset(found - german_words())


def english_words(text: str, key: str, names: tuple[str, ...]) -> list[str]:
    """English words of ours left in a German text (names, board names, notation, code, mentions, links, commands
    aside); two or more: untranslated."""
    text = re.sub(r"`[^`]*`|<[^>]*>|https?://\S+|\[[^\]]*\]\([^)]*\)|/[a-z-]+|\w+=\w+", " ", text)
    for name in (*names, *proper_nouns(key)):
        text = text.replace(name, " ")
    text = without_notation(text, notation(key))
    vocabulary = english_vocabulary(key)
    found = [w for w in re.findall(r"(?<![\w~])[A-Za-z]{3,}(?![\w~])", text) if w.lower() in vocabulary]
    return found if len(found) >= 2 else []


def test_the_check_finds_english_and_passes_german():
    assert english_words("Deck draws a card from the deck.", "ttr_cards", ("Deck",))
    assert english_words("**Trans Europa** · game #1 · move 3", "trans_europa", ())
    said = words.t("de", "It is not your turn. Waiting for {who}.", who="Deck")
    assert not english_words(said, "ttr_cards", ("Deck",)), said
    ids = "Ann: Wähle (blue-1 | yellow-2)"  # ids as typed (notation), beside their names
    assert not english_words(ids, "off_the_rails", ()) and english_words("Ann: blue or yellow", "off_the_rails", ())


async def play_in_german(fake, tmp_path, key: str):
    """A whole game of `key` with three players in a server an admin switched to German (tests/e2e/test_names.play);
    returns what the fake holds, the game as stored and its /game log in German and English."""
    definition = GAMES[key]
    channel, users, db = await play(fake, tmp_path, "de", key, NAMES, GAME_OPTIONS[key], by_admin=True)
    assert fake.guild_locale == "en-US"  # the admin's choice decides the posts' language
    log = {}
    for locale in ("de", "en-US"):
        reply = (await fake.slash(users[0], channel, "game log", locale=locale)).reply
        log[locale] = reply.attachments[0].data.decode() if reply.attachments else reply.text
    state, seats, _, moves, _ = table_snapshot(db, definition)
    return channel, users, seats, state, moves, log


def shown(message) -> list[str]:
    """What a reader can read of a message in every version: its lines, button labels, alt texts, text files."""
    found = []
    for version in [*message.versions, message]:
        found += version.every_text().splitlines()
        found += [b.get("label", "") for b in version.buttons()]
    for attachment in message.all_attachments():
        found.append(attachment.description or "")
        if attachment.filename.endswith(".txt"):
            found += attachment.data.decode().splitlines()
    return found


@pytest.mark.slow
@pytest.mark.parametrize("key", GAME_KEYS)
async def test_a_german_server_plays_a_whole_game(fake_discord, tmp_path, key):
    fake = fake_discord
    channel, users, seats, state, moves, log = await play_in_german(fake, tmp_path, key)
    assert state.is_over()
    names = tuple(u.name for u in users)
    dms = {u.id: fake.dms(u) for u in users}
    everything = [*channel.messages, *(m for sent in dms.values() for m in sent)]
    assert fake.errors == []  # nothing refused by the fake's limits (it fails the test too)

    # No English left anywhere.
    notation = tuple(sorted({m for _, m in moves}, key=len, reverse=True))  # moves as written: never translated
    untranslated = {text[:120]: found for message in everything for text in shown(message)
                    if (found := english_words(text, key, (*names, *notation)))}
    assert untranslated == {}

    # Names as they are: the German log names each player as often as the English one.
    for name in names:
        assert count(name, log["de"]) == count(name, log["en-US"]) > 0, (name, log["de"][:300])

    # A ping only for the players whose turn begins with the post.
    awaited = awaited_after(key, len(seats), state.options, state.seed, moves)
    boards = [m for m in channel.messages if not m.ephemeral and MOVE.search((m.versions or [m])[0].text)]
    assert len(boards) > 3
    shown_at = None
    for post in boards:
        first = (post.versions or [post])[0]
        made_at = int(MOVE.search(first.text)[1])
        for user_id in first.pinged():
            seat = seats.index(user_id)
            assert seat in awaited[made_at], (made_at, seat)
            assert shown_at is None or not all(seat in awaited[k] for k in range(shown_at, made_at + 1)), (made_at, seat)
        shown_at = int(MOVE.search(post.text)[1])

    # Each private line (a hand drawn, a secret choice) reaches its owner only: never the channel while the
    # game runs, never another player's DM.
    replayed = replay(GAMES[key], len(seats), state.options, state.seed, [])
    said = [*replayed.opening_events(), *(e for seat, notation in moves for e in replayed.apply(seat, notation))]
    private: dict[str, set[int]] = {}
    for event in said:
        if event.seats is not None:
            private.setdefault(words.say(words.event_msg(event), "de", list(names), key), set()).update(event.seats)
    public = {words.say(words.event_msg(e), "de", list(names), key) for e in said if e.seats is None}
    secrets = {line: owners for line, owners in private.items() if line not in public}
    assert secrets or key in NO_PRIVATE_LINES, "the game had private lines to check"
    running_posts = [m for m in channel.messages if not m.ephemeral and m not in boards[-1:]]
    for line, owners in secrets.items():
        for message in running_posts:
            assert line not in message.all_text(), (line, message.text[:200])
        for seat, user_id in enumerate(seats):
            if seat not in owners:
                assert not any(line in m.all_text() for m in dms[user_id]), (line, seat)
    # ...and does reach its owner, in German.
    assert not secrets or any(line in m.all_text() for line, owners in secrets.items() for s in owners
                              for m in dms[seats[s]])

    # The end of the game in German: the final post and its report.
    final = [m for m in channel.messages if "**Spielende.**" in m.all_text()]
    assert final, [m.text[:80] for m in channel.messages[-3:]]
    report = [a.data.decode() for a in final[-1].all_attachments() if a.filename.endswith(".txt")]
    assert report and not any(english_words(line, key, (*names, *notation)) for line in report[0].splitlines())
