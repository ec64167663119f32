"""Japanese for this game's engine texts: event lines, refusal reasons, option descriptions, result words.

English (exactly as the engine writes it) -> Japanese; see rules.engine.Catalog for patterns.
Terms follow the Japanese rules translation (shared/seeds/000): 電車カード, 機関車, 目的地カード,
レールヤード, トラックスタック, 山札, 捨て札, ビッグシティ, 電車強奪. Event lines are plain past
("{who} が…した。"), refusals polite like the bot's own replies. Move notation in backticks, city
names and seat tokens stay as they are.
"""

from __future__ import annotations

from itertools import combinations

from rules.ttr_cards.cards import CARDS_PER_COLOUR, COLOURS, KINDS, LOCO, LOCOMOTIVES

# The card words: engine values ("red", "loco"), image labels and the lists below all use these.
KIND_JA: dict[str, str] = {
    "black": "黒",
    "blue": "青",
    "green": "緑",
    "orange": "オレンジ",
    "purple": "紫",
    "red": "赤",
    "white": "白",
    "yellow": "黄",
    "loco": "機関車",
}


def card_lists() -> dict[str, str]:
    """Card counts as `cards.describe` writes them ("blue 2, loco 1", kinds in canonical order): one
    pattern per set of kinds present (511), so a whole list translates in one step whatever its length
    (a chain of "{first}, {rest}" patterns would run past the catalog's recursion limit)."""
    entries = {}
    for size in range(1, len(KINDS) + 1):
        for kinds in combinations(KINDS, size):
            english = ", ".join(f"{kind} {{{kind}}}" for kind in kinds)
            entries[english] = "、".join(f"{KIND_JA[kind]} {{{kind}}}" for kind in kinds)
    return entries


def yard_sets() -> dict[str, str]:
    """The cards of a yard play as the event writes them ("red red loco", colours then locomotives):
    every possible set, exactly (a space-separated list has no literal text a pattern could anchor on)."""
    entries = {}
    for colour in COLOURS:
        for coloured in range(1, CARDS_PER_COLOUR + 1):
            for locos in range(LOCOMOTIVES + 1):
                if coloured + locos < 2:
                    continue
                english = " ".join([colour] * coloured + [LOCO] * locos)
                japanese = f"{KIND_JA[colour]} {coloured} 枚" + (f"＋機関車 {locos} 枚" if locos else "")
                entries[english] = japanese
    for trio in combinations(COLOURS, 3):
        entries[" ".join(trio)] = "・".join(KIND_JA[colour] for colour in trio) + " 各 1 枚"
    return entries


def _seat_lists(english_head: str, japanese_head: str) -> dict[str, str]:
    """"{head}{s0}: ...; {s1}: ...." for 2 to 4 seats, each seat's part translated on its own."""
    entries = {}
    for seats in range(2, 5):
        names = "abcd"[:seats]
        english = "; ".join(f"{{{n}}}: {{{n}_part}}" for n in names)
        japanese = "／".join(f"{{{n}}}：{{{n}_part}}" for n in names)
        entries[f"{english_head}{english}."] = f"{japanese_head}{japanese}。"
    return entries


def seat_lists(english: str, japanese: str) -> dict[str, str]:
    """`english` with its "{who}" as a list of 2 to 4 seats ("{s0}, {s2}"), joined with "、" in Japanese."""
    entries = {}
    for count in range(2, 5):
        names = [f"w{i}" for i in range(count)]
        entries[english.replace("{who}", ", ".join(f"{{{n}}}" for n in names))] = japanese.replace(
            "{who}", "、".join(f"{{{n}}}" for n in names)
        )
    return entries


# Lines that name several seats: the one-placeholder form (one seat), and 2 to 4 seats joined with "、".
_SEAT_LINES = {
    "Everyone has chosen. Tickets kept: {who}.": "全員が選び終えた。残した目的地カードの枚数：{who}。",
    "Final round: {who} play one more turn each.": "最終ターン：{who} の順にもう 1 手番ずつ行う。",
    "The new deck is empty. Final round: {who}.": "新しい山札は空。最終ターン：{who}。",
    "Choosing completed tickets: {who}.": "達成する目的地カードを選択中：{who}。",
    "{city} bonus ({value}): {who}.": "{city} のビッグシティボーナス（{value} 点）：{who}。",
    "Game over: {who}.": "ゲーム終了：{who}。",  # the standings: "1. {s0} 34, 2. {s1} 20"
}

JA: dict[str, str] = {
    **_SEAT_LINES,
    **{k: v for english, japanese in _SEAT_LINES.items() for k, v in seat_lists(english, japanese).items()},
    # ---- words that appear as values inside lines
    **KIND_JA,
    "nothing": "なし",
    "none": "なし",
    "Intermediate": "中間",
    "Final": "最終",
    "1 card": "1 枚",
    "{n} cards": "{n} 枚",
    "1 ticket": "1 枚",
    "{n} tickets": "{n} 枚",
    # the card names a move may use: notation, so they stay as typed
    ", ".join(KINDS): "、".join(f"`{kind}`" for kind in KINDS),
    **card_lists(),
    **yard_sets(),
    # ---- options
    "Beginners: the track stacks are face up for everyone": "初心者向け：トラックスタックを全員に公開します",
    "auto: the engine completes the best tickets; choose: players pick them at each scoring": (
        "`auto`：最も良い目的地カードの組み合わせを自動で達成します。`choose`：得点計算のたびにプレイヤーが選びます"
    ),
    # ---- result: breakdown categories, detail keys, how the game ended
    "tickets_deck1": "1 回目の得点計算",
    "tickets_final": "達成した目的地カード",
    "tickets_failed": "未達成の目的地カード",
    "big_cities": "ビッグシティボーナス",
    "big_city_cards": "ビッグシティボーナスカード",
    "completed": "達成した目的地カード数",
    "completed_ids": "達成した目的地カード",
    "failed_ids": "未達成の目的地カード",
    "deck": "電車カードの山札が尽きて終了",
    # the same keys in the player's words (scoring.RESULT_LABELS), as the bot shows them
    "points for tickets at the first scoring": "1 回目の得点計算の目的地カードの得点",
    "points for completed tickets": "達成した目的地カードの得点",
    "points lost for failed tickets": "未達成の目的地カードの失点",
    "number of tickets completed": "達成した目的地カードの枚数",
    "Big City bonuses": "ビッグシティボーナス",
    "Big City bonus cards": "ビッグシティボーナスカード",
    "completed ticket numbers": "達成した目的地カードの番号",
    "failed ticket numbers": "未達成の目的地カードの番号",
    "The game ended: the train deck ran out and everyone had a last turn.":
        "終了：電車カードの山札が尽き、全員が最後の手番を終えた。",
    # the end-of-game file (bot.texts.final_report): "tickets_deck1: 58" under each seat
    "tickets_deck1: {n}": "1 回目の得点計算：{n}",
    "tickets_final: {n}": "達成した目的地カード：{n}",
    "tickets_failed: {n}": "未達成の目的地カード：{n}",
    "big_cities: {n}": "ビッグシティボーナス：{n}",
    # the same in the player's words (the engine's RESULT_LABELS), as the bot now writes them
    "points for tickets at the first scoring: {n}": "1 回目の得点計算：{n}",
    "points for completed tickets: {n}": "達成した目的地カード：{n}",
    "points lost for failed tickets: {n}": "未達成の目的地カード：{n}",
    "Big City bonuses: {n}": "ビッグシティボーナス：{n}",
    "{rank}. {who}: {score} (points for tickets at the first scoring {deck1}, points for completed tickets {final}, "
    "points lost for failed tickets {failed}, Big City bonuses {cities})": (
        "{rank}. {who}：{score} 点（1 回目の得点計算 {deck1}、達成 {final}、未達成 {failed}、ビッグシティ {cities}）"
    ),
    "{who}: Big City bonus cards: {cards}; number of tickets completed: {n}; completed ticket numbers: {ids}; "
    "failed ticket numbers: {failed}": (
        "{who}：ビッグシティボーナスカード {cards}／達成 {n} 枚：{ids}／未達成：{failed}"
    ),
    "{who}: Big City bonus cards: {cards}; number of tickets completed: {n}; completed ticket numbers: {ids}": (
        "{who}：ビッグシティボーナスカード {cards}／達成 {n} 枚：{ids}"
    ),
    # the bot's end-of-game lines: standings with the breakdown (bot.tables.result_lines) and what each
    # seat's details reveal (bot.texts.revealed_lines, clipped when long: then the last values are cut)
    "{rank}. {who}: {score} (tickets_deck1 {deck1}, tickets_final {final}, tickets_failed {failed}, "
    "big_cities {cities})": (
        "{rank}. {who}：{score} 点（1 回目の得点計算 {deck1}、達成 {final}、未達成 {failed}、ビッグシティ {cities}）"
    ),
    "{who}: big_city_cards {cards}; completed {n}; completed_ids {ids}; failed_ids {failed}": (
        "{who}：ビッグシティボーナスカード {cards}／達成 {n} 枚：{ids}／未達成：{failed}"
    ),
    "{who}: big_city_cards {cards}; completed {n}; completed_ids {ids}": (
        "{who}：ビッグシティボーナスカード {cards}／達成 {n} 枚：{ids}"
    ),
    # ---- setup
    "Each player holds 1 Locomotive and 7 cards. Display: {a}, {b}, {c}, {d}, {e}. "
    "Everyone keeps 1 to 6 of their 6 tickets (simultaneously): `keep ID ID ...`.": (
        "各プレイヤーの手札は機関車カード 1 枚と電車カード 7 枚。表向きのカード：{a}、{b}、{c}、{d}、{e}。"
        "全員が同時に、目的地カード 6 枚のうち 1〜6 枚を残します：`keep ID ID ...`。"
    ),
    "Each player holds 1 Locomotive and 7 cards. Display: {display}. "
    "Everyone keeps 1 to 6 of their 6 tickets (simultaneously): `keep ID ID ...`.": (
        "各プレイヤーの手札は機関車カード 1 枚と電車カード 7 枚。表向きのカード：{display}。"
        "全員が同時に、目的地カード 6 枚のうち 1〜6 枚を残します：`keep ID ID ...`。"
    ),
    "Your cards: {cards}. Your tickets to choose from: {ids}.": (
        "あなたの電車カード：{cards}。選べる目的地カード：{ids}。"
    ),
    "{who} has chosen their tickets.": "{who} が目的地カードを選んだ。",
    "You keep tickets {ids}.": "あなたが残した目的地カード：{ids}。",
    # ---- a turn
    "{who} moves {cards} to the track stack (now {total}).": (
        "{who} がトラックスタックにカードを {cards}移した（計 {total} 枚）。"
    ),
    "{who} moves {cards} to the track stack (now {total}): {moved}.": (
        "{who} がトラックスタックにカードを {cards}移した（計 {total} 枚）：{moved}。"
    ),
    "{who} draws a card from the deck.": "{who} が山札から 1 枚引いた。",
    "You drew {card}.": "あなたが引いたカード：{card}。",
    "{who} takes {kind} from the display; {refill} fills slot {slot}.": (
        "{who} が表向きのカードから{kind}を取った。{slot} 番目に{refill}を補充。"
    ),
    "The train deck is empty: the draw ends.": "電車カードの山札が尽きた：カードを引くのはここまで。",
    "{who} plays {cards} to the rail yard.": "{who} がレールヤードに{cards}を置いた。",
    "{who} plays {cards} to the rail yard, robbing {victim}'s {colour} row ({n} {colour}).": (
        "{who} がレールヤードに{cards}を置き、{victim} の{colour}の列を電車強奪した（{colour} {n} 枚）。"
    ),
    "{who} plays {cards} to the rail yard, robbing {victim}'s {colour} row ({n} {colour} + {m} loco).": (
        "{who} がレールヤードに{cards}を置き、{victim} の{colour}の列を電車強奪した（{colour} {n} 枚＋機関車 {m} 枚）。"
    ),
    "{who} draws {n} tickets.": "{who} が目的地カードを {n} 枚引いた。",
    "You drew tickets {ids}.": "あなたが引いた目的地カード：{ids}。",
    "{who} keeps {tickets}.": "{who} が目的地カードを {tickets}残した。",
    "{who} has no legal move and passes.": "{who} は出せる手がないのでパスした。",
    "{turns} turns in a row kept no ticket: the deck is closed ({n} cards set face down).": (
        "{turns} 手番続けて目的地カードが残されなかった：山札を閉じる（{n} 枚を裏向きで除外）。"
    ),
    # ---- scoring
    "{kind} scoring. Track stacks: {stacks}.": "{kind}得点計算。トラックスタック：{stacks}。",
    **_seat_lists("{kind} scoring. Track stacks: ", "{kind}得点計算。トラックスタック："),
    "Tickets in hand: {hands}.": "手札の目的地カード：{hands}。",
    **_seat_lists("Tickets in hand: ", "手札の目的地カード："),
    "You pick ticket {id}.": "目的地カード {id} を選んだ。",
    "You drop ticket {id}.": "目的地カード {id} の選択を取り消した。",
    "{who} has chosen.": "{who} が選び終えた。",
    "{who} completes {ids} for {points} points.": "{who} が目的地カード {ids} を達成：{points} 点。",
    "{who} completes nothing for {points} points.": "{who} は目的地カードを達成できなかった：{points} 点。",
    "Deck 2: {n} cards after dealing up to {deal} to each seat.": (
        "2 つ目の山札：各プレイヤーに最大 {deal} 枚ずつ配り、残りは {n} 枚。"
    ),
    "You are dealt {cards}.": "あなたに配られたカード：{cards}。",
    # ---- refusals (IllegalMove reasons)
    "first choose which of your 6 tickets to keep, e.g. `keep 3 17`": (
        "まず 6 枚の目的地カードから残すものを選んでください（例：`keep 3 17`）"
    ),
    "the scoring is on: pick tickets with `complete ID`, `undo` or `done`": (
        "得点計算中です：`complete ID`、`undo`、`done` で目的地カードを選んでください"
    ),
    "`complete`, `undo` and `done` are only for choosing tickets at a scoring": (
        "`complete`・`undo`・`done` は得点計算で目的地カードを選ぶときだけ使えます"
    ),
    "first choose which drawn tickets to keep, e.g. `keep 7 44` or `keep none`": (
        "まず引いた目的地カードから残すものを選んでください（例：`keep 7 44`、`keep none`）"
    ),
    "you have no drawn tickets to keep: draw with `tickets` first": (
        "残す目的地カードを引いていません：先に `tickets` で引いてください"
    ),
    "take your second card first: `draw deck` or `take KIND`": (
        "先に 2 枚目のカードを取ってください：`draw deck` または `take KIND`"
    ),
    "that move is not possible now": "今はその手は指せません",
    "ticket {id} is not among the tickets you drew": "目的地カード {id} は引いたカードの中にありません",
    "keep at least 1 ticket": "目的地カードを少なくとも 1 枚残してください",
    "you cannot draw train cards now": "今は電車カードを引けません",
    "the train deck is empty: play to your rail yard or draw tickets": (
        "電車カードの山札が尽きています：レールヤードに置くか、目的地カードを引いてください"
    ),
    "there is no {kind} in the display": "表向きのカードに{kind}はありません",
    "there is no {kind} in slot {slot} of the display": "表向きのカードの{slot}番目に{kind}はありません",
    "a face-up locomotive counts as two cards: take it only as your first card": (
        "表向きの機関車カードは 2 枚分です：1 枚目としてだけ取れます"
    ),
    "there is no card called {card}": "{card} というカードはありません",
    "you do not have {n} {kind} in your hand (you have {have})": (
        "手札に{kind}が {n} 枚ありません（{have} 枚です）"
    ),
    "a set needs at least one coloured card": "セットには色のついたカードが少なくとも 1 枚必要です",
    "you already have a {colour} row": "レールヤードに{colour}の列がすでにあります",
    "your {colour} set must be larger than {other}'s {colour} row ({n} cards)": (
        "{colour}のセットは {other} の{colour}の列（{n} 枚）より多くなければなりません"
    ),
    "{colour} is in another rail yard: a single card cannot beat that row": (
        "{colour}は他のレールヤードにあります：1 枚ではその列を上回れません"
    ),
    "play 2+ cards of one colour (locomotives allowed) or 3 cards of 3 different colours": (
        "同じ色のカード 2 枚以上（機関車可）か、異なる 3 色のカード 3 枚を置いてください"
    ),
    "the ticket deck is empty": "目的地カードの山札が尽きています",
    "ticket {id} is not in your hand": "目的地カード {id} は手札にありません",
    "you already picked ticket {id}": "目的地カード {id} はすでに選んでいます",
    "ticket {id} does not fit together with your picks": "目的地カード {id} は選んだカードと一緒には達成できません",
    "there is no pick to undo": "取り消す選択がありません",
    "another ticket still fits: pick it (completing more never costs you)": (
        "まだ達成できる目的地カードがあります：選んでください（多く達成して損はありません）"
    ),
    # ---- refusals of the move reader
    "unreadable cards: a number must be followed by a card ({word})": (
        "カードを読めません：数字の後にはカードを書いてください（{word}）"
    ),
    "unreadable cards: a number must be followed by a card": "カードを読めません：数字の後にはカードを書いてください",
    "unknown card {word}: use {kinds}": "{word} というカードはありません。使えるカード：{kinds}",
    "empty move": "手が空です",
    "the display has slots {first} to {last}": "表向きのカードは {first}〜{last} 番です",
    "too many cards": "カードが多すぎます",
    "name the cards to play, e.g. `yard red red loco`": "置くカードを書いてください（例：`yard red red loco`）",
    "write `keep` and ticket numbers, e.g. `keep 7 44`, or `keep none`": (
        "`keep` と目的地カードの番号を書いてください（例：`keep 7 44`、`keep none`）"
    ),
    "unknown move {text}: try `draw deck`, `take red`, `yard red red`, `tickets`, `keep 7 44`": (
        "{text} という手はありません：`draw deck`、`take red`、`yard red red`、`tickets`、`keep 7 44` などを試してください"
    ),
}

