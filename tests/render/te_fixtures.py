"""Hand-made Trans Europa views with the field names of spec section 12 (no engine needed)."""

from __future__ import annotations

from typing import Any

_CITY = {
    "madrid": ("Madrid", "red", "k1"),
    "london": ("London", "red", "d8"),
    "paris": ("Paris", "orange", "g9"),
    "wien": ("Wien", "orange", "i17"),
    "oslo": ("Oslo", "yellow", "a15"),
    "malmo": ("Malmö", "yellow", "c17"),
    "kyiv": ("Kyiv", "green", "g29"),
    "minsk": ("Minsk", "green", "e27"),
    "roma": ("Roma", "blue", "m15"),
    "sofia": ("Sofia", "blue", "l24"),
    "bilbao": ("Bilbao", "red", "i3"),
    "zurich": ("Zürich", "orange", "i13"),
    "stockholm": ("Stockholm", "yellow", "a19"),
    "vilnius": ("Vilnius", "green", "d24"),
    "firenze": ("Firenze", "blue", "k13"),
}


def city(city_id: str, connected: bool | None = None) -> dict[str, Any]:
    name, colour, junction = _CITY[city_id]
    entry: dict[str, Any] = {"id": city_id, "name": name, "colour": colour, "junction": junction}
    if connected is not None:
        entry["connected"] = connected
    return entry


HANDS = {
    0: ["london", "paris", "oslo", "minsk", "roma"],
    1: ["madrid", "wien", "malmo", "kyiv", "sofia"],
    2: ["bilbao", "zurich", "stockholm", "vilnius", "firenze"],
}

# Ann (0) builds from paris towards london; Bob (1) from wien; one coloured track of Cid (2).
TRACKS = [
    {"a": "g7", "b": "paris", "owner": None},
    {"a": "f6", "b": "g7", "owner": None},
    {"a": "e5", "b": "f6", "owner": None},
    {"a": "e7", "b": "f6", "owner": None},
    {"a": "d8", "b": "e7", "owner": None},
    {"a": "h16", "b": "wien", "owner": None},
    {"a": "wien", "b": "i19", "owner": None},
    {"a": "h18", "b": "i19", "owner": 2},
]


def view(
    num_seats: int = 3, seat: int | None = None, vexation: bool = True, phase: str = "building"
) -> dict[str, Any]:
    """A mid-round view: markers on paris and wien (and a13 for a third seat...), some tracks."""
    markers = {"0": "paris", "1": "wien", "2": "i11", "3": "c29", "4": "k23", "5": "e13"}
    seats = [str(s) for s in range(num_seats)]
    tracks = [t for t in TRACKS if t["owner"] is None or t["owner"] < num_seats]
    data: dict[str, Any] = {
        "game": "trans_europa",
        "seat": seat,
        "num_seats": num_seats,
        "to_act": [1],
        "over": False,
        "moves_applied": 20,
        "round": 2,
        "start_seat": 0,
        "phase": phase,
        "active_seat": 1,
        "step": 2,
        "markers": {s: markers[s] for s in seats} if phase != "markers" else {"0": "paris"},
        "tracks": tracks if phase != "markers" else [],
        "last_tracks": [{"a": "h16", "b": "wien", "owner": None}],
        "black_left": 83 - sum(1 for t in tracks if t["owner"] is None),
        "coloured_left": {s: 3 - (s == "2") for s in seats} if vexation else {},
        "coloured_count": {"h18": 1, "i19": 1},
        "networks": {
            "0": sorted(["paris", "g7", "f6", "e5", "e7", "london"]),
            "1": sorted(["wien", "h16", "i19"]),
        },
        "completed": [],
        "scores": {s: 13 - 2 * int(s) for s in seats},
        "history": [],
        "last_round": None,
        "options": {
            "vexation": vexation,
            "vexation_refill": "game",
            "start_score": 13,
            "first_player": "random",
            "show_tracks_needed": True,
        },
        "result": None,
    }
    if seat is not None:
        own = set(data["networks"].get(str(seat), []))
        data["hand"] = [city(c, city(c)["junction"] in own or c in own) for c in HANDS.get(seat, HANDS[0])]
        data["tracks_needed"] = 17
    return data


def round_end_view(num_seats: int = 3) -> dict[str, Any]:
    """A view right after a round ended: `last_round` holds the finished round."""
    data = view(num_seats)
    seats = [str(s) for s in range(num_seats)]
    hands = {s: [city(c) for c in HANDS[int(s) % 3]] for s in seats}
    data["last_round"] = {
        "round": 1,
        "start_seat": 0,
        "hands": hands,
        "markers": data["markers"],
        "tracks": data["tracks"],
        "last_tracks": data["last_tracks"],
        "completed": [0],
        "penalties": {s: 0 if s == "0" else 3 + int(s) for s in seats},
        "scores_before": {s: 13 for s in seats},
        "scores_after": {s: 13 - (0 if s == "0" else 3 + int(s)) for s in seats},
    }
    data["history"] = [data["last_round"]]
    return data
