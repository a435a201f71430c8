#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The scenario report's HTML page rendered by headless Chromium: the DOM after
# load holds the tables and the SVG plots with their text, and a screenshot
# shows them drawn (the plot colours are on the picture, the page is not blank).
# Skips (exit 77) only where Chromium is not installed: tools/install-deps.sh
# --test installs it, as make check does.
. "$SRCDIR/tests/cli/lib.sh"

chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "SKIP: chromium is not installed (tools/install-deps.sh --test installs Debian's chromium)"
	exit 77
fi

expect_exit 0 "$IDLELAB" scenario run "$SRCDIR/tests/fixtures/scenario/tiny.ini" --quick --quiet \
	--output "$TMP/r"
[ -s "$TMP/r/report.html" ] || { bad "no report.html"; finish; exit 1; }

browse() {
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$TMP/profile-$1" \
		--window-size=1200,2600 "${@:2}" "file://$TMP/r/report.html" 2>"$TMP/chromium-$1.log"
}

browse dom --dump-dom >"$TMP/dom.html" && ok || { bad "chromium --dump-dom failed"; cat "$TMP/chromium-dom.log" >&2; }
python3 - "$TMP/dom.html" <<'EOF' && ok || bad "the rendered DOM lacks the tables or the plots"
import sys
from html.parser import HTMLParser

class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.tables, self.tbodies, self.svgs = [], [], 0, []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.tables.append({"class": a.get("class"), "id": a.get("data-table"), "text": "", "cells": 0})
        if tag == "tbody" and self.tables:
            self.tbodies += 1          # inserted by the browser's parser: the page was parsed
        if tag == "td" and self.tables:
            self.tables[-1]["cells"] += 1
        if tag == "svg":
            self.svgs.append({"text": "", "polyline": 0, "circle": 0, "rect": 0, "viewBox": a.get("viewbox")})
        if self.svgs and "svg" in self.stack and tag in ("polyline", "circle", "rect"):
            self.svgs[-1][tag] += 1
        if tag not in ("br", "meta", "circle", "rect", "line", "polyline"):
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if tag in self.stack:
            while self.stack and self.stack.pop() != tag:
                pass
    def handle_data(self, data):
        if "table" in self.stack and self.tables:
            self.tables[-1]["text"] += data
        if "svg" in self.stack and self.svgs:
            self.svgs[-1]["text"] += data

d = Dom()
d.feed(open(sys.argv[1], encoding="utf-8").read())
sc = [t for t in d.tables if t["class"] == "scenario"]
assert len(sc) == 1 and sc[0]["id"] == "sweep", d.tables
t = sc[0]["text"]
for want in ("menu usage", "menu above %", "teo above %", "published", "simulated", "diff", "1.50", "10.0"):
    assert want in t, want
assert sc[0]["cells"] == 3 * 9, sc[0]["cells"]
assert any(x["class"] == "checks" and "FAIL" in x["text"] and "PASS" in x["text"] for x in d.tables)
assert any(x["class"] == "sensitivity" and "x0.5" in x["text"] for x in d.tables)
assert d.tbodies >= 3, d.tbodies
assert len(d.svgs) == 2, len(d.svgs)
above, runs = d.svgs
assert "above % against the interval" in above["text"] and "menu above %, published" in above["text"]
assert above["polyline"] >= 3 and above["circle"] >= 9, above
assert "idle entries of each run" in runs["text"] and runs["polyline"] == 0 and runs["circle"] >= 4, runs
EOF

browse shot --screenshot="$TMP/shot.png" >/dev/null && ok || { bad "chromium --screenshot failed"; cat "$TMP/chromium-shot.log" >&2; }
python3 - "$TMP/shot.png" <<'EOF' && ok || bad "the screenshot is blank or lacks the plots"
import struct, sys, zlib

def png_pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and not interlace, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows

w, h, bpp, rows = png_pixels(sys.argv[1])
assert (w, h) == (1200, 2600), (w, h)
counts, nonwhite = {}, 0
for line in rows:
    for x in range(0, w * bpp, bpp):
        px = tuple(line[x:x + 3])
        counts[px] = counts.get(px, 0) + 1
        nonwhite += px != (255, 255, 255)
assert nonwhite > 0.02 * w * h, nonwhite
assert len(counts) > 20, len(counts)
# the first two series colours of src/report/plot.c (#1f77b4, #d62728), drawn by the SVG
def near(c, ref):
    return all(abs(a - b) <= 12 for a, b in zip(c, ref))
blue = sum(n for c, n in counts.items() if near(c, (0x1f, 0x77, 0xb4)))
red = sum(n for c, n in counts.items() if near(c, (0xd6, 0x27, 0x28)))
assert blue > 100 and red > 50, (blue, red)
EOF
finish
