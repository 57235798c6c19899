#!/usr/bin/env python3
"""Checks the Initiative ladder's token marks and pips on the board: at the river ford, held in
the brigands' surprise turn (every brigand a person's, none has decided), each of the escort
wears the surprised mark (its amber badge drawn at its token's upper rim) and three spent AP
pips; the bank archer, whose go it is, three lit pips; the others' pips are spent (AP come at
a turn's start).

Usage: check_ap_ladder_board.py SCREENSHOT.png LAYOUT.json"""
import json
import sys

from check_board import read_png

AMBER = (168, 104, 16)
LIT = (255, 214, 76)


def colour_at(rows, channels, x, y):
    return tuple(rows[int(y)][int(x) * channels:int(x) * channels + 3])


def close(c, want, tolerance=60):
    return all(abs(c[i] - want[i]) < tolerance for i in range(3))


def inside(inner, outer, slack=6):
    x, y, w, h = inner
    ox, oy, ow, oh = outer
    return x >= ox - slack and y >= oy - slack and x + w <= ox + ow + slack and y + h <= oy + oh + slack


def main():
    shot, layout_path = sys.argv[1:3]
    width, _, channels, rows = read_png(shot)
    scale = width / 1600
    drawn = [d for d in json.load(open(layout_path)) if d["window"] == "gm"]
    tokens = {d["id"]: d["rect"] for d in drawn if d["kind"] == "token"}
    marks = {}
    for d in drawn:
        if d["kind"] == "mark":
            who, word = d["id"].split(":", 1)
            marks.setdefault(who, {})[word] = d["rect"]
    pips = {}
    for d in drawn:
        if d["kind"] == "pip":
            who, state = d["id"].split(":", 1)
            pips.setdefault(who, []).append((state, d["rect"]))
    for who in ["aldric", "mael", "ysolt"]:
        rect = marks.get(who, {}).get("surprised")
        assert rect, f"{who}: no surprised mark ({marks.get(who)})"
        assert inside(rect, tokens[who]), f"{who}: the mark {rect} is not on its token {tokens[who]}"
        x, y, w, h = rect
        # The badge's ring, left of its pictogram.
        c = colour_at(rows, channels, (x + w * 0.2) * scale, (y + h * 0.5) * scale)
        assert close(c, AMBER), f"{who}: the surprised badge is not drawn: {c} at its ring"
        assert [s for s, _ in pips.get(who, [])] == ["spent"] * 3, f"{who}: pips {pips.get(who)}"
    for who in ["brig_1", "brig_2", "brig_chief"]:
        assert not marks.get(who), f"{who} is marked: {marks.get(who)}"
        assert [s for s, _ in pips.get(who, [])] == ["spent"] * 3, f"{who}: pips {pips.get(who)}"
    lit = pips.get("brig_bow", [])
    assert [s for s, _ in lit] == ["lit"] * 3, f"the bank archer's pips: {lit}"
    for _, (x, y, w, h) in lit:
        c = colour_at(rows, channels, (x + w / 2) * scale, (y + h / 2) * scale)
        assert close(c, LIT), f"a lit pip is not drawn: {c}"
    print("initiative ladder board ok: the escort marked surprised, AP pips lit for the bank archer only")


if __name__ == "__main__":
    main()
