#!/usr/bin/env python3
"""Reads a --layout-out file of the ford (fast_slow_crossing) for seat-check:
  where TEXT PART       the centre of the GM window's egui text starting with TEXT in PART
  sealed-for-the-gm     the GM's view tags the AI's sealed choices; the table window shows none
  only-brann            Player 1's view: no other combatant's choice or tag, no token the table
                        does not see, in the board or the panels; Brann's own choices offered
  revealed              every combatant's choice in its caption, in both windows"""
import json
import sys

OTHERS = {"ysolde": "Ysolde", "odo": "Odo", "gorm": "Gorm", "bandit_a": "Bandit", "bandit_b": "Bandit archer"}
CHOICES = ("Fast", "Slow")


def texts(drawn, window, kind):
    return [d for d in drawn if d["window"] == window and d["kind"] == kind and d.get("text")]


def tags(drawn, window):
    """Board texts on another combatant's token saying a choice and nothing else (a tag)."""
    return [d for d in texts(drawn, window, "text") if d["id"] in OTHERS and d["text"].strip() in CHOICES]


def main():
    drawn = json.load(open(sys.argv[1]))
    what = sys.argv[2]
    if what == "where":
        start, part = sys.argv[3], sys.argv[4]
        found = [d for d in texts(drawn, "gm", "ui") if d["id"] == part and d["text"].startswith(start)]
        assert found, f"no '{start}…' in the GM window's {part}: {[d['text'] for d in texts(drawn, 'gm', 'ui')]}"
        x, y, w, h = found[0]["rect"]
        print(int(x + w / 2), int(y + h / 2))
        return
    if what == "sealed-for-the-gm":
        gm, table = tags(drawn, "gm"), tags(drawn, "table")
        assert len(gm) == len(OTHERS), f"the GM's view tags every sealed choice: {gm}"
        assert not table, f"the table window shows sealed choices: {table}"
        assert texts(drawn, "table", "ui"), "no egui text recorded for the table window"
        print(f"sealed for the GM: {len(gm)} tags in the GM's window, none on the table's")
        return
    if what == "only-brann":
        found = tags(drawn, "gm") + tags(drawn, "table")
        for d in texts(drawn, "gm", "ui") + texts(drawn, "gm", "text"):
            words = d["text"]
            for name in OTHERS.values():
                said = name in words.replace("Bandit archer", "") if name == "Bandit" else name in words
                if said and any(c in words for c in CHOICES):
                    found.append(d)
        assert not found, f"another combatant's choice on screen in Player 1's view: {found}"
        shown = {d["id"] for d in drawn if d["kind"] == "token" and d["window"] == "gm" and d.get("shown", True)}
        public = {d["id"] for d in drawn if d["kind"] == "token" and d["window"] == "table" and d.get("shown", True)}
        assert shown <= public | {"brann"}, f"tokens the table does not see: {shown - public}"
        decisions = [d["text"] for d in texts(drawn, "gm", "ui") if d["id"] == "decisions"]
        assert "Brann decides" in decisions, decisions
        assert any(t.startswith("Fast turn") for t in decisions) and any(t.startswith("Slow turn") for t in decisions), decisions
        print(f"Player 1's view: {len(shown)} tokens, Brann's choices, no other's choice or tag")
        return
    if what == "revealed":
        for window in ("gm", "table"):
            captions = {d["id"]: d["text"] for d in texts(drawn, window, "text") if d["id"] in OTHERS or d["id"] == "brann"}
            said = {who for who, words in captions.items() if any(c in words for c in CHOICES)}
            assert said == set(OTHERS) | {"brann"}, f"{window}: choices shown for {sorted(said)} only: {captions}"
            brann = sys.argv[3] if len(sys.argv) > 3 else "Fast"
            assert brann in captions["brann"], captions["brann"]
        print("revealed on both windows: every combatant's Fast or Slow in its caption")
        return
    sys.exit(f"unknown check {what}")


if __name__ == "__main__":
    main()
