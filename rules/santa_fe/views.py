"""What each seat (or the public) may see of a Santa Fe game (spec section 7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.santa_fe.board import BOARD, RAILROADS
from rules.santa_fe.notation import PHASE_NAMES

if TYPE_CHECKING:
    from rules.santa_fe.state import SantaFeState


def _card(state: SantaFeState, city: str, reach: dict[str, list[str]]) -> dict[str, Any]:
    rails = reach.get(city, [])
    return {
        "city": city,
        "name": BOARD.name(city),
        "value": BOARD.cities[city].value,
        "railroads": rails,
        "points": BOARD.cities[city].value * len(rails),
    }


def build_view(state: SantaFeState, seat: int | None) -> dict[str, Any]:
    view = state.base_view(seat)
    reach: dict[str, list[str]] = {}  # city -> railroads connected to it
    for rr in RAILROADS:
        for city in state.connected[rr]:
            reach.setdefault(city, []).append(rr)
    n = state.num_seats
    revealed = state.phase not in ("choose", "engineer")
    turn_order = state.phase in ("lay1", "lay2", "draw", "buy")
    lines: dict[str, list[dict[str, Any]]] = {}
    for rr in RAILROADS:
        lines[rr] = []
        for number, head in enumerate(state.lines[rr], start=1):
            if "sec" in head:
                lane = state.lanes[head["sec"]][head["lane"]]
                assert lane is not None
                lines[rr].append(
                    {
                        "line": number,
                        "section": head["sec"],
                        "lane": head["lane"],
                        "from": lane[2],
                        "toward": BOARD.sections[head["sec"]].other(lane[2]),
                        "tiles": lane[3],
                    }
                )
            else:
                lines[rr].append({"line": number, "at": head["at"]})
    lanes = [
        {
            "section": sid,
            "lane": index,
            "rr": lane[0],
            "line": lane[1],
            "from": lane[2],
            "tiles": lane[3],
            "spaces": BOARD.sections[sid].spaces,
        }
        for sid, section_lanes in state.lanes.items()
        for index, lane in enumerate(section_lanes)
        if lane is not None
    ]
    seats = []
    for s in range(n):
        played = [_card(state, c, reach) for c in state.played[s]]
        entry: dict[str, Any] = {
            "seat": s,
            "money": state.money[s],
            "engineer": state.engineer[s],
            "hand_limit": state.hand_limit[s],
            "hand_cities": len(state.cities[s]),
            "hand_dt": state.dt[s],
            "hand_branch": state.branch[s],
            "played": played,
            "score": state.money[s] + sum(card["points"] for card in played),
            "bought": dict(state.bought[s]),
            "exchanged": state.exchanged[s],
            "discarded": len(state.discarded[s]),
            "chosen": state.chosen[s]
            if state.phase == "choose"
            else (state.engineer_choice[s] is not None if state.phase == "engineer" else None),
            "play": None,
        }
        if revealed and state.round:
            entry["play"] = {
                "city": state.round_city[s],
                "double": state.round_dt[s],
                "branch": state.round_branch[s],
                "branch_used": state.branch_used[s],
            }
        seats.append(entry)
    result = state.result()
    view.update(
        {
            "round": state.round,
            "phase": state.phase,
            "phase_name": PHASE_NAMES[state.phase],
            "first_player": state.first,
            "current": state.current() if turn_order else None,
            "placements_left": state.placements_left if state.phase in ("lay1", "lay2") else 0,
            "options": {"advanced": state.advanced, "tile_buying": state.tile_buying},
            "bought_phase": state.bought_phase(),
            "supply": dict(state.supply),
            "deck": len(state.deck),
            "dt_pile": state.dt_pile,
            "dt_in_play": state.dt_in_play,
            "branch_piles": dict(state.branch_piles),
            "branch_removed": state.branch_removed,
            "engineers_left": state.engineers_left,
            "lanes": lanes,
            "lines": lines,
            "connected": {rr: sorted(state.connected[rr]) for rr in RAILROADS},
            "seats": seats,
            "log": [
                text for text, seats_ in state.log if seats_ is None or (seat is not None and seat in seats_)
            ],
            "last_tiles": [list(t) for t in state.last_tiles],
            "ended_by": state.ended_by,
            "result": result.to_json() if result else None,
        }
    )
    if seat is not None:
        view["hand"] = [_card(state, c, reach) for c in state.cities[seat]]
        view["pending"] = state.choice[seat]
        if state.phase == "engineer" and state.engineer_choice[seat] is not None:
            view["pending"] = "buy engineer" if state.engineer_choice[seat] else "decline engineer"
        view["exchange_history"] = [dict(h) for h in state.exchange_history[seat]]
        view["discarded_cards"] = list(state.discarded[seat])
    return view
