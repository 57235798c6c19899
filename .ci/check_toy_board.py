#!/usr/bin/env python3
"""Checks the toy duel's board: a ruleset registered with one line and no board adapter opens
on the generic board. Not blank; every combatant's token in its side's colour; and a spark
chip (its one counter, an orange diamond) on each, dealt by its first phase.

Usage: check_toy_board.py SCREENSHOT.png LAYOUT.json"""
import json

import layout as layout_file
import sys

from check_board import read_png

SIDES = [(64, 115, 217), (204, 64, 56)]
SPARK = (255, 170, 40)


def near(rows, channels, width, height, at, colour, reach, tolerance):
    x0, y0 = int(at[0]), int(at[1])
    for y in range(max(0, y0 - reach), min(height, y0 + reach)):
        for x in range(max(0, x0 - reach), min(width, x0 + reach)):
            c = rows[y][x * channels:x * channels + 3]
            if all(abs(c[i] - colour[i]) < tolerance for i in range(3)):
                return True
    return False


def main():
    shot, layout_path = sys.argv[1:3]
    width, height, channels, rows = read_png(shot)
    scale = width / 1600
    colours = {tuple(rows[y][x * channels:x * channels + 3]) for y in range(0, height, 7) for x in range(0, width, 7)}
    assert len(colours) > 20, f"the screenshot looks blank: {len(colours)} colours"
    layout = layout_file.centres(layout_path)
    tokens = {k.split(":", 1)[1]: v for k, v in layout.items() if k.startswith("combatant:")}
    assert sorted(tokens) == ["bea", "bo", "rex", "ruby"], f"tokens drawn: {sorted(tokens)}"
    for cid, at in tokens.items():
        px = (at[0] * scale, at[1] * scale)
        assert any(near(rows, channels, width, height, px, s, 10, 30) for s in SIDES), f"{cid}: no token colour at {px}"
        chip = layout.get(f"chip:spark:{cid}")
        assert chip, f"{cid}: no spark chip in the layout"
        assert near(rows, channels, width, height, (chip[0] * scale, chip[1] * scale), SPARK, 6, 40), \
            f"{cid}: no orange spark chip drawn at {chip}"
    print(f"toy board ok: {len(colours)} colours, 4 tokens, each with its spark chip")


if __name__ == "__main__":
    main()
