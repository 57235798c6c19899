#!/usr/bin/env python3
"""Checks Fast & Slow's board on the flooded vault: not blank; every combatant's token in its
side's colour where the layout puts it; each trap's red ring and the rising water's blue ring
drawn where the scenario puts them (in Paces, placed on the screen from two tokens).

Usage: check_fast_slow_board.py SCREENSHOT.png LAYOUT.json"""
import json

import layout as layout_file
import sys

from check_board import read_png
from check_toy_board import SIDES, near

TRAP = (242, 77, 64)
WATER = (77, 153, 255)


def main():
    shot, layout_path = sys.argv[1:3]
    width, height, channels, rows = read_png(shot)
    scale = width / 1600
    colours = {tuple(rows[y][x * channels:x * channels + 3]) for y in range(0, height, 7) for x in range(0, width, 7)}
    assert len(colours) > 20, f"the screenshot looks blank: {len(colours)} colours"
    layout = layout_file.centres(layout_path)
    tokens = {k.split(":", 1)[1]: v for k, v in layout.items() if k.startswith("combatant:")}
    assert len(tokens) == 6, f"tokens drawn: {sorted(tokens)}"
    for cid, at in tokens.items():
        px = (at[0] * scale, at[1] * scale)
        assert any(near(rows, channels, width, height, px, s, 10, 30) for s in SIDES), f"{cid}: no token colour at {px}"
    # Keld stands at (-6, 0) Paces, the first warden at (6, 1).
    keld, warden = tokens["keld"], tokens["warden_1"]
    pace = (warden[0] - keld[0]) / 12.0
    origin = (keld[0] + 6 * pace, keld[1])

    def screen(x, y):
        return ((origin[0] + x * pace) * scale, (origin[1] - y * pace) * scale)

    for name, (x, y), r, colour in [("pit trap", (0, 1), 1.0, TRAP), ("needle lock", (4, -3), 1.0, TRAP),
                                    ("rising water", (-4, -4), 1.5, WATER)]:
        cx, cy = screen(x, y)
        ring = (cx + r * pace * scale, cy)
        assert near(rows, channels, width, height, ring, colour, 6, 45), f"no {name} ring at {ring}"
    print(f"fast & slow board ok: {len(colours)} colours, 6 tokens, two traps and the water where they stand")


if __name__ == "__main__":
    main()
