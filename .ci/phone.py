#!/usr/bin/env python3
"""A phone at the table, through WebDriver (Debian's chromium and chromium-driver, spoken to
over HTTP with the standard library): opens Player 1's page from the host's status file at
390x844, saves a picture, clicks the Slow turn, waits for the page to leave the choice, and
saves the overlay page at 1920x1080 too. Waits on the pages' state, never a fixed time.

Usage: phone.py STATUS_JSON OUT_DIR"""
import base64
import json
import socket
import subprocess
import sys
import time
import urllib.request

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--hide-scrollbars"]
# A phone's screen, as the page sees it.
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 1.0}}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Driver:
    def __init__(self, screen=None):
        self.port = free_port()
        self.process = subprocess.Popen(["chromedriver", f"--port={self.port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.until(lambda: self.ready(), "chromedriver to start")
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": ARGS, "mobileEmulation": screen or PHONE}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def ready(self):
        try:
            return self.call("GET", "/status")["ready"]
        except OSError:
            return False

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.load(answer)["value"]

    def s(self, method, path, body=None):
        return self.call(method, f"/session/{self.session}{path}", body)

    def script(self, code):
        return self.s("POST", "/execute/sync", {"script": code, "args": []})

    def picture(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.s("GET", "/screenshot")))

    @staticmethod
    def until(test, what, limit=60.0):
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            found = test()
            if found:
                return found
            time.sleep(0.1)
        sys.exit(f"waited {limit:.0f} s for {what}")

    def close(self):
        try:
            self.s("DELETE", "")
        finally:
            self.process.kill()


def main():
    host = json.load(open(sys.argv[1]))["host"]
    out = sys.argv[2]
    driver = Driver()
    try:
        driver.s("POST", "/url", {"url": host["seats"][0]["url"]})
        slow = driver.until(lambda: driver.s("POST", "/elements", {"using": "xpath", "value": "//button[contains(., 'Slow turn') and not(@disabled)]"}),
                            "Brann's Slow turn on the page")
        banner = driver.script("return document.getElementById('banner').textContent")
        assert banner == "Your turn: Brann", banner
        driver.picture(f"{out}/phone-page.png")
        element = list(slow[0].values())[0]
        driver.s("POST", f"/element/{element}/click", {})
        # Taken: the page leaves the secret choice (the others had chosen: the fight goes on).
        driver.until(lambda: "Round start" not in driver.script("return document.getElementById('clock').textContent"),
                     "the page to take the choice")
        driver.picture(f"{out}/phone-page-chosen.png")
        driver.close()
        driver = Driver({"deviceMetrics": {"width": 1920, "height": 1080, "pixelRatio": 1.0}})
        driver.s("POST", "/url", {"url": host["overlay"]})
        driver.until(lambda: "Round" in driver.script("return document.getElementById('head').textContent"), "the overlay's view")
        driver.script("document.body.style.background = '#1a3d1a'")
        driver.picture(f"{out}/phone-overlay.png")
        print(f"phone: Player 1's page showed Brann's turn, a click on Slow was taken; pictures in {out}")
    except SystemExit:
        driver.picture(f"{out}/phone-failed.png")
        print(f"the page as it was: {out}/phone-failed.png", file=sys.stderr)
        raise
    finally:
        driver.close()


if __name__ == "__main__":
    main()
