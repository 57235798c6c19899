#!/usr/bin/env python3
"""Reads what `fray play --layout-out PATH` wrote: one object per drawing and window
(`window`, `kind`, `id`, `text`, `rect` [x, y, w, h] in that window's pixels).

  layout.py at PATH KEY         prints the centre of KEY ("combatant:ID", "location:ID",
                                "chip:KIND:OWNER", "table:combatant:ID") as "x y", for drags
  layout.py clear PATH ID       fails where a text of ID (e.g. "ruler", the ruler's words while
                                a token is dragged) overlaps another text, or is not drawn
  layout.py check PATH...       fails on two board texts that overlap, two cards that overlap,
                                a card's text covered by a token, a token or a text outside the
                                room its window shows the board in (where that view holds the
                                whole board) or a token cut by the edge of a view that holds
                                part of it, a public token, mount or card neither on the
                                table's screen nor marked in its overview, on the table's
                                screen a font under 2.2% of the
                                window's height or a token under 6%, or in the GM's window a
                                font under 12 px, the roll's box or a pinned card name over
                                a board text or token, on the table's screen a text a view
                                in part cuts at its edge or a card shown without its name;
                                prints the smallest font and token in each window, the token
                                captions the GM's view in part cuts and the lines the table's
                                screen cuts with "…"
"""
import json
import re
import sys

KINDS = {"card": "location", "token": "combatant", "chip": "chip", "mount": "mount"}


def centres(path):
    """The centre of each card, token, mount and chip: keys as `at` takes them."""
    out = {}
    for d in json.load(open(path)):
        if d["kind"] not in KINDS:
            continue
        x, y, w, h = d["rect"]
        key = f"{KINDS[d['kind']]}:{d['id']}"
        if d["window"] == "table":
            key = "table:" + key
        # The first of a kind and owner (the top of a stack of chips is as good as any).
        out.setdefault(key, [x + w / 2, y + h / 2])
    return out


def overlap(a, b, slack=1.0):
    """Whether two rectangles overlap by more than `slack` pixels each way."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return min(ax + aw, bx + bw) - max(ax, bx) > slack and min(ay + ah, by + bh) - max(ay, by) > slack


def inside(a, room, slack=1.0):
    x, y, w, h = a
    rx, ry, rw, rh = room
    return x >= rx - slack and y >= ry - slack and x + w <= rx + rw + slack and y + h <= ry + rh + slack


def problems(drawn):
    """Every overlap, covered card text and token out of view, in words."""
    found = []
    drawn = [d for d in drawn if d.get("shown", True)]
    for window in sorted({d["window"] for d in drawn}):
        mine = [d for d in drawn if d["window"] == window]
        texts = [d for d in mine if d["kind"] == "text"]
        tokens = [d for d in mine if d["kind"] == "token"]
        boards = [d["rect"] for d in mine if d["kind"] == "board"]
        for i, a in enumerate(texts):
            for b in texts[i + 1:]:
                if overlap(a["rect"], b["rect"]):
                    found.append(f"{window}: text {a['text']!r} ({a['id']}) overlaps {b['text']!r} ({b['id']})")
        card_rects = [d for d in mine if d["kind"] == "card"]
        for i, a in enumerate(card_rects):
            for b in card_rects[i + 1:]:
                if overlap(a["rect"], b["rect"]):
                    found.append(f"{window}: card {a['id']} overlaps card {b['id']}")
        cards = {d["id"] for d in card_rects}
        mounts = [d for d in mine if d["kind"] == "mount"]
        for t in texts:
            if t["id"] not in cards:
                continue
            for k in tokens + mounts:
                if overlap(t["rect"], k["rect"]):
                    found.append(f"{window}: card {t['id']}'s text {t['text']!r} is covered by {k['kind']} {k['id']}")
        # A board too big to read whole is shown in part: a token beyond that view is not
        # drawn in it, but none (nor a mount) stands across the view's edge, half shown.
        whole = all(d.get("whole", True) for d in mine if d["kind"] == "board")
        for k in tokens:
            if whole and boards and not any(inside(k["rect"], b) for b in boards):
                found.append(f"{window}: token {k['id']} at {[round(v) for v in k['rect']]} is outside the board {[round(v) for v in boards[0]]}")
        for k in tokens + [d for d in mine if d["kind"] == "mount"]:
            if not whole and boards and any(overlap(k["rect"], b, 2.0) and not inside(k["rect"], b) for b in boards):
                found.append(f"{window}: {k['kind']} {k['id']} at {[round(v) for v in k['rect']]} is cut by the edge of the view {[round(v) for v in boards[0]]}")
        # The table's screen shows every public token, mount and card: in the board's room
        # (a card at least in part), or as a mark in the overview below a board shown in part.
        if window == "table" and boards:
            marked = {d["id"] for d in mine if d["kind"] == "overview"}
            for d in mine:
                if d["kind"] not in ("token", "mount", "card"):
                    continue
                seen = (overlap(d["rect"], b, 2.0) if d["kind"] == "card" else inside(d["rect"], b, 2.0) for b in boards)
                if not any(seen) and f"{KINDS[d['kind']]}:{d['id']}" not in marked:
                    found.append(f"{window}: {d['kind']} {d['id']} at {[round(v) for v in d['rect']]} is off the table's screen and in no overview")
        # Nor is a text cut at a panel's edge (a scenery label, a caption) where the whole board shows.
        for t in texts:
            if whole and boards and not any(inside(t["rect"], b, 2.0) for b in boards):
                found.append(f"{window}: text {t['text']!r} ({t['id']}) at {[round(v) for v in t['rect']]} is cut by the board's edge {[round(v) for v in boards[0]]}")
    return found


def ids_shown(drawn, names, people):
    """Texts in either window that show a stable id where a name belongs: the id as a whole
    word, with its case, where it is no display name nor a word the names use in lower case
    (`keep_archer`, `brig_2`, `lockjaw`; not `road` of "River road")."""
    shown_names = set(names.values())
    # A word the names use in lower case ("road" of "River road", "field" of "the open
    # field") reads as itself; an id that is no such word ("lockjaw" of "Lockjaw Gorgenbrew",
    # "keep_archer") is an id.
    words = {w for n in shown_names for w in re.findall(r"\w+", n) if w[:1].islower()}
    ids = [i for i in names if i not in shown_names and i not in words]
    # A place's or a mount's one-word id ("mill" of "Mill", "grey" of "Grey horse") may be a
    # word of the scenario's title or of the client's own help; a combatant's id, or one with
    # an underscore or a digit, is not.
    ids = [i for i in ids if i in people or re.search(r"[_0-9]", i)]
    if not ids:
        return []
    pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True)) + r")(?![\w])")
    found = []
    for d in drawn:
        if d["kind"] in ("text", "ui") and d.get("text") and d.get("shown", True):
            for m in pattern.finditer(d["text"]):
                found.append(f"{d['window']}: {d['kind']} {d['text']!r} ({d['id']}) shows the id {m.group(1)!r} (its name: {names[m.group(1)]!r})")
    return found


def captions_cut(drawn):
    """Per window, the token captions, chip counts and cards' names and lines a view in part
    cuts at its edge, and the cards it shows without their names (nor a pinned name), as
    (window, words): the framing keeps them whole where that cuts no token, but a crowded
    board (the big board's rows of tokens) can leave one cut. The table's screen leaves such
    a text out and pins the card's name: there, any is a failure; in the GM's window a
    figure."""
    out = []
    drawn = [d for d in drawn if d.get("shown", True)]
    for window in sorted({d["window"] for d in drawn}):
        mine = [d for d in drawn if d["window"] == window]
        boards = [d["rect"] for d in mine if d["kind"] == "board"]
        if not boards or all(d.get("whole", True) for d in mine if d["kind"] == "board"):
            continue
        ids = {d["id"] for d in mine if d["kind"] in ("token", "card")}
        for t in mine:
            if t["kind"] == "text" and t["id"] in ids and any(overlap(t["rect"], b, 2.0) and not inside(t["rect"], b, 2.0) for b in boards):
                out.append((window, f"{window}: {t['text']!r} ({t['id']})"))
        pinned = {d["text"] for d in mine if d["kind"] == "ui" and d["id"] == "pinned name"}
        # A card shown with its name wholly out of view (its topmost text from its top down: a
        # reach word such as "here" may stand above the card) counts too.
        for card in (d for d in mine if d["kind"] == "card"):
            texts = [t for t in mine if t["kind"] == "text" and t["id"] == card["id"] and t["rect"][1] >= card["rect"][1] - 2.0]
            if not texts or not any(overlap(card["rect"], b, 2.0) for b in boards):
                continue
            name = min(texts, key=lambda t: t["rect"][1])
            if not any(overlap(name["rect"], b, 0.0) for b in boards) and name["text"] not in pinned:
                out.append((window, f"{window}: card {card['id']} shown without its name {name['text']!r}"))
    return out


def boxes_over_words(drawn):
    """The board's words and tokens the roll's box or a pinned card name covers, in words:
    each stands only where it covers none (else the roll reads in the bar)."""
    out = []
    drawn = [d for d in drawn if d.get("shown", True)]
    for window in sorted({d["window"] for d in drawn}):
        mine = [d for d in drawn if d["window"] == window]
        under = [d for d in mine if d["kind"] in ("text", "token")]
        for r in (d for d in mine if d["kind"] == "ui" and d["id"] in ("roll", "pinned name")):
            out.extend(f"{window}: the {r['id']} {r['text']!r} covers {t['kind']} {t.get('text') or t['id']!r}" for t in under if overlap(r["rect"], t["rect"]))
    return out


def lines_cut(drawn):
    """The table's screen's lines cut with "…" (a line too long for its room even at the floor)."""
    return [f"{d['window']}: {d['text']!r}" for d in drawn if d["kind"] == "ui" and d["window"] == "table" and d.get("cut")]


def sizes(drawn):
    """The smallest font and token side in each window, and the window's height, in pixels."""
    out = {}
    drawn = [d for d in drawn if d.get("shown", True)]
    for window in sorted({d["window"] for d in drawn}):
        mine = [d for d in drawn if d["window"] == window]
        fonts = [d["font"] for d in mine if d["kind"] == "text"]
        tokens = [min(d["rect"][2], d["rect"][3]) for d in mine if d["kind"] == "token"]
        height = max((d["rect"][3] for d in mine if d["kind"] == "screen"), default=0.0)
        out[window] = (min(fonts, default=0.0), min(tokens, default=0.0), height)
    return out


def too_small(window, font, token, height, slack=0.5):
    """The floors a window's smallest font and token fall under, in words: on the table's
    screen 2.2% of its height for a font and 6% for a token, in the GM's window 12 px for a
    font."""
    if window == "table":
        floors = [("font", font, 0.022 * height), ("token", token, 0.06 * height)]
    else:
        floors = [("font", font, 12.0)]
    return [f"{window}: smallest {what} {have:.1f} px is under {need:.1f} px"
            for what, have, need in floors if have and have + slack < need]


def count(n, thing):
    """`n` things in English: "1 problem", "3 problems"."""
    return f"{n} {thing}" + ("" if n == 1 else "s")


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "at":
        x, y = centres(sys.argv[2])[sys.argv[3]]
        print(int(x), int(y))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "clear":
        drawn = [d for d in json.load(open(sys.argv[2])) if d["kind"] == "text" and d.get("shown", True)]
        mine = [d for d in drawn if d["id"] == sys.argv[3]]
        over = [f"{a['window']}: {a['text']!r} overlaps {b['text']!r} ({b['id']})" for a in mine for b in drawn
                if b is not a and b["window"] == a["window"] and overlap(a["rect"], b["rect"])]
        for o in over:
            print(f"{sys.argv[2]}: {o}")
        if not mine:
            print(f"{sys.argv[2]}: no text of {sys.argv[3]} drawn")
        print(f"{sys.argv[3]}'s words:", [d["text"] for d in mine], "clear" if mine and not over else "NOT clear")
        return 0 if mine and not over else 1
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        failed = 0
        for path in sys.argv[2:]:
            drawn = json.load(open(path))
            names, people = {}, set()
            for d in drawn:
                if d["kind"] == "names":
                    names.update(d["names"])
                    people.update(d.get("combatants", []))
            drawn = [d for d in drawn if d["kind"] != "names"]
            found = problems(drawn) + ids_shown(drawn, names, people) + boxes_over_words(drawn)
            for window, (font, token, height) in sizes(drawn).items():
                whole = all(d.get("whole", True) for d in drawn if d["kind"] == "board" and d["window"] == window)
                shows = "the whole board" if whole else "part of the board"
                print(f"{path}: {window}: smallest font {font:.1f} px, smallest token {token:.1f} px, {shows}")
                found += too_small(window, font, token, height)
            cut_lines = lines_cut(drawn)
            if cut_lines:
                print(f"{path}: {count(len(cut_lines), 'line')} of the table's screen cut with '…': {'; '.join(cut_lines)}")
            cut = captions_cut(drawn)
            found += [words for window, words in cut if window == "table"]
            figures = [words for window, words in cut if window != "table"]
            if figures:
                print(f"{path}: {count(len(figures), 'caption text')} cut at a part view's edge: {'; '.join(figures)}")
            for p in found:
                print(f"{path}: {p}")
                failed += 1
        print("layout check:", "ok" if not failed else count(failed, "problem"))
        return 1 if failed else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
