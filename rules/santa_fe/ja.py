"""Japanese for this game's engine texts: event lines, refusal reasons, option descriptions, result words.

English (exactly as the engine writes it) -> Japanese; see rules.engine.Catalog for patterns.
Terms follow the Japanese rulebook (shared/seeds/004): 都市カード, ダブルターンカード, 分岐カード,
技術者カード, 線路タイル, 線路敷設ターン, ファーストプレイヤー, 路線, 区間, 都市ボーナス,
スペシャルボーナス, アドバンスゲーム. Railroads (SF, SP...), cities and move notation stay as they are.
Event lines are plain past tense ("…を置いた。"), refusals speak to the player politely ("…ません。").
"""

from __future__ import annotations

# The step names of notation.PHASE_NAMES. They are not catalog entries of their own (a bare "draw"
# would also turn move notation into Japanese in the bot's merged catalog): the lines that carry them
# are spelled out per step below, and the board image builds its labels from this table.
PHASES_JA: dict[str, str] = {
    "engineer step": "技術者カードの購入",
    "choose cards": "カードの選択",
    "lay pass 1": "1 回目の線路敷設ターン",
    "double-turn exchange": "ダブルターンの手札交換",
    "lay pass 2": "2 回目の線路敷設ターン",
    "draw": "カードを引く",
    "buy tiles": "線路タイルの購入",
    "game over": "ゲーム終了",
}

JA: dict[str, str] = {
    # ---- table options and results
    "Advanced game: $5 start, terrain costs, engineers, passing allowed, branch cards $2.":
        "アドバンスゲーム：開始時 $5、地形による費用、技術者カード、パス可、分岐カードは $2。",
    "Buy one track tile for $1 per round; once the supply is empty, bought tiles are laid.":
        "選択ルール：毎ラウンド線路タイルを 1 つ $1 で購入できます。購入されていないタイルがすべて置かれたら、購入したタイルを置きます。",
    "money": "所持金",
    "value_7_cards": "価値 7 の都市カード",
    "city cards of value 7": "価値 7 の都市カード",  # the key in the player's words (RESULT_LABELS)
    "The game ended: every track tile was laid.": "終了：すべての線路タイルが置かれた",
    "The game ended: a player could not lay any track.": "終了：線路タイルを置けないプレイヤーがいた",
    "The game ended: everyone passed in a lay pass.": "終了：線路敷設ターンで全員がパスした",
    "E1": "終了：すべての線路タイルが置かれた",
    "E2": "終了：線路タイルを置けないプレイヤーがいた",
    "E3": "終了：線路敷設ターンで全員がパスした",
    # ---- setup and rounds
    "{who} is the first player.": "{who} がファーストプレイヤー。",
    "Round {n} begins; {who} is first player.": "ラウンド {n} 開始。ファーストプレイヤーは {who}。",
    "Engineers bought by: {who}.": "技術者カードを買ったプレイヤー：{who}。",
    "nobody": "なし",
    "{who} has decided about the engineer.": "{who} が技術者カードを買うか決めた。",
    # the notation is what /play reads: kept, and marked as code
    "Your choice: {move}.": "あなたの選択：`{move}`。",
    # ---- the secret card choice and its reveal (one part per seat, 2 to 5 seats)
    "Round {n} reveal: {p1}; {p2}.": "ラウンド {n} の公開：{p1}／{p2}。",
    "Round {n} reveal: {p1}; {p2}; {p3}.": "ラウンド {n} の公開：{p1}／{p2}／{p3}。",
    "Round {n} reveal: {p1}; {p2}; {p3}; {p4}.": "ラウンド {n} の公開：{p1}／{p2}／{p3}／{p4}。",
    "Round {n} reveal: {p1}; {p2}; {p3}; {p4}; {p5}.": "ラウンド {n} の公開：{p1}／{p2}／{p3}／{p4}／{p5}。",
    # whole parts for the double-turn card, so that no other game's "{who} plays {n} {cards}" takes the "a"
    "{who} plays a double-turn card": "{who} はダブルターンカード",
    "{who} plays a double-turn card + {rr} branch card": "{who} はダブルターンカード + {rr} の分岐カード",
    "{who} plays {card}": "{who} は {card}",
    "{who} plays nothing": "{who} は出さず",
    "{who} plays nothing (branch card {rr} discarded)": "{who} は出さず（{rr} の分岐カードは捨て札）",
    "a double-turn card": "ダブルターンカード",
    "a double-turn card + {rr} branch card": "ダブルターンカード + {rr} の分岐カード",
    "{card} + {rr} branch card": "{card} + {rr} の分岐カード",
    # ---- double-turn exchange
    "{who} exchanged {n} card.": "{who} が {n} 枚交換した。",
    "{who} exchanged {n} cards.": "{who} が {n} 枚交換した。",
    "{who} exchanged {cards}.": "{who} が {cards}交換した。",
    "{who}'s unused {rr} branch card leaves the game.": "{who} が使わなかった {rr} の分岐カードはゲームから取り除かれた。",
    "You drew {city}.": "あなたは {city} を引いた。",
    "You discarded {out} and drew {drawn}.": "あなたは {out} を捨て、{drawn} を引いた。",
    # ---- laying track
    "{rr} reaches {city}.": "{rr} が {city} に接続した。",
    "{rr} reaches {city}. {who} earns ${bonus} ({parts}).":
        "{rr} が {city} に接続した。{who} が ${bonus} を獲得（{parts}）。",
    "${money} first to {city}": "{city} の都市ボーナス ${money}",
    "${money} {rr} bonus": "{rr} のスペシャルボーナス ${money}",
    "${first} first to {city}, ${bonus} {rr} bonus": "{city} の都市ボーナス ${first}、{rr} のスペシャルボーナス ${bonus}",
    # ---- the end
    # Whole lines: another game's "Game over: {standings}." would otherwise take the reason's full stop.
    "Game over: {why}": "ゲーム終了：{why}",
    "Game over: The last track tile has been laid.": "ゲーム終了：最後の線路タイルが置かれた。",
    "Game over: every seat passed in this lay pass.": "ゲーム終了：この線路敷設ターンで全員がパスした。",
    "Game over: {who} cannot lay any track.": "ゲーム終了：{who} は線路タイルを置けない。",
    "Final scores: {scores}.": "最終得点：{scores}。",
    # ---- refusals: the board
    "{rr} already has track on {section}.": "{rr} はすでに {section} に線路があります。",
    "Both lanes of {section} are taken.": "{section} の線は 2 本とも使われています。",
    "{section} is already being built by {rr}.": "{section} はすでに {rr} が建設中です。",
    "{section} is already built by {rr}.": "{section} はすでに {rr} が完成させています。",
    "{rr} has no line {n}.": "{rr} に路線 {n} はありません。",
    "{rr} line {n} must continue toward {city}.": "{rr} の路線 {n} は {city} 方面にしか延ばせません。",
    "{rr} already has {n} lines.": "{rr} はすでに路線が {n} 本あります。",
    "{rr} is not connected to {city}.": "{rr} は {city} に接続していません。",
    "There is no section from {a} to {b}.": "{a} と {b} を結ぶ区間はありません。",
    # ---- refusals: reading a move (city ids and railroad keys are notation)
    "Which city: {options}?": "どの都市ですか：{options}？",
    # what the player typed is quoted back as code
    "Unknown city {text}.": "`{text}` という都市はありません。",
    "Unknown railroad {text}; use one of {keys}.": "`{text}` という鉄道会社はありません。{keys} のいずれかを使ってください。",
    "Empty move.": "手が空です。",
    "Play one city card (or double).": "都市カードを 1 枚（または `double`）出してください。",
    "Cannot read {text}; moves look like `lay sf 1 wichita` or `play denver`.":
        "`{text}` を読み取れません。手は `lay sf 1 wichita` や `play denver` のように書きます。",
    "Say which {rr} line: {options}.": "どの {rr} の路線か指定してください：{options}。",
    "Say which {rr} line: {a1} or {a2}.": "どの {rr} の路線か指定してください：`{a1}` または `{a2}`。",
    "Say which {rr} line: {a1} or {a2} or {a3}.":
        "どの {rr} の路線か指定してください：`{a1}`、`{a2}`、`{a3}` のいずれか。",
    # ---- refusals: the rules
    "You need ${price} for an engineer; you have ${money}.": "技術者カードには ${price} 必要です（所持金 ${money}）。",
    "In round 1 you must play a city card.": "ラウンド 1 では都市カードを出さなければなりません。",
    "You have no double-turn card.": "ダブルターンカードを持っていません。",
    "You have no {city} card.": "{city} の都市カードを持っていません。",
    "You must play your branch card this round.": "このラウンドでは分岐カードを出さなければなりません。",
    "You hold no {rr} branch card.": "{rr} の分岐カードを持っていません。",
    "You have no {city} card to exchange.": "交換する {city} の都市カードを持っていません。",
    "The deck holds only {n} card.": "山札には {n} 枚しかありません。",
    "The deck holds only {n} cards.": "山札には {n} 枚しかありません。",
    "The deck holds only {cards}.": "山札には {cards}しかありません。",
    "{n} card": "{n} 枚",
    "{n} cards": "{n} 枚",
    "You must lay a tile while you can; passing is only allowed in the advanced game.":
        "置ける限り線路タイルを置かなければなりません。パスできるのはアドバンスゲームだけです。",
    "You have not played a {rr} branch card this round.": "このラウンドに {rr} の分岐カードを出していません。",
    "You have already used your branch card this round.": "このラウンドの分岐カードはもう使いました。",
    "You have no bought {rr} tile.": "購入した {rr} の線路タイルがありません。",
    "{rr} has no tiles left.": "{rr} の線路タイルは残っていません。",
    "You need ${cost} for this space; you have ${money}.": "このマスには ${cost} 必要です（所持金 ${money}）。",
    "Your hand is full.": "手札がいっぱいです。",
    "You may stop drawing only when a branch card is the only draw left.": (
        "引くのをやめられるのは、残る引き方が支線カードだけのときです。"
    ),
    "The deck is empty.": "山札が空です。",
    "The double-turn pile is empty.": "ダブルターンカードの山が空です。",
    "Engineers are only used in the advanced game.": "技術者カードはアドバンスゲームでのみ使います。",
    "You already have an engineer.": "すでに技術者カードを持っています。",
    "No engineer is left.": "技術者カードは残っていません。",
    "You already hold a branch card.": "すでに分岐カードを持っています。",
    "The {rr} branch pile is empty.": "{rr} の分岐カードは残っていません。",
    "You need ${price} for a branch card; you have ${money}.": "分岐カードには ${price} 必要です（所持金 ${money}）。",
    "You need ${price} to buy a tile; you have ${money}.": "線路タイルの購入には ${price} 必要です（所持金 ${money}）。",
    # ---- the contract's own refusals (rules/engine.py)
    "The game is over.": "ゲームは終了しています。",
    "No legal move.": "指せる手がありません。",
}

# "Which city: a or b or c?" for up to 10 cities sharing a prefix (nine start with "s"): one pattern
# per count, since a value-level "{a} or {b}" would rewrite every such line of every game.
for _count in range(2, 11):
    _keys = [f"{{a{i}}}" for i in range(1, _count + 1)]
    JA[f"Which city: {' or '.join(_keys)}?"] = f"どの都市ですか：{'、'.join(_keys)}？"

# The step a refusal names: one line per step (see PHASES_JA).
JA.update({
    f"That move is not allowed now (step: {english}).": f"今はその手は指せません（現在のステップ：{japanese}）。"
    for english, japanese in PHASES_JA.items()
})
JA["That move is not allowed now (step: {step})."] = "今はその手は指せません（現在のステップ：{step}）。"

# Lines the engine may end with " (automatic)" (a forced move it made for the seat): each comes without
# the tag, with it spelled out (the common case, no stray space in Japanese), and with "{tag}" (any other
# ending, and the samples tests take from the source).
_TAGGED: dict[str, str] = {
    "{who} passes.": "{who} がパスした。",
    "{who} has chosen.": "{who} が選び終えた。",
    "{who} exchanges no cards.": "{who} は手札を交換しなかった。",
    "{who} draws a city card.": "{who} が都市カードを引いた。",
    "{who} draws a double-turn card.": "{who} がダブルターンカードを引いた。",
    "{who} stops drawing this round.": "{who} はこのラウンド、カードを引くのをやめた。",
    "{who} pays ${price} for a {rr} branch card.": "{who} が ${price} を支払い {rr} の分岐カードを引いた。",
    "{who} takes an engineer; hand limit is now {n}.": "{who} が技術者カードを取った。手札の上限は {n} 枚になった。",
    "{who} buys nothing.": "{who} は線路タイルを購入しなかった。",
    "{who} buys a {rr} tile for ${price}.": "{who} が ${price} で {rr} の線路タイルを購入した。",
    "{who} lays {rr} {line} toward {city} ({section} {done}/{spaces}).":
        "{who} が {rr} の路線 {line} を {city} 方面へ延ばした（{section} {done}/{spaces}）。",
    "{who} lays {rr} {line} toward {city} ({section} {done}/{spaces}), pays ${cost}.":
        "{who} が {rr} の路線 {line} を {city} 方面へ延ばし（{section} {done}/{spaces}）、${cost} を支払った。",
    "{who} starts {rr} line {line} at {start} toward {city} ({section} {done}/{spaces}).":
        "{who} が {start} から {rr} の路線 {line} を分岐させ、{city} 方面へ延ばした（{section} {done}/{spaces}）。",
    "{who} starts {rr} line {line} at {start} toward {city} ({section} {done}/{spaces}), pays ${cost}.":
        "{who} が {start} から {rr} の路線 {line} を分岐させ、{city} 方面へ延ばし（{section} {done}/{spaces}）、"
        "${cost} を支払った。",
}
for _english, _japanese in _TAGGED.items():
    JA[_english] = _japanese
    JA[_english + " (automatic)"] = _japanese + "（自動）"
    JA[_english + "{tag}"] = _japanese + "{tag}"
# The tag is its own value; "(automatic)" too, for a catalog that keeps a value's leading space apart.
JA[" (automatic)"] = "（自動）"
JA["(automatic)"] = "（自動）"
