#!/usr/bin/env python3
"""Checks a FateWalker board screenshot: not blank, every token drawn in its side's colour
where its layout says, and the layout a uniform scale of the scenario's metres (a rider where
its vehicle stands).

Usage: check_fatewalker_board.py SCREENSHOT.png LAYOUT.json SCENARIO.ron"""
import json

import layout as layout_file
import re
import sys

from check_board import read_png

# Side colours of the board's tokens (sRGB, 0 to 1), by side order in the scenario.
SIDES = [(0.25, 0.45, 0.85), (0.80, 0.25, 0.22)]


def srgb(c):
    return tuple(round(255 * x) for x in c)


def scenario_positions(text):
    """Combatant id -> (side, (x, y)) in metres; riders take their vehicle's position."""
    mounts = {m[0]: (float(m[1]), float(m[2])) for m in
              re.findall(r'\(id: "(\w+)", name: "[^"]*", position: \((-?[\d.]+), (-?[\d.]+)\)', text)}
    sides = re.findall(r'\(id: "(\w+)", name: "[^"]*"\)', text)
    out = {}
    for line in re.findall(r'\(id: "\w+", controller: \w+, name: [^\n]*|\(id: "\w+", name: "[^"]*", side: [^\n]*', text):
        cid = re.search(r'id: "(\w+)"', line).group(1)
        side = re.search(r'side: "(\w+)"', line)
        if not side:
            continue
        pos = re.search(r'position: \((-?[\d.]+), (-?[\d.]+)\)', line)
        rides = re.search(r'rides: "(\w+)"', line)
        at = (float(pos.group(1)), float(pos.group(2))) if pos else mounts[rides.group(1)]
        out[cid] = (sides.index(side.group(1)), at)
    return out


def main():
    shot, layout_path, scenario_path = sys.argv[1:4]
    width, height, channels, rows = read_png(shot)
    colours = {tuple(rows[y][x * channels:x * channels + 3]) for y in range(0, height, 7) for x in range(0, width, 7)}
    assert len(colours) > 20, f"the screenshot looks blank: {len(colours)} colours"
    layout = {k.split(":", 1)[1]: v for k, v in layout_file.centres(layout_path).items() if k.startswith("combatant:")}
    scenario = scenario_positions(open(scenario_path).read())
    assert set(layout) == set(scenario), f"tokens {sorted(layout)} but the scenario has {sorted(scenario)}"
    # The scale from the two tokens furthest apart; every other token must fit it.
    ids = sorted(scenario)
    a, b = max(((p, q) for p in ids for q in ids if p < q),
               key=lambda pq: abs(scenario[pq[0]][1][0] - scenario[pq[1]][1][0]))
    (ax, ay), (bx, by) = scenario[a][1], scenario[b][1]
    scale = (layout[b][0] - layout[a][0]) / (bx - ax)
    assert scale > 0, f"the board is mirrored or flat: {scale}"
    ox, oy = layout[a][0] - ax * scale, layout[a][1] + ay * scale
    px_scale = width / 1600
    for cid, (side, (x, y)) in scenario.items():
        want = (ox + x * scale, oy - y * scale)
        got = layout[cid]
        assert abs(got[0] - want[0]) < 3 and abs(got[1] - want[1]) < 3, \
            f"{cid} is drawn at {got}, but its {x} m, {y} m puts it at {want}"
        px, py = int(got[0] * px_scale), int(got[1] * px_scale)
        near = [tuple(rows[py + dy][(px + dx) * channels:(px + dx) * channels + 3])
                for dx in range(-9, 10, 3) for dy in range(-9, 10, 3)]
        # Tokens of one side may overlap at close quarters: any side's colour will do there.
        ok = any(all(abs(c[i] - s[i]) < 30 for i in range(3)) for c in near for s in map(srgb, SIDES))
        assert ok, f"{cid}: no token colour around {px},{py} (saw {near[24]})"
    print(f"fatewalker board ok: {len(colours)} colours, {len(scenario)} tokens where the scenario puts them "
          f"({scale:.1f} px a metre)")


if __name__ == "__main__":
    main()
