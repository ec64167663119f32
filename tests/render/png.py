"""What every image test checks of a renderer's output: a real PNG, of the expected size, within the budget."""

from __future__ import annotations

import io

from PIL import Image

MAX_BYTES = 500 * 1024  # one image a post: small enough to upload fast


def decode_png(data: bytes, size: tuple[int, int] | None = None) -> Image.Image:
    """The image in `data` as RGB, after checking it is a PNG (of `size`, when given) under MAX_BYTES."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    if size is not None:
        assert image.size == size
    assert len(data) < MAX_BYTES
    return image.convert("RGB")
