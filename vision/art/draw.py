"""Drawing primitives shared by the card designs (PIL, drawn supersampled for smooth edges)."""
from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .style import FONT_DIR

SUPERSAMPLE = 2


@lru_cache(maxsize=256)
def font(name: str, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / name), max(4, int(px)))


def rounded_rect(draw: ImageDraw.ImageDraw, box, radius, fill):
    draw.rounded_rectangle([int(v) for v in box], radius=max(1, int(radius)), fill=fill)


def ellipse_points(cx, cy, a, b, angle_deg=0.0, n=120):
    """Points of an ellipse with semi-axes a (horizontal) and b (vertical), rotated clockwise on
    screen (y down) by angle_deg."""
    t = math.radians(angle_deg)
    ct, st = math.cos(t), math.sin(t)
    pts = []
    for i in range(n):
        u = 2 * math.pi * i / n
        x, y = a * math.cos(u), b * math.sin(u)
        pts.append((cx + x * ct - y * st, cy + x * st + y * ct))
    return pts


def rotate_points(pts, cx, cy, angle_deg):
    t = math.radians(angle_deg)
    ct, st = math.cos(t), math.sin(t)
    return [(cx + (x - cx) * ct - (y - cy) * st, cy + (x - cx) * st + (y - cy) * ct) for x, y in pts]


def text_image(text: str, font_name: str, height: float, fill, stroke_frac=0.0, stroke_fill=(0, 0, 0, 255),
               shadow=None, underline=False) -> Image.Image:
    """`text` drawn so that its ink is about `height` pixels tall, on a transparent image cropped to
    the ink (plus outline, shadow and underline)."""
    probe = font(font_name, 100)
    l, t, r, b = probe.getbbox(text)
    ink_h = max(1, b - t)
    f = font(font_name, 100 * height / ink_h)
    sw = int(round(stroke_frac * height))
    l, t, r, b = f.getbbox(text, stroke_width=sw)
    pad = int(height * 0.12) + 2
    shadow_off = int(round(shadow * height)) if shadow else 0
    under_h = int(height * 0.09) if underline else 0
    w = r - l + 2 * pad + shadow_off
    h = b - t + 2 * pad + shadow_off + (under_h * 2 if underline else 0)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    x, y = pad - l, pad - t
    if shadow_off:
        d.text((x + shadow_off, y + shadow_off), text, font=f, fill=stroke_fill, stroke_width=sw,
               stroke_fill=stroke_fill)
    d.text((x, y), text, font=f, fill=fill, stroke_width=sw, stroke_fill=stroke_fill)
    if underline:
        uy = pad + (b - t) + under_h // 2
        ux0, ux1 = pad + (r - l) * 0.12, pad + (r - l) * 0.88
        if shadow_off:
            d.rectangle([ux0 + shadow_off, uy + shadow_off, ux1 + shadow_off, uy + under_h + shadow_off],
                        fill=stroke_fill)
        d.rectangle([ux0 - sw, uy - sw, ux1 + sw, uy + under_h + sw], fill=stroke_fill)
        d.rectangle([ux0, uy, ux1, uy + under_h], fill=fill)
    return img.crop(img.getbbox() or (0, 0, w, h))


def paste_center(canvas: Image.Image, piece: Image.Image, cx: float, cy: float, max_w=None, max_h=None,
                 angle=0.0):
    """Alpha-composites `piece` centred at (cx, cy), shrunk to fit max_w x max_h, rotated by angle."""
    if angle:
        piece = piece.rotate(-angle, resample=Image.BICUBIC, expand=True)
    scale = 1.0
    if max_w:
        scale = min(scale, max_w / piece.width)
    if max_h:
        scale = min(scale, max_h / piece.height)
    if scale < 1.0:
        piece = piece.resize((max(1, int(piece.width * scale)), max(1, int(piece.height * scale))),
                             Image.LANCZOS)
    canvas.alpha_composite(piece, (int(round(cx - piece.width / 2)), int(round(cy - piece.height / 2))))


def arrow_polygon(x0, y0, x1, y1, shaft, head_w, head_len):
    """A straight arrow from (x0, y0) to the tip (x1, y1) as one polygon."""
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    ux, uy = dx / length, dy / length
    nx, ny = -uy, ux
    bx, by = x1 - ux * head_len, y1 - uy * head_len
    s, hw = shaft / 2, head_w / 2
    return [(x0 + nx * s, y0 + ny * s), (bx + nx * s, by + ny * s), (bx + nx * hw, by + ny * hw), (x1, y1),
            (bx - nx * hw, by - ny * hw), (bx - nx * s, by - ny * s), (x0 - nx * s, y0 - ny * s)]


def bent_arrow_polygon(tail, bend, tip, shaft, head_w, head_len):
    """An arrow from `tail` that turns once at `bend` and ends at the tip `tip`, as one polygon
    (mitred at the bend, so that an outline drawn round it has no seam inside)."""
    (tx, ty), (kx, ky), (x1, y1) = tail, bend, tip

    def unit(dx, dy):
        n = math.hypot(dx, dy) or 1.0
        return dx / n, dy / n
    ax, ay = unit(kx - tx, ky - ty)
    ux, uy = unit(x1 - kx, y1 - ky)
    bx, by = x1 - ux * head_len, y1 - uy * head_len
    s, hw = shaft / 2, head_w / 2

    def mitre(side):
        # where the tail's side line meets the head shaft's side line
        px, py = tx - ay * s * side, ty + ax * s * side
        qx, qy = kx - uy * s * side, ky + ux * s * side
        det = ax * -uy - ay * -ux
        if abs(det) < 1e-9:
            return qx, qy
        t = ((qx - px) * -uy - (qy - py) * -ux) / det
        return px + ax * t, py + ay * t
    n = (-uy, ux)
    return [(tx - ay * s, ty + ax * s), mitre(1), (bx + n[0] * s, by + n[1] * s), (bx + n[0] * hw, by + n[1] * hw),
            (x1, y1), (bx - n[0] * hw, by - n[1] * hw), (bx - n[0] * s, by - n[1] * s), mitre(-1),
            (tx + ay * s, ty - ax * s)]


def outlined_polygon(draw, pts, fill, outline, width):
    if width > 0:
        draw.polygon(pts, fill=outline)
        # outline by drawing the polygon's edges thick, then the fill inset by drawing it on top
        draw.line(pts + [pts[0]], fill=outline, width=int(width * 2), joint="curve")
    draw.polygon(pts, fill=fill)


def rounded_mask(w: int, h: int, radius: float) -> Image.Image:
    m = Image.new("L", (w, h), 0)
    ImageDraw.Draw(m).rounded_rectangle([0, 0, w - 1, h - 1], radius=max(1, int(radius)), fill=255)
    return m
