#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kd --boot --html's page driven with real input events in headless
Chromium, through chromedriver and the W3C WebDriver protocol (HTTP and
JSON: Python's urllib, nothing installed from pip or npm):

  webdriver_check.py PAGE JSON OUTDIR

PAGE (a file) opened; then, as a person would:
  1. a click (pointer move, down, up at the bar's centre, taken from the
     page's own geometry with getBoundingClientRect()) on the bar of the
     longest initcall that has calls in JSON (kd --boot --json of the
     same log): the details panel must name that initcall and list its
     longest calls, JSON's, in order, and the bar be drawn selected;
  2. a turn of the mouse wheel (the Actions API's "wheel" source, one
     scroll up) over the timeline: the time range the page shows must
     shrink (its data-layout's from and to), around the pointer;
and after each, a screenshot checked as html_check.py's shot checks
Chromium's (bars' colours where the geometry puts them, the page drew,
no error on the page).  The browser's console (chromedriver's log,
goog:loggingPrefs) must hold no error or warning from the page.  Writes
OUTDIR/click.{dom,png} and OUTDIR/wheel.{dom,png}.  Exit 0, or 1 with
what failed; exit 77 if chromedriver or chromium is missing.
"""
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import html_check  # noqa: E402


def fail(msg):
    print("webdriver_check:", msg, file=sys.stderr)
    sys.exit(1)


class Driver:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.sid = None

    def call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read().decode() or "{}").get("value")
        except urllib.error.HTTPError as e:
            fail("%s %s: HTTP %d: %s" % (method, path, e.code, e.read().decode()[:500]))

    def s(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.sid, path), body)

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(tmp):
    port = free_port()
    log = open(os.path.join(tmp, "chromedriver.log"), "w")
    proc = subprocess.Popen(["chromedriver", "--port=%d" % port], stdout=log, stderr=log)
    d = Driver(port)
    for _ in range(200):
        try:
            with urllib.request.urlopen(d.base + "/status", timeout=2) as r:
                if json.loads(r.read().decode())["value"].get("ready"):
                    return proc, d
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    proc.kill()
    fail("chromedriver did not start (see %s)" % log.name)


def session(d, tmp):
    profile = os.path.join(tmp, "profile")
    os.makedirs(profile, exist_ok=True)
    caps = {"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": shutil.which("chromium"),
            "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--user-data-dir=" + profile, "--window-size=1200,900",
                     "--force-device-scale-factor=1", "--hide-scrollbars"]},
        "goog:loggingPrefs": {"browser": "ALL"}}}}
    r = d.call("POST", "/session", caps)
    d.sid = r["sessionId"]


def ready(d):
    for _ in range(100):
        if d.js("return document.body && document.body.getAttribute('data-ready');") == "1":
            return
        time.sleep(0.1)
    fail("the page did not finish drawing")


def view(d):
    return json.loads(d.js("return document.getElementById('chart').getAttribute('data-layout');"))


def shot(d, out, name):
    dom, png = os.path.join(out, name + ".dom"), os.path.join(out, name + ".png")
    with open(dom, "w", encoding="utf-8") as f:
        f.write(d.js("return document.documentElement.outerHTML;"))
    with open(png, "wb") as f:
        f.write(base64.b64decode(d.s("GET", "/screenshot")))
    html_check.check_shot(dom, png)


def console(d):
    """The page's console since last asked: its errors and warnings."""
    logs = d.s("POST", "/se/log", {"type": "browser"}) or []
    return [e for e in logs if e.get("level") in ("SEVERE", "WARNING")]


def main():
    page, jpath, out = sys.argv[1:4]
    if not shutil.which("chromedriver") or not shutil.which("chromium"):
        print("webdriver_check: chromedriver or chromium not installed", file=sys.stderr)
        sys.exit(77)
    os.makedirs(out, exist_ok=True)
    rep = json.load(open(jpath, encoding="utf-8"))
    proc, d = start(out)
    try:
        session(d, out)
        d.s("POST", "/url", {"url": "file://" + os.path.abspath(page)})
        ready(d)
        errs = console(d)
        if errs:
            fail("the console after loading: %s" % errs)
        if d.js("return document.querySelector('#detail h2');") is not None:
            fail("an initcall selected before any click")

        # 1. a click on the longest initcall with calls in it, at its bar's centre
        cands = [i for i, ic in enumerate(rep["initcalls"]) if ic["top_calls"] and ic["name"]]
        if not cands:
            fail("no initcall with calls in " + jpath)
        pick = None
        for i in cands:
            box = d.js("var b = document.querySelector('#chart rect.ic[data-i=\"' + arguments[0] + '\"]');"
                       "if (!b) return null; var r = b.getBoundingClientRect();"
                       "return [r.left, r.top, r.width, r.height, innerWidth, innerHeight];", i)
            if box and box[2] >= 4 and box[3] >= 4 and \
                    0 <= box[0] + box[2] / 2 < box[4] and 0 <= box[1] + box[3] / 2 < box[5]:
                pick = (i, box)
                break
        if pick is None:
            fail("no bar of an initcall with calls on the screen to click")
        i, box = pick
        ic = rep["initcalls"][i]
        x, y = int(box[0] + box[2] / 2), int(box[1] + box[3] / 2)
        # what is under the pointer there is the bar itself
        hit = d.js("var e = document.elementFromPoint(arguments[0], arguments[1]);"
                   "return e ? e.getAttribute('data-i') : null;", x, y)
        if hit != str(i):
            fail("at (%d, %d), the centre of initcall %d's bar, the page has %r on top" % (x, y, i, hit))
        d.s("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "x": x, "y": y, "origin": "viewport"},
                        {"type": "pointerDown", "button": 0},
                        {"type": "pointerUp", "button": 0}]}]})
        d.s("DELETE", "/actions")
        got = d.js("var d = document.getElementById('detail'), h = d.querySelector('h2');"
                   "var t = d.querySelectorAll('table'), rows = [];"
                   "if (t.length > 1) t[1].querySelectorAll('tr').forEach(function (r, k) {"
                   "  if (k) rows.push(r.cells[0].textContent); });"
                   "var s = document.querySelector('#chart rect.ic.sel');"
                   "return { h2: h ? h.textContent : null, calls: rows,"
                   "  sel: s ? s.getAttribute('data-i') : null };")
        want = [c["name"] for c in ic["top_calls"]]
        if got["h2"] != ic["name"] or got["calls"] != want or got["sel"] != str(i):
            fail("after a click on initcall %d (%r) at (%d, %d): the panel shows %r" % (i, ic["name"], x, y, got))
        shot(d, out, "click")
        print("click: initcall %d (%s) at (%d, %d): the panel names it and its %d calls" %
              (i, ic["name"], x, y, len(want)))

        # 2. the mouse wheel over the timeline, right of the labels
        v0 = view(d)
        c = d.js("var r = document.getElementById('chart').getBoundingClientRect();"
                 "return [r.left, r.top, r.width, r.height];")
        wx = int(c[0] + v0["x0"] + (v0["x1"] - v0["x0"]) * 0.4)
        wy = int(c[1] + min(c[3] / 2, 60))
        d.s("POST", "/actions", {"actions": [{
            "type": "wheel", "id": "wheel",
            "actions": [{"type": "scroll", "x": wx, "y": wy, "deltaX": 0, "deltaY": -120,
                         "duration": 0, "origin": "viewport"}]}]})
        time.sleep(0.2)
        v1 = view(d)
        span0, span1 = v0["to"] - v0["from"], v1["to"] - v1["from"]
        if not span1 < 0.95 * span0:
            fail("the wheel at (%d, %d): the view went from %.3f-%.3f to %.3f-%.3f us: no zoom" %
                 (wx, wy, v0["from"], v0["to"], v1["from"], v1["to"]))
        at = v0["from"] + (wx - c[0] - v0["x0"]) / (v0["x1"] - v0["x0"]) * span0
        if not v1["from"] - 1e-6 <= at <= v1["to"] + 1e-6:
            fail("the wheel zoomed away from the pointer (%.3f us not in %.3f-%.3f)" % (at, v1["from"], v1["to"]))
        shot(d, out, "wheel")
        print("wheel: at (%d, %d): the view %.3f-%.3f us, then %.3f-%.3f us" %
              (wx, wy, v0["from"], v0["to"], v1["from"], v1["to"]))
        errs = console(d)
        if errs:
            fail("the console: %s" % errs)
    finally:
        if d.sid:
            try:
                d.call("DELETE", "/session/" + d.sid)
            except SystemExit:
                pass
        proc.terminate()
        proc.wait(timeout=30)


if __name__ == "__main__":
    main()
