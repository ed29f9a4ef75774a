"""Draw the app icon: static/icons/icon.svg and icon-192.png / icon-512.png (no dependencies).

A white playing card with a red heart on the app's green, full-bleed so launchers may mask it.
Run from the repository root: python scripts/make_icons.py
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

GREEN = (0x0F, 0x6B, 0x4F)
WHITE = (0xFF, 0xFF, 0xFF)
RED = (0xC6, 0x28, 0x28)
CARD = (0.30, 0.20, 0.70, 0.80)  # left, top, right, bottom as fractions of the side
CORNER = 0.06
HEART_CENTRE, HEART_SIZE = (0.50, 0.50), 0.15

SVG = f"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">
<rect width="512" height="512" fill="#0f6b4f"/>
<rect x="{CARD[0] * 512:.0f}" y="{CARD[1] * 512:.0f}" width="{(CARD[2] - CARD[0]) * 512:.0f}" \
height="{(CARD[3] - CARD[1]) * 512:.0f}" rx="{CORNER * 512:.0f}" fill="#fff"/>
<path d="M256 332C200 290 176 262 176 232C176 206 196 190 218 190C236 190 250 200 256 214\
C262 200 276 190 294 190C316 190 336 206 336 232C336 262 312 290 256 332Z" fill="#c62828"/>
</svg>
"""


def _inside_card(x: float, y: float) -> bool:
    left, top, right, bottom = CARD
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + CORNER), right - CORNER)
    cy = min(max(y, top + CORNER), bottom - CORNER)
    return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER**2


def _inside_heart(x: float, y: float) -> bool:
    hx = (x - HEART_CENTRE[0]) / HEART_SIZE
    hy = -(y - HEART_CENTRE[1]) / HEART_SIZE + 0.15
    return (hx * hx + hy * hy - 1) ** 3 - hx * hx * hy**3 <= 0


def _pixel(x: float, y: float) -> tuple[int, int, int]:
    if _inside_heart(x, y):
        return RED
    if _inside_card(x, y):
        return WHITE
    return GREEN


def png(size: int, samples: int = 3) -> bytes:
    """The icon as an RGB PNG of `size` pixels square, antialiased by supersampling."""
    rows = bytearray()
    for row in range(size):
        rows.append(0)  # filter: none
        for column in range(size):
            total = [0, 0, 0]
            for sy in range(samples):
                for sx in range(samples):
                    colour = _pixel(
                        (column + (sx + 0.5) / samples) / size, (row + (sy + 0.5) / samples) / size
                    )
                    for i in range(3):
                        total[i] += colour[i]
            rows.extend(round(t / samples**2) for t in total)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    folder = Path("static/icons")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "icon.svg").write_text(SVG)
    for size in (192, 512):
        (folder / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
