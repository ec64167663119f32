"""Trans Europa scoring: the exact penalty of a seat (D12) and the final standings (section 8)."""

from __future__ import annotations

from typing import Any

from rules.engine import Result, SeatResult, rank_by
from rules.trans_europa import board
from rules.words import N_, Items, Msg, Seat


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
    labels: dict[str, str | Msg] = dict(RESULT_LABELS)
    seats = []
    for s in range(seats_count):
        # The first round's opening score is start_score (a test fixture may set another).
        first = history[0]["scores_before"][str(s)] if history else scores[s]
        breakdown = {N_("start score"): first}
        for entry in history:
            # The key stays the English words (stored results, tests); its label is the message.
            label = Msg("round {round}", round=entry["round"])
            labels[str(label)] = label
            breakdown[str(label)] = -entry["penalties"][str(s)]
        seats.append(SeatResult(s, scores[s], breakdown, ranks[s],
                                {"penalties": [e["penalties"][str(s)] for e in history]}))
    seats.sort(key=lambda r: (r.rank, r.seat))
    low = [s for s in range(seats_count) if scores[s] <= 0]
    # How the game ended: the key is its English (seat tokens in it), the label the message.
    at = [Msg("{who} at {points}", who=Seat(s), points=scores[s]) for s in low]
    ended = Msg("After round {round}: {scores} points.", round=round_number, scores=Items(at, "comma"))
    labels[str(ended)] = ended
    return Result(tuple(seats), ended_by=str(ended), labels=labels,
                  details_secret=False)  # each round's loss was announced


RESULT_LABELS: dict[str, str] = {"penalties": N_("points lost per round")}
