"""Japanese for this game's engine texts: event lines, refusal reasons, option descriptions, result words.

English (exactly as the engine writes it) -> Japanese; see rules.engine.Catalog for patterns.
Terms follow the Japanese rules explanation in shared/seeds/003 (トロッコ, 線路タイル, 裂け目トークン,
鉱石堆積カード, 崩壊カード, 脱線, 衝突...). Move notation (`lay e5 ns`, `claim red-leader`, edges such as
`nesw`) is put in backticks in Japanese: it is what /play reads, and the images drop the backticks.

The bot merges every game's catalog into one, so bare words are kept few (gems, colours, carts) and
most lines are whole patterns whose literal text is specific to this game.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from rules.off_the_rails import board, scoring
from rules.off_the_rails.moves import USAGE

GEM_JA: dict[str, str] = {
    "rock": "岩",
    "ruby": "ルビー",
    "emerald": "エメラルド",
    "gold": "黄金",
    "diamond": "ダイヤモンド",
}
COLOUR_JA: dict[str, str] = {"red": "赤", "yellow": "黄", "blue": "青", "green": "緑"}
CART_JA: dict[str, str] = {"white": "白", "black": "黒"}
EDGE_JA: dict[str, str] = {"n": "北", "e": "東", "s": "南", "w": "西"}
GEMS_LISTED = 10  # gem lists up to this many gems have an entry (see _gem_lists)

# Mission names as the seed translates them; the id (the `claim` notation) stays beside them.
MISSION_NAME_JA: dict[str, str] = {
    "RED LEADER!": "赤いリーダーだ!",
    "GREEN FINGERS!": "緑の指だ!",
    "THERE'S GOLD IN THEM THAR HILLS!": "丘の上の金!",
    "DIAMONDS AREN'T FOREVER": "ダイヤモンドは永遠ではない",
    "GEM COLLECTOR!": "宝石コレクター!",
    "BEHIND ENEMY LINES!": "敵の陣の背後だ!",
    "JEWEL HEIST!": "宝石強盗だ!",
    "BUMPER CARTS!": "バンパー付きのトロッコ!",
    "HEAD TO HEAD!": "直接対決だ!",
    "THE SPICE OF LIFE!": "人生のスパイスだ!",
    "DIRTY GOBLINS!": "汚いゴブリン達だ!",
}
MISSION_CONDITION_JA: dict[str, str] = {
    "one delivered load has at least 4 rubies": "1 台のトロッコでルビーを 4 個以上持ち帰る",
    "one delivered load has at least 2 emeralds": "1 台のトロッコでエメラルドを 2 個以上持ち帰る",
    "one delivered load has at least 2 gold": "1 台のトロッコで黄金を 2 個以上持ち帰る",
    "one delivered load has at least 1 diamond": "1 台のトロッコでダイヤモンドを 1 個以上持ち帰る",
    "one delivered load is 5 gems, none of them a rock": "1 台のトロッコで岩以外の宝石を 5 個持ち帰る",
    "a load of at least 1 gem delivered at a start square whose colour belongs to another seated player":
        "他のプレイヤーの色のスタート位置に宝石を 1 個以上持ち帰る",
    "your moving cart hits another player's cart and at least 1 of its gems is dropped":
        "自分のトロッコが他のプレイヤーのトロッコに衝突し、宝石を 1 個以上落とさせる",
    "your moving cart hits another player's cart and that cart derails":
        "自分のトロッコが他のプレイヤーのトロッコに衝突し、脱線させる",
    "your moving cart has a head-on collision with another player's cart":
        "自分のトロッコが他のプレイヤーのトロッコと正面衝突する",
    "when your movement phase ends your stockpile holds at least 1 rock, ruby, emerald, gold and diamond":
        "移動フェーズの終わりに、手元に岩・ルビー・エメラルド・黄金・ダイヤモンドが 1 個以上ずつある",
    "most rocks in stockpile (at least 1); all tied players score it":
        "手元の岩が最も多い（1 個以上）。同数なら全員が得点する",
}

USAGE_JA = (
    "使い方：`lay SQ EDGES`、`upgrade SQ EDGES`、`cart white|black SQ`、`speed white|black up|down`、"
    "`undo`、`end`、`run white|black`、`go n|e|s|w`、`take GEM`、`split GEM...`、`pick left|right`、"
    "`claim MISSION`、`rift SQ`"
)

# Why a cart derails (the middle of the derail line), with its Japanese.
_DERAIL: dict[str, str] = {
    "runs off the track": "が盤の外に飛び出して",
    "hits the mine at {target}": "が {target} の鉱山にぶつかって",
    "hits the side of start square {target}": "がスタート位置 {target} の側面にぶつかって",
    "finds no track into {target}": "は {target} へ進む線路がなく",
    "finds no track from {via} on {target}": "は {target} の線路が {via} 側につながっておらず",
    "is knocked off the rails": "がはじき飛ばされて",
}
_COLLISION: dict[str, str] = {"head-on": "正面衝突", "rear": "後ろから衝突", "side": "横から衝突"}


def _gem_lists() -> dict[str, str]:
    """Every way the engine lists gems, as exact entries (a list of any length has no safe pattern: a
    placeholder matches any text, so "{n} gold" would also swallow other lines that end in "gold").

    - counted, as `gems_text` writes them ("1 ruby, 2 gold"): every set of up to GEMS_LISTED gems; a
      cart holds 5, a deposit 3, a dropped hand 3, so only a square hit by many collisions has more;
    - one word per gem, as the split hands and a cart's load ("ruby, ruby, gold"): every load of a cart;
    - the kinds to choose from when taking a gem ("ruby | gold").
    """
    out: dict[str, str] = {}
    kinds = board.GEM_KINDS
    for size in range(1, GEMS_LISTED + 1):
        for gems in combinations_with_replacement(kinds, size):
            counts = {k: gems.count(k) for k in kinds if k in gems}
            out[", ".join(f"{n} {k}" for k, n in counts.items())] = "、".join(
                f"{GEM_JA[k]} {n} 個" for k, n in counts.items())
            if size <= board.CAPACITY:
                out[", ".join(gems)] = "、".join(GEM_JA[k] for k in gems)
    for size in range(2, len(kinds) + 1):
        for subset in combinations(kinds, size):
            out[" | ".join(subset)] = " | ".join(GEM_JA[k] for k in subset)
    return out


def _cards() -> dict[str, str]:
    """Deposit card ids ("red-3": red mine, square 3) as the players read them ("赤3")."""
    return {card: f"{COLOUR_JA[info['colour']]}{info['number']}" for card, info in board.CARDS.items()}


def _cart_lines() -> dict[str, str]:
    """Lines about one cart: "{s0}'s white cart" is captured as {cart}, then read by its own entry."""
    out: dict[str, str] = {}
    for name, colour in CART_JA.items():
        out[f"{{who}}'s {name} cart"] = f"{{who}} の{colour}トロッコ"
    for why, japanese in _DERAIL.items():
        out[f"{{cart}} {why} and derails; {{gems}} back to the bag."] = (
            f"{{cart}}{japanese}脱線した。{{gems}}はバッグに戻った。")
        out[f"{{cart}} {why} and derails; nothing back to the bag."] = f"{{cart}}{japanese}脱線した。"
    for kind, japanese in _COLLISION.items():
        out[f"{{mover}} hits {{hit}} on {{square}} ({kind}); the {{cart}} cart reverses on {{back}}."] = (
            f"{{mover}}が {{square}} で {{hit}}に{japanese}した。{{cart}}トロッコは {{back}} で向きが逆になった。")
    for edge, japanese in EDGE_JA.items():
        out[f"{{cart}} turns {edge} on {{square}}."] = f"{{cart}}が {{square}} で{japanese}（{edge}）へ進んだ。"
    for side, japanese in (("left", "左手"), ("right", "右手")):
        out[f"{{who}} picks the {side} hand: {{cart}} drops {{gems}} on {{square}}."] = (
            f"{{who}} が{japanese}を選んだ：{{cart}}が {{square}} に{{gems}}を落とした。")
    for kind, japanese in (("straight", "直線"), ("curve", "曲線")):
        out[f"{{who}} lays {kind} {{edges}} on {{square}}."] = f"{{who}} が {{square}} に{japanese}タイル `{{edges}}` を置いた。"
    return out


def _result_lines() -> dict[str, str]:
    """The bot's end-of-game lines built from the result: the breakdown after a seat's score
    ("20 (rock 0, ruby 1, ...)"), one category per line in the final report ("ruby_majority: 5"), and the
    details it reveals ("Ann: colour red; missions none; gems rock: 1; ...; carts_in_reserve 2")."""
    out: dict[str, str] = {}
    parts = ", ".join(f"{c} {{{c}}}" for c in scoring.CATEGORIES)
    out[f"{{score}} ({parts})"] = "{score}（" + "、".join(f"{CATEGORY_JA[c]} {{{c}}}" for c in scoring.CATEGORIES) + "）"
    # the same in the player's words (scoring.RESULT_LABELS), as the bot writes them now
    words = ", ".join(f"{scoring.RESULT_LABELS.get(c, c)} {{{c}}}" for c in scoring.CATEGORIES)
    out[f"{{score}} ({words})"] = out[f"{{score}} ({parts})"]
    for category in scoring.CATEGORIES:
        out[f"{category}: {{n}}"] = f"{CATEGORY_JA[category]}：{{n}}"
        out[f"{scoring.RESULT_LABELS.get(category, category)}: {{n}}"] = f"{CATEGORY_JA[category]}：{{n}}"
    gems_english = "; ".join(f"{k}: {{{k}}}" for k in board.GEM_KINDS)
    gems_japanese = "・".join(f"{GEM_JA[k]} {{{k}}}" for k in board.GEM_KINDS)
    out[gems_english] = gems_japanese
    # a gems detail as the bot writes it in words ("rock 0, ruby 1, ..."), and a seat's revealed line
    gems_inline = ", ".join(f"{k} {{{k}}}" for k in board.GEM_KINDS)
    out[gems_inline] = "、".join(f"{GEM_JA[k]} {{{k}}}" for k in board.GEM_KINDS)
    out[f"{{who}}: colour: {{colour}}; missions: {{missions}}; gems: {gems_inline}; carts in reserve: {{carts}}"] = (
        f"{{who}}：色 {{colour}}、ミッション {{missions}}、宝石 {out[gems_inline]}、手元のトロッコ {{carts}}")
    out[f"{{who}}: colour {{colour}}; missions {{missions}}; gems {gems_english}; carts_in_reserve {{carts}}"] = (
        f"{{who}}：色 {{colour}}、ミッション {{missions}}、宝石 {gems_japanese}、手元のトロッコ {{carts}}")
    return out


CATEGORY_JA: dict[str, str] = {
    **GEM_JA,
    "ruby_majority": "ルビー最多ボーナス",
    "missions": "ミッション",
    "dirty_goblins": "汚いゴブリン達だ!",
    "carts": "手元のトロッコ",
}

JA: dict[str, str] = {
    "Off the Rails": "オフ・ザ・レールズ",
    # ---- words that appear as values inside lines, result categories and detail keys
    **GEM_JA,
    **COLOUR_JA,
    **CART_JA,
    "nothing": "なし",
    # "missions" is also an option's key: /rules shows it in backticks, which Catalog never translates
    **CATEGORY_JA,
    "missions (revealed): {value}": "ミッション（公開）：{value}",
    **_result_lines(),
    "colour": "色",
    "gems": "宝石",
    "carts_in_reserve": "手元のトロッコ",
    # the same keys in the player's words (scoring.RESULT_LABELS), as the bot shows them
    "ruby majority bonus": "ルビー最多ボーナス",
    "Dirty Goblins bonus": "汚いゴブリン達だ!",
    "carts in reserve": "手元のトロッコ",
    "The game ended: no cart is left on the board.": "終了：盤上にトロッコが残っていない。",
    "The game ended: the rift supply is empty.": "終了：裂け目トークンがすべて置かれた。",
    "the rift supply is empty": "裂け目トークンがすべて置かれた",
    "no cart is left on the board": "盤上にトロッコが残っていない",
    **MISSION_NAME_JA,
    **MISSION_CONDITION_JA,
    **_gem_lists(),
    **_cards(),
    **_cart_lines(),
    "1 gem": "1 個",
    "{n} gems": "{n} 個",
    # ---- option descriptions
    "deposit deck size incl. the collapse card (auto: 13/17/21/25 for 1/2/3/4 players)":
        "鉱石堆積カードの山札の枚数、崩壊カードを含む（`auto`：1/2/3/4 人で 13/17/21/25 枚）",
    "collisions stop and reverse carts but never derail them or drop gems":
        "バンパー付きのトロッコ：衝突したトロッコは止まって向きを変えるが、脱線も宝石を落とすこともない",
    "chasm tokens go on a d8-rolled mine square instead of a chosen one":
        "裂け目ダイス：裂け目トークンは選んだマスではなく、8 面ダイスで決まる鉱山のマスに置かれる",
    "play with the mission cards": "ミッションカードを使う",
    "the engine splits a hit cart's gems (no out-of-turn waits)":
        "衝突されたトロッコの宝石を自動で 2 つの手に分ける（手番外の待ちがなくなる）",
    # ---- events: the action phase
    "{who} ends the action phase after {n} action(s).": "{who} がアクションフェーズを終えた（{n} アクション）。",
    "{who} ends the action phase after {n} actions.": "{who} がアクションフェーズを終えた（{n} アクション）。",
    "{who} ends the action phase after {n} action.": "{who} がアクションフェーズを終えた（{n} アクション）。",
    # the source's shape (the count and its noun come from rules.engine.plural): kept for the source scan
    "{who} ends the action phase after {actions}.": "{who} がアクションフェーズを終えた（{actions}）。",
    "{n} action": "{n} アクション",
    "{n} actions": "{n} アクション",
    "{who} undoes the last action.": "{who} が直前のアクションを取り消した。",
    "{who} lays {kind} {edges} on {square}.": "{who} が {square} に{kind}タイル `{edges}` を置いた。",
    "{who} upgrades {square} from {old} to {edges}.": "{who} が {square} の線路を `{old}` から `{edges}` に改良した。",
    "{who} puts the {cart} cart on {square}.": "{who} が{cart}トロッコを {square} に置いた。",
    "{who} sets the {cart} cart's speed to {n}.": "{who} が{cart}トロッコのスピードを {n} にした。",
    # ---- events: movement
    "{cart} runs from {square} at speed {n}.": "{cart}が {square} からスピード {n} で走り出した。",
    "{cart} stops on {square}.": "{cart}が {square} で止まった。",
    "{cart} picks up 1 {kind} on {square}.": "{cart}が {square} で{kind}を 1 個拾った。",
    "{cart} {why} and derails; {gems} back to the bag.": "{cart}が脱線した（{why}）。{gems}はバッグに戻った。",
    "{cart} falls into the rift at {square} with {gems}.": "{cart}が {square} の裂け目に落ち、{gems}とともに失われた。",
    "{cart} falls into the rift at {square} with nothing.": "{cart}が {square} の裂け目に落ちて失われた。",
    "{cart} delivers {gems} at {square}.": "{cart}が {square} に{gems}を持ち帰った。",
    "{cart} delivers nothing at {square}.": "{cart}が {square} に戻った（宝石なし）。",
    "{mover} hits {hit} on {square} ({kind}); the {cart} cart reverses on {back}.":
        "{mover}が {square} で {hit}に衝突した（{kind}）。{cart}トロッコは {back} で向きが逆になった。",
    "{cart} drops {gems} on {square}.": "{cart}が {square} に{gems}を落とした。",
    "{who} splits the {cart} cart's {n} gems: left {left} | right {right}.":
        "{who} が{cart}トロッコの宝石 {n} 個を分けた：左手 {left} 個 | 右手 {right} 個。",
    "Your split: left {left} | right {right}.": "あなたの分け方：左手 {left} | 右手 {right}。",
    "{who} picks the {side} hand: {cart} drops {gems} on {square}.":
        "{who} が{side}の手を選んだ：{cart}が {square} に{gems}を落とした。",
    "{who} claims {name} ({mission}, {n} points).": "{who} がミッション「{name}」（`{mission}`、{n} 点）を獲得した。",
    "{cart} turns {edge} on {square}.": "{cart}が {square} で {edge} へ進んだ。",
    # ---- events: deposit phase, collapse and chasm, end
    "{who} draws the COLLAPSE card: the chasm opens at {holder}'s next turn.":
        "{who} が崩壊カードを引いた：{holder} の次の手番で鉱山の崩壊が始まる。",
    "The deposit deck is empty.": "鉱石堆積カードの山札が尽きた。",
    "Deposit {card}: {gems} on {square}.": "鉱石堆積カード {card}：{square} に{gems}。",
    "The chasm opens!": "鉱山の崩壊が始まった！",
    "{who} draws a {colour} rift token.": "{who} が{colour}の裂け目トークンを引いた。",
    "The rift die shows {n}.": "裂け目ダイスの目は {n}。",
    "No square can take the {colour} rift: the token is discarded.":
        "{colour}の裂け目トークンを置けるマスがない：トークンは捨てられた。",
    "A {colour} rift opens on {square}.": "{square} に{colour}の裂け目ができた。",
    "A {colour} rift opens on {square}, swallowing {gems}.": "{square} に{colour}の裂け目ができ、{gems}が飲み込まれた。",
    "A {colour} rift opens on {square}, swallowing track {edges}.":
        "{square} に{colour}の裂け目ができ、線路 `{edges}` が飲み込まれた。",
    "A {colour} rift opens on {square}, swallowing track {edges} and {gems}.":
        "{square} に{colour}の裂け目ができ、線路 `{edges}` と{gems}が飲み込まれた。",
    "{cart} is still on the board and is lost with {gems}.": "{cart}は盤上に残っていたため、{gems}とともに失われた。",
    "{cart} is still on the board and is lost with nothing.": "{cart}は盤上に残っていたため失われた。",
    "Game over: {reason}.": "ゲーム終了：{reason}。",
    "Turn {n}: {who} to act.": "手番 {n}：{who} の番。",
    # ---- the pending decision (shown on the image and in refusals)
    "{who}: up to {n} more action(s), then end": "{who}：あと {n} アクションまで、その後アクション終了（`end`）",
    "{who}: up to {n} more actions, then end": "{who}：あと {n} アクションまで、その後アクション終了（`end`）",
    "{who}: up to {n} more action, then end": "{who}：あと {n} アクションまで、その後アクション終了（`end`）",
    "{who}: choose which cart runs first ({options})": "{who}：先に走らせるトロッコを選ぶ（{options}）",
    "run white | run black": "`run white` | `run black`",
    "{who}: choose a gem on {square} ({options})": "{who}：{square} で拾う宝石を選ぶ（{options}）",
    "{who}: choose direction at {square} ({options})": "{who}：{square} で進む方向を選ぶ（{options}）",
    "{who}: split {n} gems of the {cart} cart": "{who}：{cart}トロッコの宝石 {n} 個を左手と右手に分ける",
    "{who}: pick left ({left}) or right ({right})": "{who}：左手（{left}）か右手（{right}）を選ぶ",
    "{who}: claim one mission ({options})": "{who}：獲得するミッションを 1 つ選ぶ（`{options}`）",
    "{who}: place the {colour} rift ({options})": "{who}：{colour}の裂け目トークンを置くマスを選ぶ（{options}）",
    # ---- refusals: reading a move
    "{token} is not a square (a1 to n14)": "`{token}` はマスではありません（a1〜n14）",
    "{token} is not a cart (white or black)": "`{token}` はトロッコではありません（`white` か `black`）",
    "{token} is not a set of edges (n, e, s, w)": "`{token}` は辺の組ではありません（n、e、s、w）",
    f"{{token}} is not a gem ({', '.join(board.GEM_KINDS)})":
        "`{token}` は宝石ではありません（" + "、".join(f"`{k}`" for k in board.GEM_KINDS) + "）",
    "{token} is not a gem ({kinds})": "`{token}` は宝石ではありません（{kinds}）",
    "Empty move; " + USAGE: "手が空です。" + USAGE_JA,
    "{verb} takes {count} word(s) after it; " + USAGE: "`{verb}` の後には {count} 語を続けます。" + USAGE_JA,
    "{verb} takes 0 word(s) after it; " + USAGE: "`{verb}` の後には何も続けません。" + USAGE_JA,
    "Unknown move {word}; " + USAGE: "不明な手 `{word}`。" + USAGE_JA,
    "speed goes up or down": "スピードは `up` か `down` で指定します",
    "go needs one edge: n, e, s or w": "`go` には辺を 1 つ指定します：n、e、s、w",
    "split lists the gems of the left hand": "`split` には左手に持つ宝石を並べます",
    "pick left or pick right": "`pick left` か `pick right` です",
    "{mission} is not a mission": "`{mission}` はミッションではありません",
    # ---- refusals: the rules
    "it is the action phase: {verb} is not an action (play actions or end)":
        "今はアクションフェーズです：`{verb}` はアクションではありません（アクションを行うか `end`）",
    "the action phase is over; the pending decision is {decision}":
        "アクションフェーズは終わりました。今必要な決定：{decision}",
    "the pending decision is {decision}": "今必要な決定：{decision}",
    "there is no action to undo this turn": "この手番に取り消せるアクションはありません",
    "{n} actions used": "{n} アクションを使い切りました",
    "{square} already has track": "{square} にはすでに線路があります",
    "lay takes a straight or a curve (ns ew ne es sw nw); use upgrade for T and cross":
        "`lay` で置けるのは直線か曲線（`ns` `ew` `ne` `es` `sw` `nw`）です。T字と十字は `upgrade` を使います",
    "no straight tiles left": "直線タイルが残っていません",
    "no curve tiles left": "曲線タイルが残っていません",
    "no T tiles left": "T字タイルが残っていません",
    "no cross tiles left": "十字タイルが残っていません",
    "no {kind} tiles left": "{kind}タイルが残っていません",
    "{square} has no track to upgrade": "{square} には改良する線路がありません",
    "upgrade takes a T (nes new nsw esw) or a cross (nesw)":
        "`upgrade` で置けるのは T字（`nes` `new` `nsw` `esw`）か十字（`nesw`）です",
    "only a T can be upgraded to a cross": "十字に改良できるのは T字だけです",
    "a T can only be upgraded to a cross (nesw)": "T字は十字（`nesw`）にしか改良できません",
    "{square} already has a cross": "{square} はすでに十字です",
    "a T must keep the existing track {old}": "T字はもとの線路 `{old}` と同じ向きでなければなりません",
    "a cart is on {square}": "{square} にはトロッコがあります",
    "{cart} is not in your reserve": "{cart}トロッコは手元にありません",
    "{square} is not one of your ({colour}) start squares": "{square} はあなた（{colour}）のスタート位置ではありません",
    "{cart} is not on the board": "{cart}トロッコは盤上にありません",
    "speed is already {n}": "スピードはすでに {n} です",
    "{square} is a mine centre": "{square} は鉱山マスです",
    "{square} is a start square": "{square} はスタート位置です",
    "{square} is a rift": "{square} は裂け目です",
    "{cart} has already run": "{cart}トロッコはもう走りました",
    "no {kind} on {square}": "{square} に{kind}はありません",
    "the cart came in by {edge}": "トロッコは {edge} から入ってきました",
    "the track on {square} has no exit {edge}": "{square} の線路には {edge} への出口がありません",
    "the left hand must be {n} gems from the cart ({gems})": "左手にはトロッコの宝石から {n} 個を選びます（{gems}）",
    "{mission} was not achieved this turn": "`{mission}` はこの手番に達成していません",
    "{square} is not next to a {colour} rift": "{square} は{colour}の裂け目に隣接していません",
}
