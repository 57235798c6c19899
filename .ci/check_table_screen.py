#!/usr/bin/env python3
"""Checks pictures of the table's screen against the GM's.

  check_table_screen.py secret GM.png TABLE.png
      While the bids are sealed, the GM's board carries magenta bid tags (the colour nothing
      else uses): the GM picture must show them, the table picture (a board, not blank) none.
  check_table_screen.py none PICTURE.png
      No magenta at all (bids revealed, or the GM window in table mode).
  check_table_screen.py plan GM0.png TABLE0.png GM.png TABLE.png LAYOUT.json TARGET
      TP chips (gold) given to TARGET in a harassment being built sit on its token's top on
      the GM's picture, and not on the table's (positions from --layout-out): from the
      pictures before the plan (GM0, TABLE0) to those after it, the gold over the target's
      token grows on the GM's and stays the same on the table's (the target's own TP stack,
      drawn on both, is in both pictures).
  check_table_screen.py hidden GM.png TABLE.png LAYOUT.json ID
      A combatant hidden from the table: its token is drawn where the GM's picture has it,
      and the table's picture shows only the empty field where it stands.
  check_table_screen.py concealed GM.png TABLE.png LAYOUT.json ID
      A combatant the rules conceal, standing on a zone's card: the GM's picture has its
      (faded) token there, the table's only the card's plain colour.
  check_table_screen.py background PICTURE.png RRGGBB
      Most of the picture's edge (the board's empty field) is that chroma-key colour.

Reads PNG with the standard library only (see check_board.py)."""
import sys

import layout as layout_file
from check_board import read_png


def pixels(path):
    width, height, channels, rows = read_png(path)
    for y in range(height):
        row = rows[y]
        for x in range(width):
            yield x, y, tuple(row[x * channels:x * channels + 3])


def magenta(path):
    return sum(1 for _, _, (r, g, b) in pixels(path) if r > 225 and g < 40 and b > 225)


def gold_on_top(path, at):
    """Gold (TP chip) pixels over the upper part of the token centred at `at`."""
    width, height, channels, rows = read_png(path)
    x0, y0 = int(at[0]), int(at[1])
    found = 0
    for y in range(max(0, y0 - 24), min(height, y0 + 2)):
        for x in range(max(0, x0 - 20), min(width, x0 + 20)):
            r, g, b = rows[y][x * channels:x * channels + 3]
            found += r > 200 and 150 < g < 225 and b < 110
    return found


def off_field(path, at, field, half=20, with_colour=False):
    """Pixels not of `field`'s colour in a box of 2 x `half` centred at `at`; `field` None:
    the box's most common colour (a card's, where nothing is drawn on it), returned beside the
    count when `with_colour`."""
    width, height, channels, rows = read_png(path)
    x0, y0 = int(at[0]), int(at[1])
    assert 20 <= x0 < width - 20 and 20 <= y0 < height - 20, f"{path}: {at} is off the picture"
    box = [tuple(rows[y][x * channels:x * channels + 3])
           for y in range(max(0, y0 - half), min(height, y0 + half))
           for x in range(max(0, x0 - half), min(width, x0 + half))]
    if field is None:
        field = max(set(box), key=box.count)
    found = sum(any(abs(a - b) > 6 for a, b in zip(c, field)) for c in box)
    return (found, field) if with_colour else found


def colours(path):
    return len({c for x, y, c in pixels(path) if x % 7 == 0 and y % 7 == 0})


def main():
    mode = sys.argv[1]
    if mode == "secret":
        gm, table = sys.argv[2], sys.argv[3]
        seen, leaked = magenta(gm), magenta(table)
        assert colours(table) > 20, f"{table} looks blank"
        assert seen >= 300, f"{gm}: the GM's board shows no sealed bid tag ({seen} magenta pixels)"
        assert leaked == 0, f"{table}: {leaked} magenta pixels: a sealed bid reached the table's screen"
        print(f"secret choices ok: {seen} tag pixels on the GM's screen, none on the table's")
    elif mode == "none":
        found = magenta(sys.argv[2])
        assert found == 0, f"{sys.argv[2]}: {found} magenta pixels (a sealed bid shown)"
        print(f"{sys.argv[2]}: no sealed bid shown")
    elif mode == "plan":
        import json
        gm0, table0, gm, table, layout, target = sys.argv[2:8]
        places = layout_file.centres(layout)
        gm_at, table_at = places[f"combatant:{target}"], places[f"table:combatant:{target}"]
        before_gm, before_table = gold_on_top(gm0, gm_at), gold_on_top(table0, table_at)
        on_gm, on_table = gold_on_top(gm, gm_at), gold_on_top(table, table_at)
        assert on_gm >= before_gm + 20, f"{gm}: no TP chip added on {target}'s token ({before_gm} then {on_gm} gold pixels)"
        assert on_table == before_table, \
            f"{table}: {before_table} then {on_table} gold pixels on {target}: the unsent plan reached the table"
        print(f"unsent harassment ok: {on_gm - before_gm} chip pixels added on {target} for the GM, none for the table")
    elif mode == "hidden":
        import json
        gm, table, layout, who = sys.argv[2:6]
        places = layout_file.centres(layout)
        field = (27, 35, 31)  # the board's clear colour, (0.11, 0.14, 0.12) in sRGB
        on_gm = off_field(gm, places[f"combatant:{who}"], field)
        on_table = off_field(table, places[f"table:combatant:{who}"], field)
        assert on_gm >= 200, f"{gm}: the GM's board does not show {who} ({on_gm} token pixels)"
        assert on_table == 0, f"{table}: {on_table} pixels of {who} reached the table's screen"
        print(f"hidden combatant ok: {on_gm} token pixels for the GM, none for the table")
    elif mode == "concealed":
        import json
        gm, table, layout, who = sys.argv[2:6]
        places = layout_file.centres(layout)
        on_table, card = off_field(table, places[f"table:combatant:{who}"], None, 12, True)
        # The GM's board draws the same card colour around the (faded) token.
        on_gm = off_field(gm, places[f"combatant:{who}"], card, 12)
        assert on_gm >= 100, f"{gm}: the GM's board does not show {who} ({on_gm} token pixels)"
        assert on_table == 0, f"{table}: {on_table} pixels of {who} reached the table's screen"
        print(f"concealed combatant ok: {on_gm} token pixels for the GM, none for the table")
    elif mode == "background":
        path, hex_ = sys.argv[2], sys.argv[3]
        want = tuple(int(hex_[i:i + 2], 16) for i in (0, 2, 4))
        width, height, channels, rows = read_png(path)
        # Below the bar (and above an overview, where the layout says where the board's room
        # ends), a grid of points: mostly empty field (the board may be shown in part, its
        # cards at the window's edges).
        end = height
        if len(sys.argv) > 4:
            import json
            room = next(d["rect"] for d in json.load(open(sys.argv[4])) if d["kind"] == "board" and d["window"] == "table")
            end = int(room[1] + room[3])
        edge = [tuple(rows[y][x * channels:x * channels + 3])
                for y in range(height // 4, end, 9) for x in range(2, width, 9)]
        near = sum(1 for c in edge if all(abs(a - b) < 8 for a, b in zip(c, want)))
        assert near >= len(edge) * 0.6, f"{path}: only {near} of {len(edge)} field points are #{hex_}"
        print(f"{path}: background #{hex_} ({near} of {len(edge)} field points)")
    elif mode == "lower-third":
        # The strip along the bottom: the bar's backdrop with words on it, and the table's board
        # (every token in it, layout.py checks) ending above it.
        path, layout, strip = sys.argv[2], sys.argv[3], float(sys.argv[4])
        width, height, channels, rows = read_png(path)
        import json
        drawn = json.load(open(layout))
        board = [d["rect"] for d in drawn if d["kind"] == "board" and d["window"] == "table"]
        assert board, f"{layout}: no table board"
        bottom = board[0][1] + board[0][3]
        # A board shown in part has its overview between it and the lower third.
        marks = [d["rect"] for d in drawn if d["kind"] == "overview" and d["window"] == "table"]
        if marks:
            below = [r for r in marks if not (bottom - 2 <= r[1] and r[1] + r[3] <= height - strip + 2)]
            assert bottom < height - strip and not below, f"{layout}: overview marks {below[:3]} not between the board's end {bottom} and the strip at {height - strip}"
        else:
            assert abs(bottom - (height - strip)) < 2, f"{layout}: the board ends at {bottom}, not above the strip at {height - strip}"
        backdrop, words = 0, 0
        for y in range(int(height - strip) + 4, height - 2, 2):
            for x in range(4, width - 4, 3):
                c = tuple(rows[y][x * channels:x * channels + 3])
                if all(abs(a - b) < 6 for a, b in zip(c, (18, 20, 19))):
                    backdrop += 1
                elif max(c) > 150:
                    words += 1
        assert backdrop > 0.6 * (backdrop + words), f"{path}: the strip is not the bar's backdrop"
        assert words > 200, f"{path}: no words in the lower third ({words} bright pixels)"
        print(f"{path}: lower third ok ({words} bright pixels of words, the board above it)")
    else:
        raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
