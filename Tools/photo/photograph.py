"""A flat document photographed on a table: the page warped by a random perspective onto a wood,
cloth or plain texture, with a soft shadow under it, uneven light, a colour cast, blur, sensor
noise and sometimes a smaller picture. Shared by the card and receipt generators
(`Tools/make-cards`, `Tools/train-receipt-fields/make_receipts.py --images`).

    from photograph import photograph, photograph_with_corners

`photograph(page, rng, nrng)` returns the photo; `photograph_with_corners` also returns where the
page's four corners (top left, top right, bottom right, bottom left) landed in it, for judging
the document camera's page finder. `bend(page, rng)` first curls the page (rows turned by angles that
change down the page), as a slip held in a hand or curling on a table; the corners
`photograph_with_corners` gives are then those of the padded picture, not the page's. `rng` is a `random.Random`, `nrng` a numpy `Generator`.
"""
import math

import numpy as np
from PIL import Image, ImageFilter


def hsv(h, s, v):
    i = int(h * 6) % 6
    f = h * 6 - int(h * 6)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return (int(r * 255), int(g * 255), int(b * 255))



def smooth_noise(h, w, cell, nrng):
    small = nrng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    lo, hi = small.min(), small.max()
    im = Image.fromarray(((small - lo) / (hi - lo + 1e-6) * 255).astype(np.uint8))
    big = np.asarray(im.resize((w, h), Image.Resampling.BICUBIC), dtype=np.float32) / 255.0
    return big * 2 - 1


def table_texture(h, w, rng, nrng):
    kind = rng.choice(["wood", "wood", "gray", "dark", "fabric", "light"])
    if kind == "wood":
        base = np.array(hsv(rng.uniform(0.05, 0.1), rng.uniform(0.35, 0.7), rng.uniform(0.35, 0.8)), np.float32)
        vertical = rng.random() < 0.5
        hh, ww = (w, h) if vertical else (h, w)
        y = np.arange(hh, dtype=np.float32)[:, None]
        x = np.arange(ww, dtype=np.float32)[None, :]
        warp = smooth_noise(hh, ww, rng.randint(60, 160), nrng) * rng.uniform(8, 40)
        period = rng.uniform(7, 22)
        grain = np.sin((y + warp + x * rng.uniform(-0.03, 0.03)) * 2 * np.pi / period)
        streak = smooth_noise(hh, ww, 4, nrng)
        shade = 0.86 + 0.07 * grain + 0.08 * smooth_noise(hh, ww, 220, nrng) + 0.03 * streak
        if vertical:
            shade = shade.T
        arr = base[None, None, :] * shade[:, :, None]
    else:
        if kind == "gray":
            g = rng.uniform(110, 190)
            base = np.array([g, g, g * rng.uniform(0.95, 1.03)], np.float32)
        elif kind == "dark":
            g = rng.uniform(25, 70)
            base = np.array([g, g * rng.uniform(0.95, 1.05), g * rng.uniform(0.95, 1.1)], np.float32)
        elif kind == "fabric":
            base = np.array(hsv(rng.random(), rng.uniform(0.2, 0.5), rng.uniform(0.3, 0.6)), np.float32)
        else:
            g = rng.uniform(200, 230)
            base = np.array([g, g * 0.98, g * 0.95], np.float32)
        shade = 1 + 0.05 * smooth_noise(h, w, 150, nrng) + 0.025 * nrng.standard_normal((h, w)).astype(np.float32)
        arr = base[None, None, :] * shade[:, :, None]
    return np.clip(arr, 0, 255)


def perspective_coeffs(dst, src):
    """Coefficients for Image.transform(PERSPECTIVE): maps output points dst to input points src."""
    a = []
    b = []
    for (x, y), (u, v) in zip(dst, src):
        a.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        b.append(u)
        a.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.append(v)
    return np.linalg.solve(np.array(a, np.float64), np.array(b, np.float64)).tolist()


def bend(page, rng, strength=1.0):
    """The page as a slip that curls or is held in a hand: each printed row stays straight but turns by its own
    angle, which changes smoothly down the page (up to about 4-9 degrees, times `strength`), so that no one
    vanishing point explains the rows. Returns an RGBA picture, taller than the page by the rows' travel, its
    margins transparent."""
    from scipy.ndimage import map_coordinates
    w, h = page.size
    amp = rng.uniform(0.07, 0.16) * strength
    waves = rng.uniform(0.5, 1.5)
    phase = rng.uniform(0, 2 * math.pi)
    tilt = rng.uniform(-0.5, 0.5) * amp
    # A row's travel changes by at most half as fast as the rows' own spacing, so that no two rows cross (on a
    # wide, short page the same angles would fold it).
    fold = (amp * 2 * math.pi * waves + 2 * abs(tilt)) / h * (w / 2)
    if fold > 0.5:
        amp, tilt = amp * 0.5 / fold, tilt * 0.5 / fold

    def slope(y):
        return amp * np.sin(2 * math.pi * waves * y / h + phase) + tilt * (2 * y / h - 1)

    pad = int(math.ceil(w / 2 * (amp * 1.5 + abs(tilt)))) + 4
    H = h + 2 * pad
    yy, xx = np.mgrid[0:H, 0:w].astype(np.float64)
    yo = yy - pad
    y = yo.copy()
    for _ in range(6):
        y = yo - (xx - w / 2) * slope(y)
    src = np.asarray(page.convert("RGB"), np.float64)
    out = np.zeros((H, w, 4), np.float64)
    for c in range(3):
        out[:, :, c] = map_coordinates(src[:, :, c], [y, xx], order=1, mode="nearest")
    out[:, :, 3] = np.where((y >= 0) & (y <= h - 1), 255, 0)
    return Image.fromarray(np.clip(out, 0, 255).astype(np.uint8), "RGBA")


def photograph(card, rng, nrng):
    return photograph_with_corners(card, rng, nrng)[0]


def photograph_with_corners(card, rng, nrng):
    w, h = card.size
    ang = math.radians(rng.uniform(-8, 8))
    ca, sa = math.cos(ang), math.sin(ang)
    src = [(0, 0), (w, 0), (w, h), (0, h)]
    dst = []
    for (x, y) in src:
        cx, cy = x - w / 2, y - h / 2
        rx, ry = cx * ca - cy * sa, cx * sa + cy * ca
        rx += rng.uniform(-0.035, 0.035) * w
        ry += rng.uniform(-0.035, 0.035) * h
        dst.append((rx, ry))
    xs = [p[0] for p in dst]
    ys = [p[1] for p in dst]
    bw = max(int(w * rng.uniform(1.2, 1.6)), int(max(xs) - min(xs)) + 60)
    bh = max(int(h * rng.uniform(1.2, 1.6)), int(max(ys) - min(ys)) + 60)
    ox = rng.uniform(-min(xs) + 25, bw - max(xs) - 25)
    oy = rng.uniform(-min(ys) + 25, bh - max(ys) - 25)
    dst = [(x + ox, y + oy) for x, y in dst]

    coeffs = perspective_coeffs(dst, src)
    rgba = card.convert("RGBA")
    warped = rgba.transform((bw, bh), Image.Transform.PERSPECTIVE, coeffs, Image.Resampling.BICUBIC,
                            fillcolor=(0, 0, 0, 0))
    table = table_texture(bh, bw, rng, nrng)
    # soft shadow under the card
    alpha = warped.getchannel("A")
    shadow = Image.new("L", (bw, bh), 0)
    shadow.paste(alpha, (rng.randint(2, 10), rng.randint(4, 14)))
    shadow = shadow.filter(ImageFilter.GaussianBlur(rng.uniform(6, 16)))
    sh = np.asarray(shadow, np.float32)[:, :, None] / 255.0
    table = table * (1 - rng.uniform(0.25, 0.5) * sh)
    a = np.asarray(alpha, np.float32)[:, :, None] / 255.0
    arr = table * (1 - a) + np.asarray(warped.convert("RGB"), np.float32) * a

    # uneven light: a linear gradient and a soft vignette, sometimes a warm cast
    yy, xx = np.mgrid[0:bh, 0:bw].astype(np.float32)
    th = rng.uniform(0, 2 * math.pi)
    proj = ((xx - bw / 2) * math.cos(th) + (yy - bh / 2) * math.sin(th)) / (0.5 * math.hypot(bw, bh))
    lo, hi = rng.uniform(0.72, 0.9), rng.uniform(1.0, 1.08)
    light = lo + (hi - lo) * (proj + 1) / 2
    rad = np.hypot((xx - bw / 2) / bw, (yy - bh / 2) / bh)
    light = light * (1 - rng.uniform(0.0, 0.25) * rad ** 2)
    arr = arr * light[:, :, None]
    if rng.random() < 0.4:
        arr = arr * np.array([1.0, rng.uniform(0.95, 0.99), rng.uniform(0.86, 0.95)], np.float32)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 1.3)))
    arr = np.asarray(img, np.float32) + nrng.normal(0, rng.uniform(2, 6), (bh, bw, 1)).astype(np.float32)
    img = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    f = 1.0
    if rng.random() < 0.3:
        f = rng.uniform(0.8, 0.95)
        img = img.resize((int(bw * f), int(bh * f)), Image.Resampling.LANCZOS)
    return img, [(x * f, y * f) for x, y in dst]
