#!/usr/bin/env python3
"""Waits for the window's state, never for a fixed time: polls a JSON file the app writes
(`--status-out` or `--layout-out`) until a Python expression over it (named `s`) is true.

Usage: wait.py FILE EXPRESSION [SECONDS]   (default 240 s; exit 1, printing the last state,
when it does not come). The file is written atomically by the app, so a read sees it whole.
`log(path)` reads a JSON Lines log for expressions that look at what the rules did."""
import json
import sys
import time


def log(path):
    try:
        return [json.loads(line) for line in open(path) if line.strip()]
    except (OSError, ValueError):
        return []


def main():
    path, expression = sys.argv[1], sys.argv[2]
    limit = float(sys.argv[3]) if len(sys.argv) > 3 else 240.0
    deadline = time.monotonic() + limit
    last = None
    while time.monotonic() < deadline:
        try:
            s = json.load(open(path))
            last = s
            if eval(expression, {"log": log}, {"s": s}):
                return
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            pass
        time.sleep(0.1)
    print(f"waited {limit:.0f} s for `{expression}` in {path}; last state: {last}", file=sys.stderr)
    sys.exit(1)


if __name__ == "__main__":
    main()
