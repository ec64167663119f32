"""python -m bot demo: a whole offline game with AI seats, board images and a summary."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

from bot.__main__ import main


def test_demo_plays_a_whole_game_and_writes_readable_images(tmp_path: Path, capsys) -> None:
    out = tmp_path / "demo"
    assert main(["demo", "--game", "trans_europa", "--players", "3", "--seed", "7", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Trans Europa: 3 AI players (greedy), seed 7" in printed
    turns = sorted(out.glob("turn_*.png"))
    assert len(turns) > 10
    for png in (turns[0], turns[-1], out / "hand_seat1.png"):
        with Image.open(png) as image:
            assert image.format == "PNG" and image.width >= 1200
    summary = (out / "summary.txt").read_text()
    ranks = [line for line in summary.splitlines() if line[:2] in ("1.", "2.", "3.")]
    assert len(ranks) == 3 and "start score 13" in ranks[0]
    assert "Game log:" in summary
    # Every round end got its summary image, and a rerun leaves no stale images behind.
    assert list(out.glob("turn_*_moment1.png"))
    assert main(["demo", "--game", "trans_europa", "--players", "2", "--seed", "1", "--out", str(out)]) == 0
    images = int(re.search(r"(\d+) board images", (out / "summary.txt").read_text()).group(1))
    assert len([p for p in out.glob("turn_*.png") if "moment" not in p.name]) == images


def test_run_without_a_token_points_to_the_demo(monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main([]) == 2
    assert "python -m bot demo" in capsys.readouterr().err


def test_demo_in_japanese_writes_a_japanese_log_and_standings(tmp_path: Path) -> None:
    out = tmp_path / "ja"
    assert main(["demo", "--game", "trans_europa", "--players", "2", "--seed", "3", "--out", str(out),
                 "--lang", "ja"]) == 0
    summary = (out / "summary.txt").read_text()
    log = summary.split("Game log:\n", 1)[1].splitlines()
    assert log and all(re.search(r"[\u3040-\u30ff]", line) for line in log)  # every event in kana
    assert "開始時の得点 13" in summary
    standings = [line for line in summary.splitlines() if line[:2] in ("1.", "2.")]
    assert len(standings) == 2 and all("、" in line and ", " not in line for line in standings), standings
    with Image.open(out / "hand_seat1.png") as image:
        assert image.format == "PNG"
