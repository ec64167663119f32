"""Japanese and English through the fake Discord: synced localizations, replies, public posts, /rules."""

from __future__ import annotations

import locales
from rules.registry import GAMES
from tests.e2e.test_platform import make_bot

OURS = ("game", "play", "hand", "board", "rules", "admin", "mygames", "profile", "leaderboard", "history", "season")


def described(command):
    """Every (description, localizations) pair of a command, its subcommands and options, and choices."""
    yield command["description"], command.get("description_localizations") or {}
    for option in command.get("options") or []:
        yield from described(option)
        for choice in option.get("choices") or []:
            yield choice["name"], choice.get("name_localizations") or {}


async def test_command_sync_carries_japanese_descriptions(fake_discord, tmp_path):
    fake = fake_discord
    await fake.start_bot(make_bot(fake, str(tmp_path / "j.db")))
    names = {c["name"] for c in fake.commands()}
    assert set(OURS) <= names
    for name in OURS:
        command = fake.command(name)
        assert not command.get("name_localizations")  # /game new is the same command for everyone
        for text, localized in described(command):
            if text in {d.title for d in GAMES.values()} or text == "Guess":
                continue  # game titles are names
            assert localized.get("ja") == locales.gettext("ja", text) != text, (name, text)
            assert len(localized["ja"]) <= 100
    game_new = next(o for o in fake.command("game")["options"] if o["name"] == "new")
    seats = next(o for o in game_new["options"] if o["name"] == "seats")
    assert [c["name_localizations"]["ja"] for c in seats["choices"]] == ["シャッフル", "参加順"]


async def test_a_japanese_user_gets_japanese_replies_an_english_one_english(fake_discord, tmp_path):
    fake = fake_discord
    await fake.start_bot(make_bot(fake, str(tmp_path / "j.db")))
    ann, bob, dee = fake.user("Ann"), fake.user("Bob"), fake.user("Dee")
    general = fake.channel("general")
    ix = await fake.slash(ann, general, "game new", options={"game": "guess", "seats": "join"}, locale="ja")
    assert ix.text == "Guess の募集を始めました（ゲーム #1）。"
    lobby = next(m for m in general.messages if not m.ephemeral)
    assert "Lobby open" in lobby.text  # a public post: the server's language (English here)
    assert (await fake.slash(bob, general, "game join", locale="ja")).text == "参加しました。"
    assert (await fake.slash(dee, general, "game join")).text == "You joined."
    ix = await fake.slash(ann, general, "game start", locale="ja")
    assert ix.text == "ゲーム開始です。"
    await fake.wait_for(lambda: any("game #1 · move" in m.text for m in general.messages), what="board")
    # DMs the bot starts use the language of the user's last interaction.
    await fake.wait_for(lambda: fake.dms(bob) and fake.dms(dee), what="welcome DMs")
    assert fake.dms(bob)[0].text.startswith(f"**Guess**（<#{general.id}> のゲーム #1）へようこそ。")
    assert fake.dms(dee)[0].text.startswith("Welcome to **Guess**")
    ix = await fake.slash(bob, general, "play", options={"move": "fly"}, locale="ja")
    assert ix.text == "I cannot read 'fly'; try bid 2, guess s2 3 or pass."  # a test game: no Japanese catalog
    ix = await fake.slash(bob, general, "play", options={"move": "bid 1"}, locale="ja")
    assert ix.text == "`bid 1` を指しました。"
    ix = await fake.slash(bob, general, "play", options={"move": "bid 1"}, locale="ja")
    assert ix.text == "あなたの手番ではありません。Ann、Dee の番です。"  # a list the Japanese way (catalog: ", ")
    ix = await fake.slash(bob, general, "play", options={"move": "bid 1"})
    assert ix.text == "It is not your turn. Waiting for Ann, Dee."
    ix = await fake.slash(fake.user("Cid"), general, "hand", locale="ja")
    assert ix.text == "あなたはこのゲームに参加していません。"
    ix = await fake.slash(ann, general, "board", options={"text": True}, locale="ja")
    assert ix.text.startswith("**Guess** · ゲーム #1 · 1 手目")
    ix = await fake.click(ann, next(m for m in reversed(general.messages) if m.buttons()), label="Take turn",
                          locale="ja")
    assert ix.text.startswith("**Guess**（ゲーム #1）のあなたの手番：候補 4 手。")
    ix = await fake.slash(ann, general, "admin stats", locale="ja")
    assert ix.text.startswith("**このサーバーの Junction**")
    ix = await fake.slash(bob, general, "admin stats", locale="ja")
    assert ix.text == "このコマンドには **サーバー管理** 権限が必要です。"


async def test_rules_summaries_in_both_languages(fake_discord, tmp_path):
    fake = fake_discord
    await fake.start_bot(make_bot(fake, str(tmp_path / "j.db")))
    ann, general = fake.user("Ann"), fake.channel("general")
    ix = await fake.slash(ann, general, "rules", options={"game": "guess"}, locale="ja")
    assert ix.text.startswith("**Guess**（2〜4 人）") and "遊び方" in ix.text
    ix = await fake.slash(ann, general, "rules", options={"game": "guess"})
    assert ix.text.startswith("**Guess** (2–4 players)") and "Bid on your secret number" in ix.text


async def test_public_posts_follow_the_servers_language(fake_discord, tmp_path):
    fake = fake_discord
    fake.guild_locale = "ja"
    await fake.start_bot(make_bot(fake, str(tmp_path / "j.db")))
    ann, bob, general = fake.user("Ann"), fake.user("Bob"), fake.channel("general")
    ix = await fake.slash(ann, general, "game new", options={"game": "guess"})
    assert ix.text == "Lobby for Guess opened (game #1)."  # Ann's own locale is English
    lobby = next(m for m in general.messages if not m.ephemeral)
    assert lobby.text.startswith("**Guess** · ゲーム #1 · 募集中")
    assert [b["label"] for b in lobby.buttons()] == ["参加", "抜ける", "AI を追加", "開始", "中止"]
    await fake.click(bob, lobby, label="参加")
    assert "募集中" in fake.message(lobby.id).text  # Bob's click keeps the server's language
    await fake.slash(ann, general, "game start")
    board = await fake.wait_for(lambda: next((m for m in general.messages if "ゲーム #1 · 0 手目" in m.text), None),
                                what="Japanese board post")
    assert "**手番：**" in board.text and "Guess 開始。席順：" in board.text
    assert [b["label"] for b in board.buttons()] == ["手番を指す", "自分の手札", "前回の手番から"]
    # Ann's picker answers in her language (English), whatever the channel's.
    ix = await fake.click(ann, board, label="手番を指す")
    assert ix.text.startswith("Your move in **Guess**")


async def test_an_admin_can_choose_the_language_of_public_posts(fake_discord, tmp_path):
    fake = fake_discord
    db = str(tmp_path / "j.db")
    bot = await fake.start_bot(make_bot(fake, db))
    ann, general = fake.user("Ann"), fake.channel("general")  # the server's locale is en-US
    ix = await fake.slash(ann, general, "admin settings", options={"language": "ja"}, locale="ja")
    assert "投稿の言語：日本語" in ix.text
    await fake.slash(ann, general, "game new", options={"game": "guess"})
    assert any(m.text.startswith("**Guess** · ゲーム #1 · 募集中") for m in general.messages)
    bot = await fake.restart_bot(bot, make_bot(fake, db))  # the choice is stored
    await fake.slash(ann, general, "game cancel")
    lobby = next(m for m in general.messages if m.text.startswith("**Guess** · ゲーム #1"))
    await fake.wait_for(lambda: "· 中止" in fake.message(lobby.id).text, what="lobby edited after a restart")
    await fake.slash(ann, general, "admin settings", options={"language": "auto"})
    await fake.slash(ann, general, "game new", options={"game": "guess"})
    assert general.messages[-2].text.startswith("**Guess** · game #2 · Lobby open")


async def test_a_real_game_reads_in_japanese_from_the_board_post_to_the_hand(fake_discord, tmp_path):
    """Trans Europa on a Japanese server: event lines, refusals, buttons and the hand, in Japanese;
    an English player's own answers stay English."""
    from bot.app import create_bot
    from tests.i18n.support import english_left

    fake = fake_discord
    fake.guild_locale = "ja"
    await fake.start_bot(create_bot(str(tmp_path / "te.db"), render_workers=0, **fake.bot_kwargs()))
    ann, bob, games = fake.user("Ann"), fake.user("Bob"), fake.channel("games")
    await fake.slash(ann, games, "game new", options={"game": "trans_europa", "seats": "join"}, locale="ja")
    await fake.slash(bob, games, "game join")
    await fake.slash(ann, games, "game start", locale="ja")
    board = await fake.wait_for(lambda: next((m for m in games.messages if "ゲーム #1 · 0 手目" in m.text), None),
                                what="Japanese board post")
    assert board.text.startswith("**トランス・ヨーロッパ** · ゲーム #1")
    lines = [line[2:] for line in board.text.splitlines() if line.startswith("• ")]
    assert lines and all(english_left(line, ["Ann", "Bob"]) == [] for line in lines), lines
    assert board.attachments and "Trans Europa" not in board.attachments[0].description  # alt text
    # Ann (Japanese) is told in Japanese that the move is unknown; Bob (English) in English.
    ix = await fake.slash(ann, games, "play", options={"move": "start atlantis"}, locale="ja")
    assert ix.text and english_left(ix.text, ["atlantis", "Bob", "Ann"]) == [], ix.text
    ix = await fake.slash(bob, games, "play", options={"move": "start atlantis"})
    assert ix.text in ("Unknown junction 'atlantis'.", "It is not your turn. Waiting for Ann.")
    # The hand follows the asker's language, words and image (the same view drawn with other labels).
    japanese = await fake.slash(ann, games, "hand", locale="ja")
    english = await fake.slash(ann, games, "hand")
    assert "トランス・ヨーロッパ" in japanese.text and "Your hand" in english.text
    assert japanese.reply.attachments[0].is_png and japanese.reply.attachments[0].data != english.reply.attachments[0].data
