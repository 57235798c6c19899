#!/usr/bin/env python3
"""Checks a board screenshot: not blank, and each location card drawn where the scenario puts
it (the card colour at the card's centre, as reported by `fray play --layout-out`).

Usage: check_board.py SCREENSHOT.png LAYOUT.json
Reads PNG with the standard library only (8-bit RGB or RGBA, not interlaced)."""
import json

import layout as layout_file
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            if depth != 8 or colour not in (2, 6) or interlace:
                raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour {colour})")
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], (prev[i - channels] if i >= channels else 0)
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def main():
    shot, layout_path = sys.argv[1], sys.argv[2]
    width, height, channels, rows = read_png(shot)
    layout = layout_file.centres(layout_path)
    colours = set()
    for y in range(0, height, 7):
        for x in range(0, width, 7):
            colours.add(tuple(rows[y][x * channels:x * channels + 3]))
    assert len(colours) > 20, f"the screenshot looks blank: {len(colours)} colours"
    cards = {k: v for k, v in layout.items() if k.startswith("location:")}
    assert cards, "the layout names no location card"
    # The logical layout may be scaled to physical pixels.
    scale = width / 1600
    for name, (x, y) in cards.items():
        px, py = int(x * scale), int(y * scale)
        assert 0 <= px < width and 0 <= py < height, f"{name} is off screen at {px},{py}"
        r, g, b = rows[py][px * channels:px * channels + 3]
        # The card colour (0.78, 0.72, 0.58) in sRGB, give or take text drawn on it.
        # Tokens stand in a card's upper rows: look across its middle and lower part too.
        near = [(rows[py + dy][(px + dx) * channels:(px + dx) * channels + 3])
                for dx in (-40, -20, 0, 20, 40) for dy in (-8, 0, 8, 16, 24)
                if 0 <= py + dy < height and 0 <= px + dx < width]
        ok = any(abs(c[0] - 199) < 25 and abs(c[1] - 184) < 25 and abs(c[2] - 148) < 30 for c in near)
        assert ok, f"{name}: no card colour around {px},{py} (saw {r},{g},{b})"
    print(f"board ok: {len(colours)} colours, {len(cards)} cards where the scenario puts them")


if __name__ == "__main__":
    main()
