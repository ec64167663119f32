"""Trans Europa scoring: the exact penalty of a seat (D12) and the final standings (section 8)."""

from __future__ import annotations

from typing import Any

from rules.engine import Result, SeatResult, rank_by, seat_token
from rules.trans_europa import board
from rules.words import N_


def seat_lines(tracks: dict[int, int | None], seat: int) -> tuple[frozenset[int], frozenset[int]]:
    """(lines costing the seat 0: black and its own coloured, lines blocked: others' coloured)."""
    zero = frozenset(e for e, owner in tracks.items() if owner is None or owner == seat)
    blocked = frozenset(e for e, owner in tracks.items() if owner is not None and owner != seat)
    return zero, blocked


def penalty(cities: list[int], marker: int | None, tracks: dict[int, int | None], seat: int) -> int:
    """Exact tracks the seat still needs (a minimum Steiner tree, section 10.4).

    Before the marker is down it is the cost of the five cities alone, the best any marker allows.
    The tree solver gives the same exact value as `steiner_cost` and leaves the tree in its cache
    for the greedy AI.
    """
    terminals = set(cities) | ({marker} if marker is not None else set())
    zero, blocked = seat_lines(tracks, seat)
    return min(board.INF, board.steiner_tree(tuple(sorted(terminals)), zero, blocked)[0])


def final_result(scores: list[int], history: list[dict[str, Any]], round_number: int) -> Result:
    """Standings by score (shared ranks, no tie-break); breakdown = start score + each round's loss."""
    seats_count = len(scores)
    ranks = rank_by({s: (scores[s],) for s in range(seats_count)})
    seats = []
    for s in range(seats_count):
        # The first round's opening score is start_score (a test fixture may set another).
        first = history[0]["scores_before"][str(s)] if history else scores[s]
        breakdown = {N_("start score"): first}
        for entry in history:
            breakdown[N_("round {round}").format(round=entry["round"])] = -entry["penalties"][str(s)]
        seats.append(SeatResult(s, scores[s], breakdown, ranks[s],
                                {"penalties": [e["penalties"][str(s)] for e in history]}))
    seats.sort(key=lambda r: (r.rank, r.seat))
    low = [s for s in range(seats_count) if scores[s] <= 0]
    # How the game ended, in English with seat tokens: Result.ended_by is text (message_ids lists its
    # shapes for the catalogs, one per number of seats at 0 or below).
    ended = ", ".join(f"{seat_token(s)} at {scores[s]}" for s in low)
    return Result(tuple(seats), ended_by=f"After round {round_number}: {ended} points.",
                  labels=RESULT_LABELS, details_secret=False)  # each round's loss was announced


RESULT_LABELS: dict[str, str] = {"penalties": N_("points lost per round")}


def message_ids() -> list[str]:
    """The shapes of Result.ended_by, one per number of seats at 0 or below (locales.catalogs.PROVIDERS):
    "After round {round}: {w0} at {p0}, {w1} at {p1} points.", seats as {wN}, their scores as {pN}."""
    return ["After round {round}: " + ", ".join(f"{{w{i}}} at {{p{i}}}" for i in range(count)) + " points."
            for count in range(1, 7)]
