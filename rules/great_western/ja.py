"""Japanese for this game's engine texts: event lines, refusal reasons, option descriptions, result words.

English (exactly as the engine writes it) -> Japanese; see rules.engine.Catalog for patterns.
Terms follow the Japanese rules translation (seeds/001): 利用可能ストック / 利用不可能ストック, 客車 / 貨車,
入札, 競売, 建設, 路線, 人口 (the people on a city), 最初のプレイヤー; "cube" is キューブ as in the /rules
summary. Event lines are plain past/noun style; refusals speak to the player in です/ます, like the bot.
Lists the engine joins with ", " are matched by patterns with enough literal text (a bare "{a}, {b}"
would catch every other game's lines in the bot's merged catalog).
"""

JA: dict[str, str] = {
    # ---- the game's title (the rules translation's), option, result words
    "Great Western Railway": "グレート・ウェスタン鉄道",
    "End the game after this round's income even if cities are empty (0 = no limit).":
        "このラウンドの収入の後、空いている都市が残っていてもゲームを終了します（0 = 制限なし）。",
    "city gold": "都市の金貨",
    "city gold: {points}": "都市の金貨：{points}",  # the breakdown line of the end-of-game file
    "cities": "都市",
    "city_count": "都市数",
    "cubes_off_board": "ボード外のキューブ",
    "round limit": "ラウンド上限",
    # the same keys in the player's words (scoring.RESULT_LABELS), as the bot shows them
    "cities (gold)": "都市（金貨）",
    "cities connected": "接続した都市数",
    "cubes off the board": "ボード外のキューブ",
    "The game ended: every city is connected.": "終了：すべての都市が接続された。",
    "The game ended at the round limit.": "終了：ラウンド上限に達した。",
    "all cities connected": "全都市接続",
    # what the bot's end-of-game post reveals per seat (bot/texts.revealed_lines: details keys and values)
    "{who}: cities {cities}; city_count {n}; cubes_off_board {cubes}":
        "{who}：都市 {cities}、都市数 {n}、ボード外のキューブ {cubes}",
    "{who}: cities {cities}": "{who}：都市 {cities}",  # the same line clipped (a long city list)
    # the same line in the player's words (scoring.RESULT_LABELS): "Ann: cities (gold): bath 3, ...; ..."
    "{who}: cities (gold): {cities}; cities connected: {n}; cubes off the board: {cubes}":
        "{who}：都市（金貨）{cities}、接続した都市数 {n}、ボード外のキューブ {cubes}",
    "{who}: cities (gold): {cities}": "{who}：都市（金貨）{cities}",
    "1st": "1位",
    "2nd": "2位",
    "3rd": "3位",
    "4th": "4位",
    "nothing": "なし",
    # ---- setup and loading (5.1)
    "{who} is the start player.": "{who} が最初のプレイヤー。",
    # round 2 on, the first train's line starts with "Round N — " (a prefix the engine adds)
    "t{train} rolls {dice}: {cars}.": "t{train} のダイス {dice}：{cars}。",
    "{prefix}t{train} rolls {dice}: {cars}.": "{prefix}t{train} のダイス {dice}：{cars}。",
    "Round {n} — ": "ラウンド {n} — ",
    # the cars a roll loads: "car 3 (F) ×2, car 4 (P)" (at most three, one per die)
    "car {a}, car {b}, car {c}": "{a}、{b}、{c}",
    "car {a}, car {b}": "{a}、{b}",
    "car {a}": "{a}",
    "{n} (P)": "客車{n}",
    "{n} (F)": "貨車{n}",
    "{n} (P) ×{m}": "客車{n} ×{m}",
    "{n} (F) ×{m}": "貨車{n} ×{m}",
    "Build order: {trains}.": "建設順：{trains}。",
    # ---- auction (5.2, 5.3)
    "{who} bids {n} on t{train}.": "{who} が t{train} に {n} 個で入札。",
    "{who} bids {n} on t{train}; {other}'s 1 cube returns.":
        "{who} が t{train} に {n} 個で入札。{other} のキューブ 1 個が戻る。",
    "{who} bids {n} on t{train}; {other}'s {m} cubes return.":
        "{who} が t{train} に {n} 個で入札。{other} のキューブ {m} 個が戻る。",
    "{who} has one legal bid: {n} on t{train}.": "{who} の入札は 1 通りのみ：t{train} に {n} 個。",
    "{who} has one legal bid: {n} on t{train}; {other}'s 1 cube returns.":
        "{who} の入札は 1 通りのみ：t{train} に {n} 個。{other} のキューブ 1 個が戻る。",
    "{who} has one legal bid: {n} on t{train}; {other}'s {m} cubes return.":
        "{who} の入札は 1 通りのみ：t{train} に {n} 個。{other} のキューブ {m} 個が戻る。",
    "Auction: {bids}.": "競売の結果：{bids}。",
    "{who}'s 1 unreplaced black cube is lost.": "{who} の置き換えられなかった黒キューブ 1 個は失われた。",
    "{who}'s {n} unreplaced black cubes are lost.": "{who} の置き換えられなかった黒キューブ {n} 個は失われた。",
    # ---- build (5.4)
    "{who} connects {city} from {start}: links {links}, fees {fees}, people {people} ({pay}).":
        "{who} が {start} から {city} に接続：路線 {links}、通過料 {fees}、人口 {people}（{pay}）。",
    "{who} connects {city} from {start} via {via}: links {links}, fees {fees}, people {people} ({pay}).":
        "{who} が {start} から {via} 経由で {city} に接続：路線 {links}、通過料 {fees}、人口 {people}（{pay}）。",
    # how it was paid: "2 passengers, 1 freight, 3 available" (passengers always, the rest when used);
    # each combination in full, so that no shorter pattern takes a part of another
    "{p} passenger": "客車 {p}",
    "{p} passengers": "客車 {p}",
    "{p} passenger, {f} freight": "客車 {p}、貨車 {f}",
    "{p} passengers, {f} freight": "客車 {p}、貨車 {f}",
    "{p} passenger, {a} available": "客車 {p}、利用可能 {a}",
    "{p} passengers, {a} available": "客車 {p}、利用可能 {a}",
    "{p} passenger, {f} freight, {a} available": "客車 {p}、貨車 {f}、利用可能 {a}",
    "{p} passengers, {f} freight, {a} available": "客車 {p}、貨車 {f}、利用可能 {a}",
    "{who} is done.": "{who} が建設を終えた。",
    "{who} is done; 1 cube from t{train} returns to available.":
        "{who} が建設を終えた。t{train} のキューブ 1 個が利用可能ストックに戻る。",
    "{who} is done; {n} cubes from t{train} return to available.":
        "{who} が建設を終えた。t{train} のキューブ {n} 個が利用可能ストックに戻る。",
    "{who} cannot afford any city (done).": "{who} は払える都市がない（建設終了）。",
    "{who} cannot afford any city (done); 1 cube from t{train} returns to available.":
        "{who} は払える都市がない（建設終了）。t{train} のキューブ 1 個が利用可能ストックに戻る。",
    "{who} cannot afford any city (done); {n} cubes from t{train} return to available.":
        "{who} は払える都市がない（建設終了）。t{train} のキューブ {n} 個が利用可能ストックに戻る。",
    # ---- income and the end (5.5, 6)
    "Income: {list}.": "収入：{list}。",
    "Income lost for lack of unavailable cubes: {list}.": "利用不可能ストックが足りず失われた収入：{list}。",
    "{who} moved the last train (t{train}) and starts round {n}.":
        "最後に列車（t{train}）を動かした {who} がラウンド {n} の最初のプレイヤー。",
    "Round {n} was the last round (round limit): the game ends.":
        "ラウンド {n} が最後のラウンド（ラウンド上限）：ゲーム終了。",
    "Every city is connected: the game ends at once (no income).":
        "すべての都市が接続された：ゲームは直ちに終了（収入なし）。",
    "Final: {r1} {w1} {g1} gold ({c1} cubes off the board), {r2} {w2} {g2} gold ({c2} cubes off the board).":
        "最終結果：{r1} {w1} 金貨 {g1}（ボード外のキューブ {c1}）、{r2} {w2} 金貨 {g2}（ボード外のキューブ {c2}）。",
    "Final: {r1} {w1} {g1} gold ({c1} cubes off the board), {r2} {w2} {g2} gold ({c2} cubes off the board), "
    "{r3} {w3} {g3} gold ({c3} cubes off the board).":
        "最終結果：{r1} {w1} 金貨 {g1}（ボード外のキューブ {c1}）、{r2} {w2} 金貨 {g2}（ボード外のキューブ {c2}）、"
        "{r3} {w3} 金貨 {g3}（ボード外のキューブ {c3}）。",
    "Final: {r1} {w1} {g1} gold ({c1} cubes off the board), {r2} {w2} {g2} gold ({c2} cubes off the board), "
    "{r3} {w3} {g3} gold ({c3} cubes off the board), {r4} {w4} {g4} gold ({c4} cubes off the board).":
        "最終結果：{r1} {w1} 金貨 {g1}（ボード外のキューブ {c1}）、{r2} {w2} 金貨 {g2}（ボード外のキューブ {c2}）、"
        "{r3} {w3} 金貨 {g3}（ボード外のキューブ {c3}）、{r4} {w4} 金貨 {g4}（ボード外のキューブ {c4}）。",
    # ---- refusals: turn and auction
    "It is {who}'s turn to bid.": "{who} の入札の番です。",
    "It is not your turn to build.": "あなたの建設の番ではありません。",
    "The auction is on and there is no pass: bid on a train (`bid t<train> <cubes>`).": (
        "競りの最中で、パスはできません。列車に入札してください（`bid t<train> <cubes>`）。"
    ),
    "Bidding is over this round; it is {who}'s turn to build.":
        "このラウンドの入札は終わりました。{who} の建設の番です。",
    "Train {train} is not in play with {n} players.": "{n} 人プレイでは列車 {train} は使いません。",
    "You have no available cubes: take {move}.": "利用可能なキューブがありません。`{move}` を選んでください。",
    "A bid must be at least 1 cube.": "入札は最低 1 個です。",
    "Train {train} already has a bid of {bid}; bid at least {least}.":
        "列車 {train} にはすでに {bid} 個の入札があります。{least} 個以上で入札してください。",
    "You have only {what}.": "{what}しかありません。",
    "{n} available cube": "利用可能なキューブは {n} 個",
    "{n} available cubes": "利用可能なキューブは {n} 個",
    "Unknown move {move}.": "不明な手です：{move}。",
    # ---- refusals: connecting (also shown as "Not now" on the hand image)
    "London cannot be connected.": "London には接続できません。",
    "{city} already has a cube.": "{city} にはすでにキューブがあります。",
    "No route to {city}: every way there passes through an empty city.":
        "{city} への経路がありません。どの道も空の都市を通ります。",
    "{city} needs 1 passenger; your train carries {p}.": "{city} には客車のキューブが 1 個必要ですが、あなたの列車には {p} 個しかありません。",
    "{city} needs {n} passengers; your train carries {p}.":
        "{city} には客車のキューブが {n} 個必要ですが、あなたの列車には {p} 個しかありません。",
    "{city}'s route costs {cost}; you can pay at most {most} (freight {f}, available {a}, spare passengers {s}).":
        "{city} への路線は {cost} 個かかります。払えるのは最大 {most} 個です（貨車 {f}、利用可能 {a}、余った客車 {s}）。",
    # ---- refusals: reading a move (notation in backticks stays as it is)
    "Name a city, e.g. `connect reading`.": "都市名を指定してください（例：`connect reading`）。",
    "There is no city called '{text}'.": "「{text}」という都市はありません。",
    "'{text}' could be {names}: type more letters.": "「{text}」は {names} のどれかです。もっと文字を入力してください。",
    "Empty move: try `bid t1 2`, `connect reading` or `done`.":
        "手が空です。`bid t1 2`、`connect reading`、`done` のように入力してください。",
    "A bid reads `bid t<train> <cubes>`, e.g. `bid t2 3`.": "入札は `bid t<train> <cubes>` の形です（例：`bid t2 3`）。",
    "There is no train {n}: the trains are t1 to t{m}.": "列車 {n} はありません。列車は t1〜t{m} です。",
    "Cannot read '{text}': try `bid t1 2`, `connect reading` or `done`.":
        "「{text}」を読み取れません。`bid t1 2`、`connect reading`、`done` のように入力してください。",
}
