"""Japanese for this game's engine texts: event lines, refusal reasons, option descriptions, result words.

English (exactly as the engine writes it) -> Japanese; see rules.engine.Catalog for patterns.
Terms follow the Japanese rulebook (shared/seeds/002): 線路 (a track piece), 路線 (a line on the board),
一本線 / 二本線 (single / double line), 交差点 (junction), スタートマーカー, 路線網 (network),
色つき線路 and お邪魔ルール (the coloured-track variant). City names and move notation stay as they are.
"""

from __future__ import annotations

# The usage hint the parser appends to unreadable moves (rules.trans_europa.moves.USAGE).
_USAGE_JA = "`start <交差点>`、`lay <交差点> <交差点>`、`vex <交差点> <交差点>`、`end` のどれかで入力してください"


def _winners(count: int) -> tuple[str, str]:
    """(English, Japanese) for `count` winners named as the engine joins them: "{a} and {b} and {c}"."""
    slots = [f"{{w{i}}}" for i in range(count)]
    return " and ".join(slots), "、".join(slots)


def _low_seats(count: int) -> tuple[str, str]:
    """(English, Japanese) for the seats listed in Result.ended_by: "{s0} at -1, {s2} at 0"."""
    english = ", ".join(f"{{w{i}}} at {{p{i}}}" for i in range(count))
    japanese = "、".join(f"{{w{i}}} {{p{i}}} 点" for i in range(count))
    return english, japanese


JA: dict[str, str] = {
    # ---- round start and the deal
    "Round {round}: cities dealt; {who} starts.": "第 {round} ラウンド：都市カードを配った。スタートプレイヤーは {who}。",
    "Your cities in round {round}: {cities}.": "第 {round} ラウンドのあなたの都市：{cities}。",
    # ---- start markers
    "{who} places the start marker on {junction}.": "{who} がスタートマーカーを {junction} に置いた。",
    "All start markers are placed; {who} lays first.": "スタートマーカーが全員そろった。最初に線路を引くのは {who}。",
    # ---- laying tracks
    "{who} lays a track {line}; {n} black tracks left.": "{who} が {line} に線路を引いた（黒い線路 残り {n} 本）。",
    "{who} lays a double line {line}; {n} black tracks left.":
        "{who} が二本線の路線 {line} に線路を引いた（黒い線路 残り {n} 本）。",
    "{who} lays a coloured track {line}; {n} coloured left.":
        "{who} が {line} に色つき線路を引いた（色つき線路 残り {n} 本）。",
    "{who} has joined all five cities: {cities}.": "{who} が 5 つの都市をすべて結んだ：{cities}。",
    "The last black track is laid.": "最後の黒い線路が引かれた。",
    # ---- moves the engine makes for a seat
    "{who} cannot lay a second track; the turn ends.": "{who} は 2 本目の線路を引けない。手番終了。",
    "{who} cannot lay any track and passes.": "{who} は線路を 1 本も引けないのでパス。",
    "{who} has only one legal move: {move}.": "{who} に可能な手は `{move}` だけ。",
    # ---- round end and scoring
    "Round {round} ends.": "第 {round} ラウンド終了。",
    "{who}'s cities: {cities}.": "{who} の都市：{cities}。",
    "{who} needs 1 track: {sum}.": "{who} は線路があと 1 本必要：{sum}。",
    "{who} needs {p} tracks: {sum}.": "{who} は線路があと {p} 本必要：{sum}。",
    "The game is over: {who} wins with {score}.": "ゲーム終了：{who} が {score} 点で勝利。",
    # (several winners: entries per count below; this one reads the engine's source text)
    "The game is over: {who} win with {score}.": "ゲーム終了：{who} が {score} 点で勝利。",
    # ---- refusals (IllegalMove)
    "Unknown junction '{text}'.": "`{text}` という交差点はありません。",
    "Empty move; {usage}.": "手が空です。{usage}。",
    "Unknown move '{text}'; {usage}.": "`{text}` は読めない手です。{usage}。",
    "use start <junction>, lay <junction> <junction>, vex <junction> <junction> or end": _USAGE_JA,
    "{a} and {b} are not neighbours.": "{a} と {b} は隣り合っていません。",
    "The coloured-track variant is not in use.": "お邪魔ルール（色つき線路）は使っていません。",
    "All start markers are placed; lay a track.": "スタートマーカーはすべて置かれています。線路を引いてください。",
    "A start marker already stands on {junction}.": "{junction} にはすでにスタートマーカーがあります。",
    "Place your start marker first.": "先にスタートマーカーを置いてください。",
    "You must lay at least one track.": "少なくとも 1 本は線路を引かなければなりません。",
    "Lay a single line or end your turn.": "一本線の路線に線路を引くか、手番を終えてください。",
    "Unknown move.": "不明な手です。",
    "There is no such junction.": "その交差点はありません。",
    "There is no such line.": "その路線はありません。",
    "{line} already has a track.": "{line} にはすでに線路があります。",
    "A double line needs a whole turn; you have already laid a track.":
        "二本線の路線には手番をまるごと使います。この手番ではすでに線路を引いています。",
    "That line does not touch your network.": "その路線はあなたの路線網につながっていません。",
    "No black tracks are left.": "黒い線路はもう残っていません。",
    "You have no coloured tracks left.": "色つき線路はもう残っていません。",
    "{junction} already has 2 coloured tracks.": "{junction} にはすでに色つき線路が 2 本あります。",
    "That coloured track would cut {city} off from {who}'s start marker.":
        "その色つき線路を引くと、{city} が {who} のスタートマーカーから切り離されてしまいます。",
    # ---- table options (Option.description)
    "Coloured-track variant: 3 blocking tracks of your own colour.":
        "お邪魔ルール：各自が自分専用の色つき線路を 3 本使える（他のプレイヤーは使えない）。",
    "Coloured tracks: 3 for the whole game or 3 every round.":
        "色つき線路：ゲーム全体で 3 本（`game`）か、ラウンドごとに 3 本（`round`）か。",
    "Starting points (shorter or longer game).": "開始時の得点（ゲームの長さが変わる）。",
    "Start seat of round 1: random or seat 0.":
        "第 1 ラウンドのスタートプレイヤー：ランダム（`random`）か最初の席（`seat0`）か。",
    "Show each player privately how many tracks they still need.":
        "あと何本の線路が必要かを各プレイヤーにだけ表示する。",
    # ---- result: breakdown categories, detail keys, how the game ended
    "start score": "開始時の得点",
    "round {round}": "第 {round} ラウンド",
    "penalties": "各ラウンドの失点",
    "points lost per round": "各ラウンドの失点",
}

# Several winners (a shared first place) and several seats at 0 or below: one entry per count, so
# that no bare "{a} and {b}" pattern enters the catalog every game shares.
for _count in range(2, 7):
    _english, _japanese = _winners(_count)
    JA[f"The game is over: {_english} win with {{score}}."] = f"ゲーム終了：{_japanese} が {{score}} 点で勝利。"
for _count in range(1, 7):
    _english, _japanese = _low_seats(_count)
    JA[f"After round {{round}}: {_english} points."] = f"第 {{round}} ラウンド終了時：{_japanese}。"
    JA[f"Round {{round}}: {_english}"] = f"第 {{round}} ラウンド：{_japanese}"  # results stored before the wording
