#!/usr/bin/env python3
"""Draws Fray's bundled token emblems, condition marks and board maps (Pillow only, no inputs):
run it from the repository root to write assets/art/emblems/*.png, assets/art/marks/*.png and
assets/art/maps/*.png again.

Emblems are light figures with a dark outline on a transparent ground, so that a token's
disc (its side's colour and rim pattern) shows round and behind them. Maps are plain ground
textures (no walls or roads drawn on them, since cards are laid out by the board), except
the street of the FateWalker ambush, drawn in metres to match its scenario.
"""
import math
import os
import random

from PIL import Image, ImageDraw, ImageFilter

S = 256  # drawn at twice the size, then halved: smooth edges
LIGHT = (246, 238, 214, 255)
DARK = (30, 24, 18, 255)
OUT = "assets/art"


def canvas():
    return Image.new("RGBA", (S, S), (0, 0, 0, 0))


def finish(img, name):
    os.makedirs(f"{OUT}/emblems", exist_ok=True)
    # A dark outline: the figure's alpha grown by a few pixels, under the figure.
    alpha = img.getchannel("A").filter(ImageFilter.MaxFilter(9))
    outline = Image.new("RGBA", (S, S), DARK)
    outline.putalpha(alpha)
    outline.alpha_composite(img)
    outline.resize((128, 128), Image.LANCZOS).save(f"{OUT}/emblems/{name}.png")


def poly(d, points, fill=LIGHT):
    d.polygon([(x * S, y * S) for x, y in points], fill=fill)


def helm():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rounded_rectangle((0.27 * S, 0.24 * S, 0.73 * S, 0.78 * S), radius=0.2 * S, fill=LIGHT)
    d.rectangle((0.33 * S, 0.47 * S, 0.67 * S, 0.52 * S), fill=(0, 0, 0, 0))  # the visor's slit
    d.rectangle((0.485 * S, 0.52 * S, 0.515 * S, 0.7 * S), fill=(0, 0, 0, 0))
    poly(d, [(0.5, 0.24), (0.6, 0.1), (0.68, 0.14), (0.56, 0.26)])  # a plume
    return img


def bow():
    img = canvas(); d = ImageDraw.Draw(img)
    d.arc((0.18 * S, 0.16 * S, 0.62 * S, 0.84 * S), -80, 80, fill=LIGHT, width=int(0.06 * S))
    d.line((0.47 * S, 0.2 * S, 0.47 * S, 0.8 * S), fill=LIGHT, width=int(0.015 * S))  # string
    d.line((0.25 * S, 0.5 * S, 0.8 * S, 0.5 * S), fill=LIGHT, width=int(0.03 * S))  # arrow
    poly(d, [(0.8, 0.45), (0.88, 0.5), (0.8, 0.55)])
    poly(d, [(0.25, 0.5), (0.2, 0.44), (0.31, 0.5), (0.2, 0.56)])
    return img


def axes():
    img = canvas(); d = ImageDraw.Draw(img)
    for flip in (1, -1):
        cx = 0.5
        line = [(cx - 0.25 * flip, 0.8), (cx + 0.2 * flip, 0.22)]
        d.line([(x * S, y * S) for x, y in line], fill=LIGHT, width=int(0.05 * S))
        head = [(cx + 0.12 * flip, 0.2), (cx + 0.34 * flip, 0.14), (cx + 0.3 * flip, 0.38), (cx + 0.16 * flip, 0.34)]
        poly(d, head)
    return img


def gear():
    img = canvas(); d = ImageDraw.Draw(img)
    teeth = 8
    points = []
    for i in range(teeth * 4):
        a = i / (teeth * 4) * math.tau
        r = 0.36 if (i // 2) % 2 == 0 else 0.27
        points.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    poly(d, points)
    d.ellipse((0.41 * S, 0.41 * S, 0.59 * S, 0.59 * S), fill=(0, 0, 0, 0))
    return img


def tower():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.32, 0.82), (0.36, 0.34), (0.64, 0.34), (0.68, 0.82)])
    for i in range(3):  # battlements
        x = 0.3 + i * 0.15
        d.rectangle((x * S, 0.2 * S, (x + 0.1) * S, 0.36 * S), fill=LIGHT)
    d.rounded_rectangle((0.45 * S, 0.62 * S, 0.55 * S, 0.82 * S), radius=0.05 * S, fill=(0, 0, 0, 0))
    return img


def imp():
    img = canvas(); d = ImageDraw.Draw(img)
    d.ellipse((0.3 * S, 0.32 * S, 0.7 * S, 0.8 * S), fill=LIGHT)
    poly(d, [(0.33, 0.45), (0.2, 0.15), (0.42, 0.36)])  # horns
    poly(d, [(0.67, 0.45), (0.8, 0.15), (0.58, 0.36)])
    for x in (0.42, 0.58):  # eyes
        poly(d, [(x - 0.06, 0.5), (x + 0.06, 0.53), (x - 0.04, 0.57)], fill=(0, 0, 0, 0))
    d.arc((0.4 * S, 0.58 * S, 0.6 * S, 0.72 * S), 20, 160, fill=(0, 0, 0, 0), width=int(0.025 * S))
    return img


def shield():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.28, 0.2), (0.72, 0.2), (0.72, 0.5), (0.5, 0.84), (0.28, 0.5)])
    d.rectangle((0.47 * S, 0.26 * S, 0.53 * S, 0.7 * S), fill=(0, 0, 0, 0))
    d.rectangle((0.34 * S, 0.4 * S, 0.66 * S, 0.46 * S), fill=(0, 0, 0, 0))
    return img


def horse():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.62, 0.16), (0.7, 0.3), (0.78, 0.62), (0.7, 0.7), (0.6, 0.62), (0.46, 0.56),
             (0.4, 0.84), (0.24, 0.84), (0.3, 0.5), (0.44, 0.3), (0.54, 0.24)])
    poly(d, [(0.55, 0.24), (0.6, 0.12), (0.64, 0.22)])  # an ear
    d.ellipse((0.6 * S, 0.34 * S, 0.66 * S, 0.4 * S), fill=(0, 0, 0, 0))
    return img


def boar():
    img = canvas(); d = ImageDraw.Draw(img)
    d.ellipse((0.22 * S, 0.3 * S, 0.72 * S, 0.72 * S), fill=LIGHT)
    poly(d, [(0.66, 0.42), (0.86, 0.5), (0.84, 0.62), (0.66, 0.64)])  # snout
    poly(d, [(0.3, 0.34), (0.26, 0.18), (0.4, 0.3)])  # ear
    poly(d, [(0.7, 0.6), (0.8, 0.7), (0.74, 0.56)], fill=(0, 0, 0, 0))  # tusk
    d.ellipse((0.58 * S, 0.42 * S, 0.63 * S, 0.47 * S), fill=(0, 0, 0, 0))
    return img


def sword():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.45, 0.62), (0.45, 0.18), (0.5, 0.08), (0.55, 0.18), (0.55, 0.62)])  # blade
    d.rectangle((0.28 * S, 0.61 * S, 0.72 * S, 0.68 * S), fill=LIGHT)  # guard
    d.rectangle((0.465 * S, 0.68 * S, 0.535 * S, 0.82 * S), fill=LIGHT)  # grip
    d.ellipse((0.43 * S, 0.8 * S, 0.57 * S, 0.92 * S), fill=LIGHT)  # pommel
    return img


def dagger():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.4, 0.56), (0.5, 0.14), (0.6, 0.56)])  # a short, broad blade
    d.rounded_rectangle((0.3 * S, 0.55 * S, 0.7 * S, 0.62 * S), radius=0.03 * S, fill=LIGHT)
    d.rectangle((0.46 * S, 0.62 * S, 0.54 * S, 0.78 * S), fill=LIGHT)
    d.ellipse((0.43 * S, 0.76 * S, 0.57 * S, 0.88 * S), fill=LIGHT)
    return img


def spear():
    img = canvas(); d = ImageDraw.Draw(img)
    d.line((0.28 * S, 0.88 * S, 0.66 * S, 0.32 * S), fill=LIGHT, width=int(0.06 * S))
    poly(d, [(0.58, 0.34), (0.8, 0.1), (0.74, 0.42)])  # the head
    poly(d, [(0.56, 0.42), (0.5, 0.34), (0.66, 0.36)])
    return img


def crossbow():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rectangle((0.47 * S, 0.22 * S, 0.53 * S, 0.86 * S), fill=LIGHT)  # the stock
    d.arc((0.18 * S, 0.26 * S, 0.82 * S, 0.7 * S), 195, 345, fill=LIGHT, width=int(0.05 * S))  # the bow
    d.line((0.21 * S, 0.4 * S, 0.5 * S, 0.56 * S), fill=LIGHT, width=int(0.012 * S))  # string
    d.line((0.79 * S, 0.4 * S, 0.5 * S, 0.56 * S), fill=LIGHT, width=int(0.012 * S))
    poly(d, [(0.44, 0.2), (0.5, 0.1), (0.56, 0.2)])  # the bolt's head
    return img


def staff():
    img = canvas(); d = ImageDraw.Draw(img)
    d.line((0.36 * S, 0.88 * S, 0.58 * S, 0.34 * S), fill=LIGHT, width=int(0.045 * S))
    # A star at its head.
    points = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = 0.17 if i % 2 == 0 else 0.07
        points.append((0.62 + r * math.cos(a), 0.24 + r * math.sin(a)))
    poly(d, points)
    return img


def fist():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rounded_rectangle((0.28 * S, 0.3 * S, 0.72 * S, 0.66 * S), radius=0.08 * S, fill=LIGHT)
    for i in range(3):  # the fingers' creases
        x = 0.39 + i * 0.11
        d.line((x * S, 0.3 * S, x * S, 0.46 * S), fill=(0, 0, 0, 0), width=int(0.02 * S))
    d.rounded_rectangle((0.2 * S, 0.38 * S, 0.36 * S, 0.56 * S), radius=0.06 * S, fill=LIGHT)  # thumb
    d.rectangle((0.36 * S, 0.64 * S, 0.66 * S, 0.86 * S), fill=LIGHT)  # wrist
    return img


def club():
    img = canvas(); d = ImageDraw.Draw(img)
    d.line((0.3 * S, 0.84 * S, 0.5 * S, 0.46 * S), fill=LIGHT, width=int(0.06 * S))
    d.ellipse((0.42 * S, 0.14 * S, 0.74 * S, 0.52 * S), fill=LIGHT)
    for x, y in ((0.5, 0.22), (0.66, 0.3), (0.58, 0.44)):  # knots
        d.ellipse(((x - 0.025) * S, (y - 0.025) * S, (x + 0.025) * S, (y + 0.025) * S), fill=(0, 0, 0, 0))
    return img


def wolf():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.24, 0.14), (0.4, 0.32), (0.6, 0.32), (0.76, 0.14), (0.78, 0.46), (0.64, 0.66),
             (0.5, 0.86), (0.36, 0.66), (0.22, 0.46)])
    for x in (0.4, 0.6):  # eyes
        poly(d, [(x - 0.06, 0.46), (x + 0.06, 0.46), (x, 0.51)], fill=(0, 0, 0, 0))
    d.ellipse((0.46 * S, 0.72 * S, 0.54 * S, 0.79 * S), fill=(0, 0, 0, 0))  # nose
    return img


def wyrm():
    img = canvas(); d = ImageDraw.Draw(img)
    # A winged serpent's head in profile: horn, jaw, a wing behind.
    poly(d, [(0.18, 0.7), (0.34, 0.46), (0.5, 0.36), (0.7, 0.4), (0.86, 0.52), (0.72, 0.58),
             (0.82, 0.66), (0.56, 0.66), (0.4, 0.82)])
    poly(d, [(0.5, 0.38), (0.44, 0.12), (0.58, 0.36)])  # horn
    poly(d, [(0.34, 0.46), (0.14, 0.18), (0.3, 0.26), (0.38, 0.16), (0.44, 0.4)])  # wing
    d.ellipse((0.62 * S, 0.44 * S, 0.68 * S, 0.5 * S), fill=(0, 0, 0, 0))
    return img


def pistol():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rectangle((0.18 * S, 0.32 * S, 0.8 * S, 0.44 * S), fill=LIGHT)  # slide
    poly(d, [(0.52, 0.44), (0.74, 0.44), (0.7, 0.8), (0.54, 0.8), (0.5, 0.62)])  # grip
    d.arc((0.38 * S, 0.4 * S, 0.56 * S, 0.62 * S), 40, 180, fill=LIGHT, width=int(0.025 * S))  # guard
    return img


def rifle():
    img = canvas(); d = ImageDraw.Draw(img)
    # Crosshairs: a marksman.
    d.ellipse((0.2 * S, 0.2 * S, 0.8 * S, 0.8 * S), outline=LIGHT, width=int(0.05 * S))
    for a, b in (((0.5, 0.1), (0.5, 0.4)), ((0.5, 0.6), (0.5, 0.9)), ((0.1, 0.5), (0.4, 0.5)), ((0.6, 0.5), (0.9, 0.5))):
        d.line((a[0] * S, a[1] * S, b[0] * S, b[1] * S), fill=LIGHT, width=int(0.04 * S))
    return img


def flame():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.5, 0.1), (0.64, 0.34), (0.7, 0.24), (0.78, 0.5), (0.72, 0.74), (0.5, 0.86),
             (0.28, 0.74), (0.22, 0.5), (0.32, 0.3), (0.38, 0.42)])
    poly(d, [(0.5, 0.46), (0.6, 0.64), (0.5, 0.78), (0.4, 0.64)], fill=(0, 0, 0, 0))
    return img


def car():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rounded_rectangle((0.12 * S, 0.46 * S, 0.88 * S, 0.66 * S), radius=0.05 * S, fill=LIGHT)  # body
    poly(d, [(0.26, 0.46), (0.36, 0.3), (0.64, 0.3), (0.76, 0.46)])  # cabin
    d.rectangle((0.4 * S, 0.34 * S, 0.49 * S, 0.44 * S), fill=(0, 0, 0, 0))  # windows
    d.rectangle((0.52 * S, 0.34 * S, 0.62 * S, 0.44 * S), fill=(0, 0, 0, 0))
    for x in (0.28, 0.72):
        d.ellipse(((x - 0.08) * S, 0.58 * S, (x + 0.08) * S, 0.74 * S), fill=LIGHT)
        d.ellipse(((x - 0.03) * S, 0.63 * S, (x + 0.03) * S, 0.69 * S), fill=(0, 0, 0, 0))
    return img


def cart():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rectangle((0.14 * S, 0.36 * S, 0.8 * S, 0.56 * S), fill=LIGHT)  # the bed
    d.line((0.8 * S, 0.5 * S, 0.94 * S, 0.42 * S), fill=LIGHT, width=int(0.03 * S))  # shaft
    d.ellipse((0.3 * S, 0.5 * S, 0.54 * S, 0.74 * S), fill=LIGHT)  # wheel
    d.ellipse((0.39 * S, 0.59 * S, 0.45 * S, 0.65 * S), fill=(0, 0, 0, 0))
    for x in (0.3, 0.47, 0.64):  # planks
        d.line((x * S, 0.36 * S, x * S, 0.5 * S), fill=(0, 0, 0, 0), width=int(0.015 * S))
    return img


def toad():
    img = canvas(); d = ImageDraw.Draw(img)
    d.ellipse((0.2 * S, 0.36 * S, 0.8 * S, 0.8 * S), fill=LIGHT)  # body
    for x in (0.34, 0.66):  # eyes on top
        d.ellipse(((x - 0.1) * S, 0.24 * S, (x + 0.1) * S, 0.44 * S), fill=LIGHT)
        d.ellipse(((x - 0.04) * S, 0.3 * S, (x + 0.04) * S, 0.38 * S), fill=(0, 0, 0, 0))
    d.arc((0.3 * S, 0.44 * S, 0.7 * S, 0.64 * S), 20, 160, fill=(0, 0, 0, 0), width=int(0.025 * S))  # mouth
    return img


def mug():
    img = canvas(); d = ImageDraw.Draw(img)
    d.rounded_rectangle((0.26 * S, 0.3 * S, 0.62 * S, 0.82 * S), radius=0.04 * S, fill=LIGHT)
    d.arc((0.52 * S, 0.4 * S, 0.8 * S, 0.7 * S), -90, 90, fill=LIGHT, width=int(0.05 * S))  # handle
    for x in (0.3, 0.42, 0.54):  # foam
        d.ellipse(((x - 0.07) * S, 0.2 * S, (x + 0.09) * S, 0.36 * S), fill=LIGHT)
    for x in (0.36, 0.52):  # staves
        d.line((x * S, 0.42 * S, x * S, 0.76 * S), fill=(0, 0, 0, 0), width=int(0.015 * S))
    return img


def sling():
    img = canvas(); d = ImageDraw.Draw(img)
    d.ellipse((0.56 * S, 0.18 * S, 0.78 * S, 0.4 * S), fill=LIGHT)  # the stone
    d.arc((0.2 * S, 0.2 * S, 0.66 * S, 0.86 * S), 100, 290, fill=LIGHT, width=int(0.03 * S))  # the cords
    d.line((0.32 * S, 0.26 * S, 0.58 * S, 0.3 * S), fill=LIGHT, width=int(0.03 * S))
    d.ellipse((0.34 * S, 0.74 * S, 0.46 * S, 0.86 * S), fill=LIGHT)  # the knot
    return img


def hood():
    img = canvas(); d = ImageDraw.Draw(img)
    poly(d, [(0.5, 0.12), (0.74, 0.4), (0.8, 0.86), (0.2, 0.86), (0.26, 0.4)])
    d.ellipse((0.34 * S, 0.36 * S, 0.66 * S, 0.72 * S), fill=(0, 0, 0, 0))  # the shadowed face
    for x in (0.43, 0.57):  # eyes in the dark
        d.ellipse(((x - 0.025) * S, 0.5 * S, (x + 0.025) * S, 0.55 * S), fill=LIGHT)
    return img


# Condition marks: a pictogram on a round badge whose colour says what kind of state it is
# (red: harm, amber: hampered, violet: the mind, green: to one's good), drawn on a token's rim.
HARM, HAMPERED, MIND, GOOD = (150, 28, 28, 255), (168, 104, 16, 255), (96, 52, 140, 255), (36, 116, 60, 255)
CLEAR = (0, 0, 0, 0)


def badge(colour, draw):
    img = canvas(); d = ImageDraw.Draw(img)
    d.ellipse((0.02 * S, 0.02 * S, 0.98 * S, 0.98 * S), fill=DARK)
    d.ellipse((0.08 * S, 0.08 * S, 0.92 * S, 0.92 * S), fill=colour)
    draw(d)
    return img


def line(d, a, b, width, fill=LIGHT):
    d.line((a[0] * S, a[1] * S, b[0] * S, b[1] * S), fill=fill, width=int(width * S))


def ring(d, box, width, fill=LIGHT):
    d.ellipse(tuple(v * S for v in box), outline=fill, width=int(width * S))


def disc(d, box, fill=LIGHT):
    d.ellipse(tuple(v * S for v in box), fill=fill)


def star(d, cx, cy, r, points=5, fill=LIGHT):
    pts = []
    for i in range(points * 2):
        a = math.pi / points * i - math.pi / 2
        k = r if i % 2 == 0 else r * 0.45
        pts.append((cx + k * math.cos(a), cy + k * math.sin(a)))
    poly(d, pts, fill)


def eye(d):
    d.chord((0.22 * S, 0.34 * S, 0.78 * S, 0.66 * S), 180, 360, fill=LIGHT)
    d.chord((0.22 * S, 0.34 * S, 0.78 * S, 0.66 * S), 0, 180, fill=LIGHT)
    disc(d, (0.42, 0.42, 0.58, 0.58), DARK)


def mark_blinded(d):
    eye(d)
    line(d, (0.26, 0.74), (0.74, 0.26), 0.07, DARK)
    line(d, (0.26, 0.74), (0.74, 0.26), 0.035)


def mark_choked(d):
    disc(d, (0.38, 0.2, 0.62, 0.44))  # a head
    d.rectangle((0.44 * S, 0.42 * S, 0.56 * S, 0.6 * S), fill=LIGHT)  # a neck
    line(d, (0.3, 0.5), (0.7, 0.52), 0.06, DARK)  # the grip across it
    poly(d, [(0.3, 0.6), (0.7, 0.6), (0.78, 0.8), (0.22, 0.8)])  # shoulders


def mark_defenseless(d):
    poly(d, [(0.5, 0.2), (0.76, 0.3), (0.72, 0.58), (0.5, 0.8), (0.28, 0.58), (0.24, 0.3)])
    line(d, (0.52, 0.2), (0.44, 0.42), 0.05, DARK)  # the crack
    line(d, (0.44, 0.42), (0.56, 0.56), 0.05, DARK)
    line(d, (0.56, 0.56), (0.48, 0.8), 0.05, DARK)


def mark_disarmed(d):
    d.rounded_rectangle((0.32 * S, 0.44 * S, 0.68 * S, 0.78 * S), radius=0.08 * S, fill=LIGHT)  # palm
    for i, x in enumerate((0.35, 0.45, 0.55, 0.65)):  # open fingers
        top = 0.22 if i in (1, 2) else 0.28
        d.rounded_rectangle(((x - 0.04) * S, top * S, (x + 0.04) * S, 0.5 * S), radius=0.04 * S, fill=LIGHT)
    line(d, (0.3, 0.58), (0.18, 0.46), 0.07)  # the thumb


def mark_helpless(d):
    ring(d, (0.18, 0.34, 0.52, 0.68), 0.07)  # shackles
    ring(d, (0.48, 0.34, 0.82, 0.68), 0.07)


def mark_incapacitated(d):
    line(d, (0.5, 0.2), (0.5, 0.56), 0.08)
    poly(d, [(0.34, 0.52), (0.66, 0.52), (0.5, 0.7)])
    d.rectangle((0.24 * S, 0.74 * S, 0.76 * S, 0.8 * S), fill=LIGHT)


def mark_inspired(d):
    star(d, 0.5, 0.52, 0.32)


def mark_intimidated(d):
    for y in (0.26, 0.46):  # chevrons down
        poly(d, [(0.24, y), (0.5, y + 0.2), (0.76, y), (0.76, y + 0.1), (0.5, y + 0.3), (0.24, y + 0.1)])


def mark_intoxicated(d):
    d.rounded_rectangle((0.28 * S, 0.34 * S, 0.6 * S, 0.78 * S), radius=0.04 * S, fill=LIGHT)
    d.arc((0.5 * S, 0.42 * S, 0.76 * S, 0.68 * S), -90, 90, fill=LIGHT, width=int(0.05 * S))
    for x in (0.32, 0.44, 0.56):
        disc(d, (x - 0.07, 0.24, x + 0.07, 0.38))


def zee(d, x, y, size, width):
    line(d, (x, y), (x + size, y), width)
    line(d, (x + size, y), (x, y + size), width)
    line(d, (x, y + size), (x + size, y + size), width)


def mark_knocked_out(d):
    zee(d, 0.24, 0.46, 0.26, 0.06)
    zee(d, 0.54, 0.24, 0.2, 0.05)


def mark_prone(d):
    disc(d, (0.16, 0.42, 0.34, 0.6))  # the head, lying down
    d.rounded_rectangle((0.34 * S, 0.44 * S, 0.84 * S, 0.58 * S), radius=0.06 * S, fill=LIGHT)
    d.rectangle((0.14 * S, 0.66 * S, 0.86 * S, 0.7 * S), fill=LIGHT)  # the ground


def mark_slain(d):
    d.ellipse((0.26 * S, 0.2 * S, 0.74 * S, 0.64 * S), fill=LIGHT)  # a skull
    d.rectangle((0.36 * S, 0.56 * S, 0.64 * S, 0.78 * S), fill=LIGHT)
    disc(d, (0.34, 0.38, 0.46, 0.5), DARK)
    disc(d, (0.54, 0.38, 0.66, 0.5), DARK)
    for x in (0.44, 0.5, 0.56):
        line(d, (x, 0.66), (x, 0.78), 0.02, DARK)


def mark_stunned(d):
    for cx, cy, r in ((0.3, 0.56, 0.12), (0.5, 0.36, 0.14), (0.7, 0.56, 0.12)):
        star(d, cx, cy, r)


def mark_surprised(d):
    d.rounded_rectangle((0.44 * S, 0.18 * S, 0.56 * S, 0.6 * S), radius=0.05 * S, fill=LIGHT)
    disc(d, (0.43, 0.68, 0.57, 0.82))


def mark_on_fire(d):
    poly(d, [(0.5, 0.16), (0.62, 0.36), (0.68, 0.28), (0.76, 0.5), (0.7, 0.72), (0.5, 0.84),
             (0.3, 0.72), (0.24, 0.5), (0.34, 0.32), (0.4, 0.42)])
    poly(d, [(0.5, 0.48), (0.6, 0.64), (0.5, 0.76), (0.4, 0.64)], fill=HARM)


def mark_unseen(d):
    d.arc((0.22 * S, 0.26 * S, 0.78 * S, 0.62 * S), 20, 160, fill=LIGHT, width=int(0.06 * S))  # a closed lid
    for x0, x1 in ((0.32, 0.26), (0.5, 0.5), (0.68, 0.74)):  # lashes
        line(d, (x0, 0.6), (x1, 0.74), 0.045)


def mark_bleeding(d):
    poly(d, [(0.5, 0.16), (0.68, 0.5), (0.32, 0.5)])
    disc(d, (0.31, 0.38, 0.69, 0.78))


MARKS = [
    (mark_blinded, HAMPERED), (mark_choked, HARM), (mark_defenseless, HAMPERED),
    (mark_disarmed, HAMPERED), (mark_helpless, HAMPERED), (mark_incapacitated, HAMPERED),
    (mark_inspired, GOOD), (mark_intimidated, MIND), (mark_intoxicated, MIND),
    (mark_knocked_out, HAMPERED), (mark_prone, HAMPERED), (mark_slain, HARM),
    (mark_stunned, HAMPERED), (mark_surprised, HAMPERED), (mark_on_fire, HARM),
    (mark_unseen, GOOD), (mark_bleeding, HARM),
]


def marks():
    os.makedirs(f"{OUT}/marks", exist_ok=True)
    for draw, colour in MARKS:
        name = draw.__name__[len("mark_"):]
        badge(colour, draw).resize((64, 64), Image.LANCZOS).save(f"{OUT}/marks/{name}.png")


def ground(w, h, base, spread, seed, blur=2):
    """A mottled ground: noise in `base` colour, `spread` either way, softened."""
    rng = random.Random(seed)
    small = Image.new("RGB", (w // 8, h // 8))
    px = small.load()
    for y in range(h // 8):
        for x in range(w // 8):
            k = rng.uniform(-1, 1)
            px[x, y] = tuple(max(0, min(255, int(c + k * s))) for c, s in zip(base, spread))
    return small.resize((w, h), Image.BICUBIC).filter(ImageFilter.GaussianBlur(blur))


def maps():
    os.makedirs(f"{OUT}/maps", exist_ok=True)
    # Trampled earth and grass for the castle: dark enough under light cards and text.
    ground(800, 450, (48, 56, 40), (10, 12, 8), 1).save(f"{OUT}/maps/castle_ground.png")
    # A marsh: dark water and reeds.
    marsh = ground(800, 450, (30, 48, 44), (8, 14, 10), 2)
    d = ImageDraw.Draw(marsh)
    rng = random.Random(3)
    for _ in range(400):
        x, y = rng.uniform(0, 800), rng.uniform(0, 450)
        d.line((x, y, x + rng.uniform(-3, 3), y - rng.uniform(6, 14)), fill=(66, 82, 52), width=1)
    marsh.save(f"{OUT}/maps/swamp_marsh.png")
    # Vell Street at night, 10 pixels a metre, centred on (0, 0), y up: 80 by 50 metres.
    w, h, m = 800, 500, 10
    street = ground(w, h, (34, 34, 38), (5, 5, 6), 4)
    d = ImageDraw.Draw(street)
    def px(x, y):
        return (w / 2 + x * m, h / 2 - y * m)
    d.rectangle((*px(-40, 4), *px(40, -4)), fill=(44, 44, 50))  # the road, 8 m wide
    for x in range(-40, 40, 6):  # its centre line
        d.rectangle((*px(x, 0.15), *px(x + 3, -0.15)), fill=(150, 140, 90))
    d.rectangle((*px(-40, 7), *px(40, 4)), fill=(58, 56, 56))  # pavements
    d.rectangle((*px(-40, -4), *px(40, -7)), fill=(58, 56, 56))
    street.save(f"{OUT}/maps/vell_street.png")
    # Grounds for the other scenarios, plain so that they never contradict the rules' own
    # scenery: a meadow, a forest floor, flagstones, planks, cobbles and scree.
    ground(960, 560, (52, 64, 40), (12, 14, 8), 4).save(f"{OUT}/maps/meadow.png")
    forest = ground(800, 560, (40, 46, 32), (12, 12, 8), 5)
    d = ImageDraw.Draw(forest)
    rng = random.Random(6)
    for _ in range(160):  # fallen leaves
        x, y = rng.uniform(0, 800), rng.uniform(0, 560)
        d.ellipse((x, y, x + rng.uniform(3, 6), y + rng.uniform(2, 4)), fill=(70, 58, 34))
    forest.save(f"{OUT}/maps/forest_floor.png")
    tiles(880, 560, 40, (58, 58, 62), (38, 38, 42), 7).save(f"{OUT}/maps/flagstones.png")
    planks(800, 560, 8).save(f"{OUT}/maps/planks.png")
    tiles(1000, 600, 20, (66, 62, 58), (40, 38, 36), 9).save(f"{OUT}/maps/cobbles.png")
    ground(1000, 600, (64, 60, 56), (16, 16, 16), 10, blur=1).save(f"{OUT}/maps/scree.png")


def tiles(w, h, size, stone, joint, seed):
    """Stones `size` pixels wide in rows, each a shade of `stone`, with `joint` between."""
    rng = random.Random(seed)
    img = Image.new("RGB", (w, h), joint)
    d = ImageDraw.Draw(img)
    for row, y in enumerate(range(0, h, size)):
        offset = (row % 2) * size // 2
        for x in range(-offset, w, size):
            k = rng.uniform(-8, 8)
            shade = tuple(int(c + k) for c in stone)
            d.rectangle((x + 2, y + 2, x + size - 2, y + size - 2), fill=shade)
    return img.filter(ImageFilter.GaussianBlur(1))


def planks(w, h, seed):
    """Floorboards across the picture, with their grain."""
    rng = random.Random(seed)
    img = Image.new("RGB", (w, h), (34, 24, 16))
    d = ImageDraw.Draw(img)
    board = 28
    for y in range(0, h, board):
        base = (72 + rng.randint(-8, 8), 50 + rng.randint(-6, 6), 32 + rng.randint(-4, 4))
        end = rng.randint(120, 400)
        for x0, x1 in ((0, end), (end + 2, w)):
            d.rectangle((x0, y + 1, x1, y + board - 2), fill=base)
        for _ in range(6):  # grain
            gy = y + rng.randint(4, board - 5)
            d.line((0, gy, w, gy + rng.randint(-2, 2)), fill=tuple(c - 10 for c in base), width=1)
    return img.filter(ImageFilter.GaussianBlur(0.6))


if __name__ == "__main__":
    emblems = [helm, bow, axes, gear, tower, imp, shield, horse, boar, sword, dagger, spear, crossbow,
               staff, fist, club, wolf, wyrm, pistol, rifle, flame, car, cart, toad, mug, sling, hood]
    for draw in emblems:
        finish(draw(), draw.__name__)
    marks()
    maps()
