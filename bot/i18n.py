"""Japanese and English: the catalog (English source text -> Japanese), `t`, `localize` and the command Translator.

The English text in the code is the key. `t(locale, key, **kw)` formats one entry for a user's
Discord locale; `localize(locale, text)` translates text the bot already composed in English
(replies, lobby and board texts), line by line: an exact entry, else an entry with `{name}`
placeholders read as a pattern (`You played `{move}`.` matches `You played `lay a1 b2`.`), else
the line stays as it is (`rules.engine.Catalog`). Engines write English; each game's Japanese
lives beside its code (`rules/<key>/ja.py`: events, refusals, options; `JA` in `render/<key>.py`:
image labels and alt text) and is merged here, so event lines in posts and DMs are translated with
the rest. Move notations stay as they are in every language: they are what `/play` reads.
Command, option and choice descriptions reach Discord through `Translator` (set on the tree in
`JunctionBot.setup_hook`); command and option *names* stay English so that `/game new` is the
same command for everyone.
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.tables import CURRENT_GAME, DB_DOWN, MOVE_FAILED, MOVE_UNKNOWN, SAVE_UNKNOWN, START_FAILED
from render import kit
from rules.engine import Catalog
from rules.registry import GAME_KEYS, GAMES

V = TypeVar("V", bound=discord.ui.view.BaseView)

# --------------------------------------------------------------------------- catalog

JA: dict[str, str] = {
    # ---- turn reminders and "since your last turn"
    "**Since your last turn** ({n} move):": "**前回の手番から**（{n} 手）：",
    "**Since your last turn** ({n} moves):": "**前回の手番から**（{n} 手）：",
    "⏰ Your turn in **{title}** (game #{id} in {place}): time runs out {when} ({at}).":
        "⏰ **{title}**（{place} のゲーム #{id}）であなたの手番です。残り時間: {when}（{at} まで）。",
    "{user}, it is your turn in game #{id}: time runs out {when}.":
        "{user} さん、ゲーム #{id} であなたの手番です。残り時間: {when}。",
    # ---- command, group and option descriptions, choice names
    "Open, join, start and manage a game in this channel": "このチャンネルでゲームを作成・参加・開始・管理します",
    "Open a lobby for a game in this channel (or a new thread)": "このチャンネル（または新しいスレッド）でゲームの募集を始めます",
    "Which game": "どのゲーム",
    "Play in a new thread of this channel": "このチャンネルの新しいスレッドで遊ぶ",
    "Table options as key=value key=value (see /rules)": "卓のオプション（key=value key=value 形式、/rules 参照）",
    "Seat order at the start": "開始時の席順",
    "shuffled": "シャッフル",
    "join order": "参加順",
    "Hours per turn (0: no timer; default 24 or the server's)": "1 手番の時間（0 でタイマーなし。既定は 24 またはサーバー設定）",
    "What happens when a player's time runs out": "プレイヤーの時間切れのときの処理",
    "Timeouts in a row before the AI takes the seat (default 3)": "AI が席を引き継ぐまでの連続時間切れ回数（既定 3）",
    "Hours each player may pause their clock (default 72)": "各プレイヤーが持ち時間を止められる時間（既定 72）",
    "skip the turn (where the rules allow)": "手番をスキップ（ルールが許す場合）",
    "end the game with the standings": "その時点の順位でゲームを終了",
    "Take a seat in this channel's lobby": "このチャンネルの募集に参加します",
    "Leave the lobby, or hand your seat in a running game to the AI": "募集から抜けます（進行中のゲームでは席を AI に任せます）",
    "Cancel this channel's game (its creator or a moderator)": "このチャンネルのゲームを中止します（作成者またはモデレーター）",
    "Start the game in this channel's lobby": "このチャンネルの募集中のゲームを開始します",
    "Players, options and whose turn it is": "プレイヤー、オプション、手番を表示します",
    "Every move of this channel's game so far": "このチャンネルのゲームのこれまでの全手順",
    "Make your move (start typing to see your legal moves)": "手を指します（入力を始めると合法手が表示されます）",
    "Your move, as offered": "候補から選んだあなたの手",
    "See your private hand (only you see the answer)": "自分の手札を見ます（あなただけに表示）",
    "See the current board of this channel's game": "このチャンネルのゲームの現在の盤面を見ます",
    "Describe the board in words instead of an image (screen readers)": "画像の代わりに盤面を文章で説明します（スクリーンリーダー向け）",
    "Post an animated replay (GIF) of this channel's game": "このチャンネルのゲームのリプレイ（GIF アニメ）を投稿します",
    "How a game plays and which table options it has": "ゲームの遊び方と卓のオプション",
    "Server admin controls for Junction games": "Junction のゲームのサーバー管理",
    "Show or change this server's game settings": "このサーバーのゲーム設定を表示・変更します",
    "Channels where games may be started (mention them; 'any' allows every channel)":
        "ゲームを始められるチャンネル（メンションで指定。'any' で全チャンネル）",
    "Default turn timer in hours for new games (0 = off)": "新しいゲームの手番タイマーの既定値（時間、0 でなし）",
    "Default action when a turn times out": "時間切れのときの既定の処理",
    "the AI plays the turn": "AI が手番を指す",
    "the turn is skipped": "手番をスキップ",
    "the game ends": "ゲームを終了",
    "Whether new games open their own thread": "新しいゲームで専用スレッドを作るか",
    "always in a thread": "常にスレッド",
    "never in a thread": "スレッドを使わない",
    "the player chooses": "プレイヤーが選ぶ",
    "A role whose members may use the admin commands": "管理コマンドを使えるロール",
    "Remove the admin role (only Manage Server then)": "管理ロールを解除（サーバー管理権限のみに戻す）",
    "End a game of this server now": "このサーバーのゲームを今すぐ終了します",
    "The game number (#id; start typing to see this server's games)": "ゲーム番号（#id、入力するとこのサーバーのゲームが表示されます）",
    "Remove a player from a game: the AI takes their seat": "プレイヤーをゲームから外し、AI が席を引き継ぎます",
    "The player to remove": "外すプレイヤー",
    "Language of the bot's posts in channels (replies follow each user's Discord language)":
        "チャンネルへの投稿の言語（返信は各ユーザーの Discord の言語に従います）",
    "Japanese": "日本語",
    "English": "英語",
    "the server's Discord language": "サーバーの Discord の言語",
    "Language of posts: {language}": "投稿の言語：{language}",
    "Games, moves and players on this server": "このサーバーのゲーム数・手数・プレイヤー数",
    "This server's running games and lobbies, whose turn and since when": "このサーバーの進行中のゲームと募集、手番とその開始時刻",
    "Your games on every server, and whose turn it is": "全サーバーでのあなたのゲームと手番",
    # part A's commands (bot/cogs/clock.py)
    "Turn timer: deadlines, vacation, reminders, quiet hours": "手番タイマー：期限・休暇・リマインダー・静かな時間",
    "Hand your seat to the AI or to another member": "席を AI または他のメンバーに任せます",
    "This game's timer and your deadline, pause and reminders": "このゲームのタイマー、あなたの期限・一時停止・リマインダー",
    "Vacation: pause your clock in this game for some hours": "休暇：このゲームであなたの持ち時間を数時間止めます",
    "How many hours (the table sets the total allowed)": "何時間か（合計の上限は卓の設定）",
    "End your vacation early (the unused hours come back)": "休暇を早めに終えます（使わなかった時間は戻ります）",
    "Turn your turn reminders for this game on or off": "このゲームの手番リマインダーをオン・オフします",
    "Quiet hours in your time zone: no reminders, no deadline inside": "あなたのタイムゾーンでの静かな時間：リマインダーも期限もなし",
    "Let the AI play your seat for now (take it back with /seat back)": "しばらく AI に席を任せます（/seat back で戻ります）",
    "Take back your seat from the AI": "AI から席を取り戻します",
    "Offer your seat, with its hand, to another member": "手札ごと席を他のメンバーに譲ります",
    "Who takes your seat (they accept with a button)": "席を引き継ぐ人（ボタンで承諾します）",
    "e.g. Europe/Paris, Asia/Tokyo or +09:00": "例：Europe/Paris、Asia/Tokyo、+09:00",
    "From (HH or HH:MM)": "開始（HH または HH:MM）",
    "Until (HH or HH:MM); the same as start turns quiet hours off": "終了（HH または HH:MM）。開始と同じなら静かな時間をオフ",
    "Nothing happened since your last turn.": "前回の手番から何も起きていません。",
    "This seat is offered to someone else.": "この席は別の人に譲られようとしています。",
    "This seat is offered to someone else, or the offer was used or has expired.":
        "この席は別の人に譲られようとしているか、その申し出はすでに使われたか期限切れです。",
    "**{title}** · game #{id} · earlier moves ({part}/{parts})": "**{title}** · ゲーム #{id} · それ以前の手 ({part}/{parts})",
    "Game #{id} has no turn timer.": "ゲーム #{id} には手番タイマーがありません。",
    "Reminders for game #{id} are muted. `/clock reminders on:true` turns them on again.":
        "ゲーム #{id} のリマインダーをミュートしました。`/clock reminders on:true` で再開します。",
    "Your clock is paused until {when}.": "あなたの持ち時間は {when} まで止まっています。",
    "Your clock runs again; {hours} unused hours are back.": "持ち時間が再び動き始めました。未使用の {hours} 時間が戻りました。",
    "Vacation used: {used} of {total} h.": "使用した休暇：{total} 時間中 {used} 時間。",
    # ---- replies (bot/cogs/games.py)
    "You played `{move}`.": "`{move}` を指しました。",
    "The game begins.": "ゲーム開始です。",
    "There is already an open game here.": "ここにはすでに進行中または募集中のゲームがあります。",
    "Threads can be opened in text channels only.": "スレッドはテキストチャンネルでのみ作れます。",
    "I cannot open a thread here; try without thread:true.": "ここではスレッドを作れません。thread:true なしで試してください。",
    "You left; the AI plays your seat.": "抜けました。あなたの席は AI が指します。",
    "You left.": "抜けました。",
    "You joined.": "参加しました。",
    "Game cancelled.": "ゲームを中止しました。",
    "Lobby for {title} opened (game #{id}).": "{title} の募集を始めました（ゲーム #{id}）。",
    "Lobby for {title} opened in {where} (game #{id}).": "{where} で {title} の募集を始めました（ゲーム #{id}）。",
    "Your hand in **{title}** (game #{id}).": "**{title}**（ゲーム #{id}）のあなたの手札。",
    "{n} moves:": "{n} 手：",
    "{n} move:": "{n} 手：",
    "No moves yet.": "まだ手はありません。",
    "Your move in **{title}** (game #{id}): {n} to choose from.": "**{title}**（ゲーム #{id}）のあなたの手番：候補 {n} 手。",
    "Page {page} of {pages}.": "{page} / {pages} ページ。",
    "Your turn in **{title}** (game #{id}) is over: {moves}.": "**{title}**（ゲーム #{id}）のあなたの手番は終わりました：{moves}。",
    "This turn panel expired (Discord lets a panel change for 15 minutes after it opens). Press Take turn for a "
    "fresh one.": "この手番パネルは期限切れです（Discord ではパネルを開いてから 15 分間しか更新できません）。"
                  "「手番を指す」を押すと新しいパネルが開きます。",
    "Undo": "取り消す",
    "Your move in **{title}** (game #{id}): {n} to choose from. Page {page} of {pages}.":
        "**{title}**（ゲーム #{id}）のあなたの手番：候補 {n} 手。{page} / {pages} ページ。",
    "Welcome to **{title}** (game #{id} in {place}). Your private hand comes here when your turn begins; "
    "`/hand` shows it too.": "**{title}**（{place} のゲーム #{id}）へようこそ。あなたの手札は手番が来るたびにここに届きます。"
                             "`/hand` でも見られます。",
    "Welcome to **{title}** (game #{id} in {place}). You chose no DMs: `/hand` or **My hand** under the board "
    "shows your hand; `/clock dms` changes this.":
        "**{title}**（{place} のゲーム #{id}）へようこそ。DM なしを選んでいます。手札は `/hand` か盤面の下の"
        "「自分の手札」で見られます。`/clock dms` で変更できます。",
    # ---- /clock dms
    "Which direct messages you get in all your games": "すべてのゲームで受け取る DM の種類",
    "all (default), only when your turn begins, or none": "すべて（既定）、手番が来たときだけ、またはなし",
    "all: welcome, your turn, the end of a game": "すべて：開始時・手番・ゲーム終了",
    "only when my turn begins": "手番が来たときだけ",
    "none (I use /hand and My hand)": "なし（/hand と「自分の手札」を使う）",
    "You get every DM: the welcome with your hand, one when your turn begins (your hand, your private news, what "
    "happened since your last turn), one at the end, and reminders.":
        "すべての DM が届きます：開始時の手札、手番が来たとき（手札、あなただけへの知らせ、前回の手番からの出来事）、"
        "ゲーム終了時、そしてリマインダー。",
    "You get a DM only when your turn begins (your hand, your private news, what happened since your last turn), "
    "and reminders. `/hand` and **My hand** are always there.":
        "DM は手番が来たときだけ届きます（手札、あなただけへの知らせ、前回の手番からの出来事）。リマインダーも届きます。"
        "`/hand` と「自分の手札」はいつでも使えます。",
    "You get no DMs (only a short welcome when a game starts). `/hand` and **My hand** show your hand; reminders "
    "mention you in the game's channel.":
        "DM は届きません（ゲーム開始時の短いあいさつだけ）。手札は `/hand` と「自分の手札」で見られます。"
        "リマインダーはゲームのチャンネルでメンションします。",
    "DMs can be {choices}.": "DM の設定は {choices} のいずれかです。",
    "**{title}** · game #{id} · your hand": "**{title}** · ゲーム #{id} · あなたの手札",
    "The AI plays your seat now; `/seat back` takes it back.": "今は AI があなたの席を指します。`/seat back` で戻ります。",
    "Your seat is yours again.": "席があなたに戻りました。",
    "This game has no moves to replay.": "このゲームにはリプレイする手がありません。",
    "**{title}** · game #{id} · replay of {n} moves ({frames} frames)":
        "**{title}** · ゲーム #{id} · {n} 手のリプレイ（{frames} コマ）",
    # ---- service refusals (bot/tables.py)
    "It is not your turn.": "あなたの手番ではありません。",
    "It is not your turn. Waiting for {who}.": "あなたの手番ではありません。{who} の番です。",
    "That move is no longer possible.": "その手はもう指せません。",
    "You are not playing in this game.": "あなたはこのゲームに参加していません。",
    "This game is not running.": "このゲームは進行中ではありません。",
    "This game has already started.": "このゲームはすでに始まっています。",
    "This game is finished.": "このゲームは終了しています。",
    "This game is already finished.": "このゲームはすでに終了しています。",
    "There is no game here. Open one with /game new.": "ここにはゲームがありません。/game new で始めてください。",
    "There is no such game.": "そのゲームはありません。",
    "You have already joined.": "すでに参加しています。",
    "The table is full ({n} players).": "卓は満席です（{n} 人）。",
    "There is no AI seat to remove.": "外せる AI の席はありません。",
    "At least one player must sit at the table.": "少なくとも 1 人のプレイヤーが必要です。",
    "Only the player who created the game (or a moderator) can cancel it.": "ゲームを中止できるのは作成者（またはモデレーター）だけです。",
    "Seat order must be shuffle or join.": "席順は shuffle か join です。",
    "Hands are shown only when the game is over.": "手札はゲーム終了時にのみ公開されます。",
    "{title} needs {min} to {max} players; there are {n}.": "{title} には {min}〜{max} 人が必要です。現在 {n} 人です。",
    "Unknown game {name}.": "不明なゲーム {name}。",
    "This game has no turn timer.": "このゲームには手番タイマーがありません。",
    "Your clock is not paused.": "あなたの持ち時間は止まっていません。",
    "You have no seat with the AI in this game.": "このゲームで AI に任せている席はありません。",
    "That member already holds a seat in this game.": "そのメンバーはすでにこのゲームの席に着いています。",
    "You already hold a seat in this game.": "あなたはすでにこのゲームの席に着いています。",
    "This offer is no longer valid.": "この申し出はもう有効ではありません。",
    "The turn timer goes from 0 (off) to 720 hours.": "手番タイマーは 0（なし）〜720 時間です。",
    "On timeout the table can choose ai, skip or end.": "時間切れの処理は ai・skip・end から選べます。",
    "Vacation per player goes from 0 to 1440 hours.": "プレイヤーごとの休暇は 0〜1440 時間です。",
    "Timeouts in a row before the AI takes over: 1 to 20.": "AI が引き継ぐまでの連続時間切れ回数：1〜20。",
    "You can pause your clock for at most {h} more hours in this game.": "このゲームであと最大 {h} 時間まで持ち時間を止められます。",
    # ---- lobby, board and status texts (bot/texts.py)
    "**{title}** · game #{id} · Lobby open": "**{title}** · ゲーム #{id} · 募集中",
    "**{title}** · game #{id} · Started": "**{title}** · ゲーム #{id} · 開始済み",
    "**{title}** · game #{id} · Finished": "**{title}** · ゲーム #{id} · 終了",
    "**{title}** · game #{id} · Cancelled": "**{title}** · ゲーム #{id} · 中止",
    "Players: {n} of {min}–{max} · seats: shuffled at start": "プレイヤー：{n} 人（{min}〜{max} 人）· 席順：開始時にシャッフル",
    "Players: {n} of {min}–{max} · seats: in join order": "プレイヤー：{n} 人（{min}〜{max} 人）· 席順：参加順",
    "Options: `{options}`": "オプション：`{options}`",
    "(nobody yet)": "（まだ誰もいません）",
    "Join with the button or `/game join`; {who} starts with **Start**.":
        "ボタンか `/game join` で参加できます。{who} が **開始** で始めます。",
    "**{title}** · game #{id} · move {n}": "**{title}** · ゲーム #{id} · {n} 手目",
    "**Game over.**": "**ゲーム終了。**",
    "**Revealed:**": "**公開された情報：**",
    "**To act:** {who}": "**手番：** {who}",
    "Moves so far: {n}.": "これまでの手数：{n}。",
    "To act: {who}.": "手番：{who}。",
    "Final: {scores}": "最終結果：{scores}",
    "⏰ Time runs out {when}.": "⏰ 期限 {when}。",
    "⏰ Time runs out: {when}.": "⏰ 期限：{when}。",
    "{title} begins. Seats: {seats}.": "{title} 開始。席順：{seats}。",
    "The game was cancelled.": "ゲームは中止されました。",
    "A server admin ended the game: final standings as they are.": "サーバー管理者がゲームを終了しました。現時点の順位で確定します。",
    "{name} left the game; the AI plays their seat.": "{name} がゲームを離れました。その席は AI が指します。",
    "No player is left: the game ends.": "プレイヤーがいなくなったため、ゲームは終了します。",
    "(I cannot attach images here: please give me the **Attach Files** permission in this channel so the board "
    "image can be posted.)": "（ここでは画像を添付できません。盤面画像を投稿できるよう、このチャンネルで"
                            "**ファイルを添付** 権限を与えてください。）",
    # ---- /rules
    "**{title}** ({min}–{max} players)": "**{title}**（{min}〜{max} 人）",
    "Options for `/game new options:` (key=value, space separated):": "`/game new options:` のオプション（key=value をスペース区切り）：",
    "Play: **Take turn** under the board, or `/play move:` (start typing to see your legal moves). "
    "`/hand` shows your secret hand; `/board` the table.":
        "遊び方：盤面の下の **手番を指す**、または `/play move:`（入力を始めると合法手が出ます）。"
        "`/hand` で自分の手札、`/board` で盤面を表示します。",
    # ---- admin, list and mygames (bot/cogs/admin.py)
    "You need the **Manage Server** permission (or the admin role {role}) to use this command.":
        "このコマンドには **サーバー管理** 権限（または管理ロール {role}）が必要です。",
    "You need the **Manage Server** permission to use this command.": "このコマンドには **サーバー管理** 権限が必要です。",
    "Admin commands work in a server only.": "管理コマンドはサーバー内でのみ使えます。",
    "Settings saved.": "設定を保存しました。",
    "**Junction settings for this server**": "**このサーバーの Junction 設定**",
    "Games may start in: {channels}": "ゲームを始められるチャンネル：{channels}",
    "any channel": "すべてのチャンネル",
    "Default turn timer: {hours} h": "手番タイマーの既定値：{hours} 時間",
    "Default turn timer: off": "手番タイマーの既定値：なし",
    "Default turn timer: not set (24 h)": "手番タイマーの既定値：未設定（24 時間）",
    "On timeout: {action}": "時間切れのとき：{action}",
    "On timeout: not set (the AI plays)": "時間切れのとき：未設定（AI が指す）",
    "Threads: {mode}": "スレッド：{mode}",
    "Admin role: {role}": "管理ロール：{role}",
    "Admin role: none (Manage Server only)": "管理ロール：なし（サーバー管理権限のみ）",
    "Write channels as mentions (#channel), or 'any'.": "チャンネルはメンション（#チャンネル名）か 'any' で指定してください。",
    "The turn timer goes from 0 (off) to {max} hours.": "手番タイマーは 0（なし）〜{max} 時間です。",
    "There is no game #{id} on this server.": "このサーバーにゲーム #{id} はありません。",
    "Game #{id} is already finished.": "ゲーム #{id} はすでに終了しています。",
    "Game #{id} ended.": "ゲーム #{id} を終了しました。",
    "{name} is not playing in game #{id}.": "{name} はゲーム #{id} に参加していません。",
    "{name} was removed from game #{id}; the AI plays their seat.": "{name} をゲーム #{id} から外しました。その席は AI が指します。",
    "{name} was removed from the lobby of game #{id}.": "{name} をゲーム #{id} の募集から外しました。",
    "**Junction on this server**": "**このサーバーの Junction**",
    "Games: {total} · running {running} · lobbies {lobby} · finished {over} · cancelled {cancelled}":
        "ゲーム：{total} · 進行中 {running} · 募集中 {lobby} · 終了 {over} · 中止 {cancelled}",
    "Moves played: {moves} · players: {players}": "指された手：{moves} · プレイヤー：{players} 人",
    "By game: {games}": "ゲーム別：{games}",
    "No running games or lobbies on this server.": "このサーバーには進行中のゲームも募集もありません。",
    "**Games on this server**": "**このサーバーのゲーム**",
    "You have no running games or lobbies.": "進行中のゲームも参加中の募集もありません。",
    "**Your games**": "**あなたのゲーム**",
    "lobby": "募集中",
    "your turn": "あなたの手番",
    "waiting for {who}": "{who} の手番",
    "since {when}": "{when} から",
    "Games cannot be started in this channel. A server admin allows them in: {channels}.":
        "このチャンネルではゲームを始められません。サーバー管理者が許可したチャンネル：{channels}。",
    "On this server games are played in threads only, and I cannot open one here.":
        "このサーバーではゲームはスレッドでのみ遊べますが、ここではスレッドを作れません。",
    "I cannot post here: I need the **{permissions}** permission in this channel.":
        "ここには投稿できません。このチャンネルで **{permissions}** 権限が必要です。",
    "I cannot open a thread here: I need the **{permissions}** permission in this channel.":
        "ここではスレッドを作れません。このチャンネルで **{permissions}** 権限が必要です。",
    "I cannot post in that thread: I need the **{permissions}** permission.":
        "そのスレッドには投稿できません。**{permissions}** 権限が必要です。",
    # ---- seats, clocks and timeouts (bot/tables.py, bot/cogs/clock.py)
    "Write times as HH or HH:MM (24 h), not {value}.": "時刻は HH または HH:MM（24 時間制）で書いてください（{value} は読めません）。",
    "{who} hands their seat to the AI for now (/seat back takes it back).":
        "{who} は当面 AI に席を任せました（/seat back で戻せます）。",
    "{who} takes their seat back from the AI.": "{who} が AI から席を取り戻しました。",
    "{who} handed their seat to {other}.": "{who} が {other} に席を譲りました。",
    "Unknown clock setting {name}.": "不明な時計の設定です: {name}。",
    "Time zone offsets go from -14:00 to +14:00.": "タイムゾーンのオフセットは -14:00 から +14:00 までです。",
    "Unknown time zone {tz}; write e.g. Europe/Paris, Asia/Tokyo or +09:00.":
        "不明なタイムゾーン {tz} です。Europe/Paris、Asia/Tokyo、+09:00 のように書いてください。",
    "This game has no saved state.": "このゲームには保存された状態がありません。",
    "A bot cannot take a seat; use /seat ai to let the AI play it.":
        "ボットは席に着けません。AI に任せるには /seat ai を使ってください。",
    "Unknown AI {name}; choose from {choices}.": "不明な AI {name} です。{choices} から選んでください。",
    "Unknown AI level {name}; choose from {choices}.": "不明な AI の強さ {name} です。{choices} から選んでください。",
    "The stand-in AI plays at one of these levels: {levels}.": "代わりに指す AI の強さは次のいずれかです：{levels}。",
    "Time ran out for {who}: the game ends with the current standings.":
        "{who} の時間切れ：その時点の順位でゲームを終了します。",
    "Time ran out for {who}: {what}": "{who} の時間切れ：{what}",
    "their turn is skipped.": "手番はスキップされます。",
    "the AI played for them.": "AI が代わりに指しました。",
    "{who} timed out {n} times in a row: the AI takes the seat for good ({owner} can take it back with /seat back).":
        "{who} が {n} 回連続で時間切れになりました。AI がこの席を引き継ぎます（{owner} は /seat back で取り戻せます）。",
    "No player is left: the game ends with the current standings.":
        "プレイヤーがいなくなりました。その時点の順位でゲームを終了します。",
    "(a hidden decision)": "（非公開の選択）",
    "… {n} earlier moves": "… それ以前の {n} 手",
    "… {n} earlier move": "… それ以前の {n} 手",
    "{n}. {who}: {said}": "{n}. {who}：{said}",
    "{who}: `{move}` — {said}": "{who}：`{move}` — {said}",
    "{who}: `{move}`": "{who}：`{move}`",
    "{who} — {said}": "{who}：{said}",
    "The board before and after the last {n} moves, left to right": "直近 {n} 手の前後の盤面（左から右へ）",
    "The board before and after the last move, left to right": "直前の手の前後の盤面（左から右へ）",
    "Game #{id}: {hours} h per turn; on timeout {action}; after {n} timeouts in a row the AI takes the seat; "
    "vacation up to {vacation} h per player.":
        "ゲーム #{id}：1 手番 {hours} 時間。時間切れのときは{action}。{n} 回連続で時間切れになると AI が席を引き継ぎます。"
        "休暇は 1 人 {vacation} 時間まで。",
    "the turn is skipped where the rules allow it (else the AI plays it)": "ルールが許せば手番をスキップ（できなければ AI が指す）",
    "the game ends with the current standings": "その時点の順位でゲームを終了",
    "{name}: time runs out {when}": "{name}：残り時間 {when}",
    "Vacation used: {used} of {total} h. Reminders are muted.": "使った休暇：{total} 時間中 {used} 時間。リマインダーはミュート中です。",
    "<@{taker}> took over <@{giver}>'s seat in game #{id}.": "<@{taker}> さんがゲーム #{id} で <@{giver}> さんの席を引き継ぎました。",
    "Your clock in game #{id} is paused until {until} ({when}); no reminders until then. `/clock resume` ends it early.":
        "ゲーム #{id} のあなたの持ち時間を {until}（{when}）まで止めました。それまでリマインダーは届きません。"
        "`/clock resume` で早めに再開できます。",
    "{who} paused their clock until {until}.": "{who} が {until} まで持ち時間を止めました。",
    "{who} is back; their clock runs again.": "{who} が戻りました。持ち時間が再び進みます。",
    "Reminders for game #{id} are on.": "ゲーム #{id} のリマインダーはオンです。",
    "Reminders for game #{id} are muted.": "ゲーム #{id} のリマインダーはミュート中です。",
    "Quiet hours {start}–{end} ({tz}) in all your games: no reminders then, and a deadline that would fall inside "
    "them moves to their end.":
        "すべてのゲームで静かな時間を {start}〜{end}（{tz}）にしました。その間はリマインダーを送らず、"
        "その間に来る締め切りは終了時刻まで延びます。",
    "Quiet hours are off (time zone {tz}).": "静かな時間はオフです（タイムゾーン {tz}）。",
    "{member}, {user} offers you their seat in game #{id} (with their hand). Accept with the button.":
        "{member} さん、{user} さんがゲーム #{id} の席（手札ごと）を譲りたいそうです。ボタンで受け取れます。",
    "**{title}** · game #{id}": "**{title}** · ゲーム #{id}",
    # ---- admin
    "Send Messages in Threads": "スレッドでメッセージを送信",
    "Create Public Threads": "公開スレッドの作成",
    # ---- board posts, hands and the end of a game
    "What the last move ended (e.g. a round).": "直前の手で終わったもの（ラウンドなど）。",
    "{name}'s hand at the end of the game": "ゲーム終了時の {name} の手札",
    "The whole move log and the final standings": "全手順と最終順位",
    "{user}, I cannot send you direct messages, so your hand in game #{id} cannot reach you by DM. Allow direct "
    "messages from server members (server menu → Privacy Settings), or use `/hand` here whenever you want to see it.":
        "{user} さん、DM を送れないため、ゲーム #{id} の手札を DM で届けられません。サーバーメンバーからの DM を許可する"
        "（サーバーメニュー → プライバシー設定）か、見たいときにここで `/hand` を使ってください。",
    "Replay of {title} game #{id}: {frames} frames over {n} moves.": "{title} ゲーム #{id} のリプレイ：{n} 手を {frames} コマで。",
    "{title} · game #{id}": "{title} · ゲーム #{id}",
    "Options: {options}": "オプション：{options}",
    "Seats: {seats}": "席：{seats}",
    "Final standings:": "最終順位：",
    "Moves ({n}):": "手順（{n} 手）：",
    "{key} (revealed): {value}": "{key}（公開）：{value}",
    "**At the end:**": "**終了時：**",
    "(none)": "（なし）",
    # ---- /rules option lines (the descriptions come from the games' catalogs)
    "`{key}` ({kind}, default {default}): {description}": "`{key}`（{kind}、既定 {default}）：{description}",
    # ---- buttons and the move picker
    "Join": "参加",
    "Leave": "抜ける",
    "Add AI": "AI を追加",
    "Easy": "弱い",
    "Normal": "普通",
    "Hard": "強い",
    "easy": "弱い",
    "normal": "普通",
    "hard": "強い",
    "Which AI joins game #{id}?": "ゲーム #{id} にどの強さの AI を加えますか？",
    "{name} ({level}) takes a seat.": "{name}（{level}）が席に着きました。",
    "Seat an AI player in this channel's lobby": "このチャンネルのロビーに AI プレイヤーを座らせます",
    "How well it plays (default normal)": "AI の強さ（既定は普通）",
    "The AI level that plays for a player who times out or leaves": "時間切れや離脱したプレイヤーの代わりに指す AI の強さ",
    "Start": "開始",
    "Cancel": "中止",
    "Take turn": "手番を指す",
    "My hand": "自分の手札",
    "Since my last turn": "前回の手番から",
    "Mute reminders for this game": "このゲームのリマインダーをミュート",
    "Accept the seat": "席を受け取る",
    "Choose a move": "手を選んでください",
    "Moves starting '{prefix}'": "'{prefix}' で始まる手",
    "{n} moves": "{n} 手",
    "{n} move": "{n} 手",
    "◀ Previous": "◀ 前へ",
    "Next ▶": "次へ ▶",
    "All moves": "すべての手",
    # ---- the lobby's timer line
    "Turn timer: {hours} h · on timeout {action} · the AI takes a seat after {n} timeouts in a row · "
    "vacation up to {vacation} h each":
        "手番タイマー：{hours} 時間 · 時間切れのときは{action} · {n} 回連続で時間切れになると AI が席を引き継ぐ · "
        "休暇は 1 人 {vacation} 時間まで",
    "the AI plays": "AI が指す",
    "the AI ({level}) plays": "AI（{level}）が指す",
    # ---- final standings (bot.tables.result_lines; the categories come translated)
    "{rank}. {name}: {score} ({parts})": "{rank}. {name}：{score}（{parts}）",
    "{rank}. {name}: {score}": "{rank}. {name}：{score}",
    # ---- failures on our side (bot.tables): what was done is said, never guessed
    DB_DOWN: "Junction は今データベースに接続できません。何も変更されていません。1 分ほどしてからもう一度お試しください。",
    MOVE_UNKNOWN: "手を保存している最中に Junction とデータベースの接続が切れたため、その手が指されたかどうかまだ分かりません。"
                  "もう一度指す前に、1 分ほどしてからゲームを確認してください。",
    SAVE_UNKNOWN: "保存している最中に Junction とデータベースの接続が切れたため、保存されたかどうかまだ分かりません。"
                  "もう一度試す前に、1 分ほどしてから確認してください。",
    MOVE_FAILED: "こちら側で問題が起きたため、あなたの手は指されていません。ゲームは元のままです。もう一度お試しください。",
    START_FAILED: "こちら側で問題が起きたため、ゲームは開始されませんでした。もう一度お試しください。",
}

# /rules summaries in Japanese, by game key (the English ones are GameDefinition.summary).
RULES_JA: dict[str, str] = {
    "ttr_cards": (
        "電車カードを集め、同じ色 2 枚以上（機関車カードはワイルド）か異なる 3 色 3 枚のセットを自分のレールヤードに置きます。"
        "ある色でより多い枚数を置くと、他のプレイヤーのその色の列を奪えます（電車強奪）。\n"
        "各手番の最初に、レールヤードの各列の一番上のカードを裏向きのトラックスタックに移します（誰も見られません）。"
        "手番では電車カードを 2 枚引く（表向きの機関車カードは 2 枚分）、レールヤードに置く、"
        "または目的地カードを 4 枚引いて好きな枚数を残す、のいずれかを行います。\n"
        "山札が尽きたら全員がもう 1 手番ずつ行い、トラックスタックのカードで目的地カードを達成します"
        "（最適な組み合わせはエンジンが探します）。未達成の目的地カードは失点、6 つのビッグシティそれぞれについて、"
        "その都市を含む達成済み目的地カードが最も多い人にボーナス。4 人では山札を 2 回使います。"
    ),
    "great_western": (
        "全員ロンドンから始めます。毎ラウンド 3 つのダイスで各列車に黒キューブを積み、"
        "自分のキューブで列車を競り落とします（`bid t2 3`、上回られたキューブは戻ります）。"
        "落札者は自分のキューブを列車に積み直し、先頭に近いキューブの順に建設します。"
        "都市の接続（`connect oxford`）には乗客キューブでその人口を、任意のキューブで路線（区間数、"
        "他のプレイヤーの都市を通るごとに +1）を支払い、1 個は都市に残ります。収入は都市数で決まります。"
        "すべての都市にキューブが置かれたら、金貨が最も多い人の勝ち（同点なら都市が少ない方）。"
    ),
    "trans_europa": (
        "各ラウンド、全員が地域ごとに 1 つずつ、秘密のヨーロッパの都市を 5 つ受け取り、スタートマーカーを置きます。\n"
        "手番では自分のネットワークにつながるように、一本線に黒い線路を 1〜2 本、または二本線（川・山・海）に 1 本引きます。"
        "線路は共有なので、触れたネットワークは両者のものとしてつながります。\n"
        "誰かのマーカーと 5 都市がネットワークでつながった時点でラウンド終了。"
        "他の全員は、まだ足りない一本線 1 本につき 1 点（二本線は 2 点）を正確に数えて失います。\n"
        "全員 13 点から始め、誰かが 0 点以下になったラウンドの後、最も得点の高い人の勝ちです。"
    ),
    "off_the_rails": (
        "線路を敷き、2 台のトロッコをスタートのマスに置いて速度を決めます：1 手番に最大 4 アクション。"
        "その後トロッコはちょうど速度分進み、通過するマスごとに宝石を 1 個、止まったマスで 2 個拾います。"
        "T 字では進路を選び、交差点は直進します。宝石をいずれかのスタートのマスに戻すと得点"
        "（ルビー 1、エメラルド 2、金 3、ダイヤ 4、石 0、ルビー最多に +5）。"
        "トロッコにぶつけると自分のトロッコは逆走し、相手は宝石を 2 つの手に分け、あなたが見ずに 1 つを選んで捨てさせます。"
        "ミッションは 4 点、手元のトロッコは 1 台 3 点。崩落カードの後は毎手番、裂け目が広がり、終了時に盤上のトロッコは失われます。"
    ),
    "santa_fe": (
        "鉄道は誰のものでもありません：配置のたびに、ミシシッピ川から西へ延びる 5 路線のどれでも延ばせます。"
        "各ラウンド、全員が秘密に都市カード（または 1 パスに 2 回置けるダブルターンカード）を出し、その後 2 回の敷設パスを行います。"
        "都市に最初に到達すると $2、鉄道のボーナス都市は $4（ダブルターンカードではどちらも倍）。"
        "終了時、出した都市カードはそれぞれ「価値 × そこに到達した鉄道の数」で得点し、所持金を加えます。"
        "線路が尽きるか、敷くべきプレイヤーが敷けなくなったらゲーム終了です。"
    ),
}


# --------------------------------------------------------------------------- lookup


def is_japanese(locale: Any) -> bool:
    """True for Discord's `ja` locale (a discord.Locale, its value, or None)."""
    value = getattr(locale, "value", locale)
    return isinstance(value, str) and value.lower().startswith("ja")


def lang(locale: Any) -> str:
    """The language code images are drawn in for this locale: "ja" or "en"."""
    return "ja" if is_japanese(locale) else "en"


def t(locale: Any, key: str, **kw: Any) -> str:
    """The catalog entry `key` (English source) for this locale, formatted with kw."""
    template = catalog(CURRENT_GAME.get()).entries.get(key, key) if is_japanese(locale) else key
    return template.format(**kw) if kw else template


def game_catalog(key: str) -> dict[str, str]:
    """One game's Japanese texts: its engine's (rules/<key>/ja.py) and its images' (render/<key>.py JA)."""
    return {**importlib.import_module(f"rules.{key}.ja").JA,
            **getattr(importlib.import_module(f"render.{key}"), "JA", {})}


@lru_cache(maxsize=16)
def catalog(game: str | None = None) -> Catalog:
    """The bot's catalog for texts about `game`: the bot's own entries over that game's, plus every
    game's title. Without a game (a list of games, say): every game's entries. Scoped, because two
    games may say the same English in different words (a card "play" is not a railroad's)."""
    every = {key: game_catalog(key) for key in GAME_KEYS}
    titles = {d.title: every[k][d.title] for k, d in GAMES.items() if d.title in every[k]}
    games = every[game] if game in every else {k: v for c in every.values() for k, v in c.items()}
    return Catalog(kit.JA | games | titles | JA)


def warm() -> None:
    """Build every catalog now (the bot does it in a thread at start)."""
    for key in (*GAME_KEYS, None):
        catalog(key)


def localize(locale: Any, text: str, game: str | None = None) -> str:
    """Text the bot composed in English, in the reader's language (unknown lines stay as they are).

    `game`: the game the text is about; by default the one the current task works on (set by the
    service, bot.tables.CURRENT_GAME)."""
    if not is_japanese(locale) or not text:
        return text.replace(Catalog.JOIN, " ")
    return catalog(game or CURRENT_GAME.get()).text(text).replace(Catalog.JOIN, " ")


def localize_view(view: V, locale: Any) -> V:
    """The view's button labels and select texts in the reader's language (move notations stay);
    a layout view's items at any depth (text displays are localized where they are composed)."""
    if not is_japanese(locale):
        return view
    for child in view.walk_children():
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = localize(locale, item.label)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = localize(locale, item.placeholder)
            for option in item.options:
                if option.description:
                    option.description = localize(locale, option.description)
    return view


def rules_text(locale: Any, definition: Any, english: str) -> str:
    """`/rules` in the reader's language: the Japanese summary of the game, the rest localized."""
    if not is_japanese(locale):
        return english
    summary = RULES_JA.get(definition.key)
    if summary and definition.summary and definition.summary in english:
        english = english.replace(definition.summary, "\u0000")
        return localize(locale, english).replace("\u0000", summary)[:2000]
    return localize(locale, english)


# --------------------------------------------------------------------------- commands


class Translator(app_commands.Translator):
    """Japanese descriptions and choice names for the command tree (names stay as they are)."""

    _LOCATIONS = frozenset({
        app_commands.TranslationContextLocation.command_description,
        app_commands.TranslationContextLocation.group_description,
        app_commands.TranslationContextLocation.parameter_description,
        app_commands.TranslationContextLocation.choice_name,
    })

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not discord.Locale.japanese or context.location not in self._LOCATIONS:
            return None
        return catalog().entries.get(string.message)
