"""`tableref serve` prints the host link and, under it, a terminal QR code of that link (issue 19):
the host scans it with a phone instead of typing a 32-character token. The printed code is read
back here with OpenCV's QR decoder, so the test fails if the code is not the host's link."""
from __future__ import annotations

import cv2
import numpy as np
from helpers import start_tableref

# the half-block characters of a compact terminal QR code: (upper half dark?, lower half dark?)
BLOCKS = {"█": (1, 1), "▀": (1, 0), "▄": (0, 1), " ": (0, 0)}


def read_rest(proc, until: str) -> list[str]:
    lines = []
    for line in proc.stdout:
        lines.append(line.rstrip("\n"))
        if until in line:
            break
    return lines


def code_after(lines: list[str], label: str) -> list[str]:
    at = next(i for i, l in enumerate(lines) if label in l)
    block = []
    for line in lines[at + 1:]:
        if not line.strip() or set(line) - set(BLOCKS):
            break
        block.append(line)
    return block


def decode(block: list[str]) -> str:
    """The text of a compact terminal QR code ("" if unreadable); segno draws light modules as
    blocks (for dark terminals), so both polarities are tried."""
    width = max(len(l) for l in block)
    img = np.zeros((2 * len(block), width), np.uint8)
    for y, line in enumerate(block):
        for x, ch in enumerate(line.ljust(width)):
            img[2 * y, x], img[2 * y + 1, x] = BLOCKS[ch]
    # OpenCV's classic detector misses about 1 code in 100 at one scale (a port such as 37211 makes
    # such a code), so a few scales and the ArUco-based detector are tried before giving up.
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        for pixels in (img * 255, (1 - img) * 255):
            for scale in (8, 5, 6, 10):
                big = cv2.resize(pixels.astype(np.uint8), None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
                big = cv2.copyMakeBorder(big, 32, 32, 32, 32, cv2.BORDER_CONSTANT, value=255)
                text, _, _ = detector.detectAndDecode(big)
                if text:
                    return text
    return ""


def test_serve_prints_a_qr_code_of_the_host_link_and_one_of_the_viewer_link(tmp_path):
    proc, base, out = start_tableref("serve", "--data", str(tmp_path), "--host-token", "qr-test-token-0123456")
    try:
        lines = out.splitlines() + read_rest(proc, "listening on")
    finally:
        proc.terminate()
        proc.wait(10)
    host_link = next(l for l in lines if "host (keep private):" in l).split()[-1]
    assert host_link == f"{base}/t/main#token=qr-test-token-0123456"
    assert decode(code_after(lines, "scan with the host's phone")) == host_link
    assert decode(code_after(lines, "scan to join as a viewer")) == f"{base}/t/main"
