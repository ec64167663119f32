"""Rebuild NotoSansJP-Junction.otf, the Japanese-capable face of the board images (a maintainer's tool).

Not run by the bot or the tests, and not a dependency: it needs fontTools (`pip install fonttools`) and
Noto Sans CJK (Debian: `apt-get download fonts-noto-cjk`, then `dpkg-deb -x` the .deb). Usage:

    python render/fonts/build.py /path/to/NotoSansCJK-Regular.ttc

Noto Sans CJK JP (SIL Open Font License 1.1, see OFL.txt; Noto has no reserved font name, so a
subset may keep it) is cut down to what a board image can show: Latin with accents (city names),
the marks the renderers use, kana, and the 6,355 kanji of JIS X 0208 (levels 1 and 2), which
covers Japanese labels and nearly every Japanese display name. The whole font is 16 MB; the
subset is ~4 MB. `coverage.txt` lists the code points the subset has, for `render.kit`, which draws
any character outside it as "?".
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

HERE = Path(__file__).resolve().parent
JP_INDEX = 0  # the collection's faces are JP, KR, SC, TC, HK


def wanted() -> set[int]:
    ranges = [
        (0x20, 0x7E), (0xA0, 0x17F), (0x218, 0x21B),   # ASCII, Latin-1, Latin Extended-A, Romanian
        (0x2010, 0x2027), (0x2030, 0x203B), (0x2190, 0x2193), (0x2212, 0x2212), (0x2264, 0x2265),
        (0x2460, 0x2473), (0x25A0, 0x25CF), (0x2605, 0x2606), (0x2713, 0x2713),
        (0x3000, 0x303F), (0x3041, 0x3096), (0x3099, 0x30FF), (0xFF01, 0xFF9F),
    ]  # fmt: skip
    codes = {c for a, b in ranges for c in range(a, b + 1)}
    for code in range(0x4E00, 0xA000):
        try:
            chr(code).encode("shift_jis")
        except UnicodeEncodeError:
            continue
        codes.add(code)
    return codes


def main(source: str) -> None:
    face = TTCollection(source).fonts[JP_INDEX]
    present = set(face.getBestCmap())
    codes = sorted(wanted() & present)
    options = subset.Options()
    options.layout_features = ["kern", "palt", "vert"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    options.desubroutinize = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=codes)
    subsetter.subset(face)
    face.save(HERE / "NotoSansJP-Junction.otf")
    runs, start = [], codes[0]
    for previous, code in zip(codes, codes[1:] + [None], strict=True):
        if code != previous + 1:
            runs.append(f"{start:04X}-{previous:04X}" if start != previous else f"{start:04X}")
            start = code
    (HERE / "coverage.txt").write_text("\n".join(runs) + "\n", encoding="ascii")
    print(f"{len(codes)} code points, {(HERE / 'NotoSansJP-Junction.otf').stat().st_size // 1024} KB")


if __name__ == "__main__":
    main(sys.argv[1])
