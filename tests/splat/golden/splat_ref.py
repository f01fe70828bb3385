"""Independent forward reference for the js splat kernels (rlx issue 17).

Written from the text of src/splat/kernels/contract.ts and
src/splat/constants.ts only (not from the TypeScript kernels): NumPy matrix
products for the projection (J @ W @ Sigma @ W.T @ J.T), and a brute-force
rasterizer that, for every pixel, collects the splats whose tile rectangle
contains the pixel's tile, sorts them by (depth, index) and composites.

Run:  /usr/bin/python3 tests/splat/golden/splat_ref.py
Writes tests/splat/golden/splat_ref.json: each scene's inputs (so the test
does not have to replay a random generator) and every output, float64.
"""

import json
import math
import os

import numpy as np

COV2D_BLUR = 0.3
CLAMP_MARGIN = 0.3
RADIUS_SIGMAS = 3
EIGEN_FLOOR = 0.1
ALPHA_MAX = 0.999
ALPHA_MIN = 1 / 255
T_STOP = 1e-4
PIXEL_CENTER = 0.5
SH_OFFSET = 0.5
C0 = 0.28209479177387814
C1 = 0.4886025119029199
C2 = [1.0925484305920792, -1.0925484305920792, 0.31539156525252005, -1.0925484305920792, 0.5462742152960396]
C3 = [-0.5900435899266435, 2.890611442640554, -0.4570457994644658, 0.3731763325901154,
      -0.4570457994644658, 1.445305721320277, -0.5900435899266435]


def sh_basis(d):
    x, y, z = d
    return np.array([
        C0,
        -C1 * y, C1 * z, -C1 * x,
        C2[0] * x * y, C2[1] * y * z, C2[2] * (2 * z * z - x * x - y * y), C2[3] * x * z, C2[4] * (x * x - y * y),
        C3[0] * y * (3 * x * x - y * y), C3[1] * x * y * z, C3[2] * y * (4 * z * z - x * x - y * y),
        C3[3] * z * (2 * z * z - 3 * x * x - 3 * y * y), C3[4] * x * (4 * z * z - x * x - y * y),
        C3[5] * z * (x * x - y * y), C3[6] * x * (x * x - 3 * y * y),
    ])


def quat_to_rot(q):
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def project(sc):
    cam = sc["camera"]
    V = np.array(cam["viewmat"], dtype=np.float64).reshape(4, 4)
    W, tvec = V[:3, :3], V[:3, 3]
    fx, fy, cx, cy = cam["fx"], cam["fy"], cam["cx"], cam["cy"]
    width, height = cam["width"], cam["height"]
    tanx, tany = 0.5 * width / fx, 0.5 * height / fy
    limx_pos, limx_neg = (width - cx) / fx + CLAMP_MARGIN * tanx, cx / fx + CLAMP_MARGIN * tanx
    limy_pos, limy_neg = (height - cy) / fy + CLAMP_MARGIN * tany, cy / fy + CLAMP_MARGIN * tany
    centre = -W.T @ tvec
    n, k, deg = sc["n"], sc["k"], sc["shDegree"]
    means = np.array(sc["means"]).reshape(n, 3)
    quats = np.array(sc["quats"]).reshape(n, 4)
    scales = np.array(sc["scales"]).reshape(n, 3)
    opac = np.array(sc["opacities"])
    coeffs = np.array(sc["coeffs"]).reshape(n, k, 3)
    out = {
        "means2d": np.zeros((n, 2)), "conics": np.zeros((n, 3)), "depths": np.zeros(n),
        "radii": np.zeros(n, dtype=np.int64), "colors": np.zeros((n, 3)), "opacities": np.zeros(n),
    }
    for i in range(n):
        qn = np.linalg.norm(quats[i])
        if qn == 0:
            continue
        R = quat_to_rot(quats[i] / qn)
        M = R @ np.diag(scales[i])
        Sigma = M @ M.T
        t = W @ means[i] + tvec
        tx, ty, tz = t
        if tz <= cam["near"] or tz >= cam["far"]:
            continue
        txc = tz * np.clip(tx / tz, -limx_neg, limx_pos)
        tyc = tz * np.clip(ty / tz, -limy_neg, limy_pos)
        J = np.array([[fx / tz, 0.0, -fx * txc / tz ** 2], [0.0, fy / tz, -fy * tyc / tz ** 2]])
        S2 = J @ W @ Sigma @ W.T @ J.T
        det0 = np.linalg.det(S2)
        S2b = S2 + COV2D_BLUR * np.eye(2)
        det = S2b[0, 0] * S2b[1, 1] - S2b[0, 1] * S2b[1, 0]
        if not det > 0:
            continue
        inv = np.linalg.inv(S2b)
        mid = 0.5 * (S2b[0, 0] + S2b[1, 1])
        lam = mid + math.sqrt(max(EIGEN_FLOOR, mid * mid - det))
        r = math.ceil(RADIUS_SIGMAS * math.sqrt(lam))
        u, v = fx * tx / tz + cx, fy * ty / tz + cy
        if u + r <= 0 or u - r >= width or v + r <= 0 or v - r >= height:
            continue
        if deg < 0:
            col = coeffs[i, 0]
        else:
            d = means[i] - centre
            d = d / np.linalg.norm(d)
            m = (deg + 1) ** 2
            col = np.maximum(0.0, sh_basis(d)[:m] @ coeffs[i, :m] + SH_OFFSET)
        out["means2d"][i] = (u, v)
        out["conics"][i] = (inv[0, 0], inv[0, 1], inv[1, 1])
        out["depths"][i] = tz
        out["radii"][i] = r
        out["colors"][i] = col
        out["opacities"][i] = opac[i] * math.sqrt(max(0.0, det0 / det)) if sc["antialiased"] else opac[i]
    return out


def rasterize(p, width, height, ts, bg):
    n = len(p["depths"])
    rects = {}
    for i in range(n):
        r = int(p["radii"][i])
        if r <= 0:
            continue
        u, v = p["means2d"][i]
        tiles_x, tiles_y = -(-width // ts), -(-height // ts)
        rects[i] = (min(max(math.floor((u - r) / ts), 0), tiles_x), min(max(math.floor((u + r + ts - 1) / ts), 0), tiles_x),
                    min(max(math.floor((v - r) / ts), 0), tiles_y), min(max(math.floor((v + r + ts - 1) / ts), 0), tiles_y))
    image = np.zeros((height, width, 3))
    alpha = np.zeros((height, width))
    depth = np.zeros((height, width))
    final_t = np.zeros((height, width))
    last = np.zeros((height, width), dtype=np.int64)
    for py in range(height):
        for px in range(width):
            tx, ty = px // ts, py // ts
            lst = [i for i, (x0, x1, y0, y1) in rects.items() if x0 <= tx < x1 and y0 <= ty < y1]
            lst.sort(key=lambda i: (p["depths"][i], i))
            T, C, D, li = 1.0, np.zeros(3), 0.0, 0
            pc = np.array([px + PIXEL_CENTER, py + PIXEL_CENTER])
            for pos, i in enumerate(lst):
                dx, dy = p["means2d"][i] - pc
                c0, c1, c2 = p["conics"][i]
                s = 0.5 * (c0 * dx * dx + c2 * dy * dy) + c1 * dx * dy
                if s < 0:
                    continue
                a = min(ALPHA_MAX, p["opacities"][i] * math.exp(-s))
                if a < ALPHA_MIN:
                    continue
                if T * (1 - a) <= T_STOP:
                    break
                C += p["colors"][i] * a * T
                D += p["depths"][i] * a * T
                T *= 1 - a
                li = pos + 1
            image[py, px] = C + T * np.array(bg)
            alpha[py, px] = 1 - T
            depth[py, px] = D
            final_t[py, px] = T
            last[py, px] = li
    return {"image": image, "alpha": alpha, "depth": depth, "finalT": final_t, "lastIndex": last}


def rot_xyz(ax, ay, az):
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rz = np.array([[math.cos(az), -math.sin(az), 0], [math.sin(az), math.cos(az), 0], [0, 0, 1]])
    return rz @ ry @ rx


def make_scene(seed, deg, k, antialiased, angles, width=40, height=30, ts=8):
    rng = np.random.default_rng(seed)
    W = rot_xyz(*angles)
    tvec = np.array([0.2, -0.1, 0.5])
    fx, fy, cx, cy = 36.0, 34.0, 20.3, 14.8
    # camera-space positions first (so visibility is designed), then to world: mu = W^T (t - tvec)
    cams, sc_list = [], []
    for _ in range(24):  # in front and inside the image
        z = rng.uniform(1.5, 6)
        cams.append([rng.uniform(-0.45, 0.45) * z, rng.uniform(-0.35, 0.35) * z, z])
        sc_list.append(rng.uniform(0.05, 0.35, 3))
    special = [
        ([0.3, 0.2, -1.0], [0.2] * 3),        # behind the camera
        ([0.1, -0.2, -3.0], [0.5] * 3),       # behind the camera
        ([0.001, 0.0005, 0.02], [0.1] * 3),   # centre just in front of near: straddles it, covers the image
        ([0.0, 0.0, 0.005], [0.1] * 3),       # centre behind near (near = 0.01): culled
        ([1.0, 1.0, 150.0], [1.0] * 3),       # beyond far (100)
        ([9.0, 0.0, 3.0], [0.05] * 3),        # far right of the image: box-culled
        ([0.0, -7.0, 2.5], [0.05] * 3),       # above the image: box-culled
        ([2.7, 0.3, 3.0], [0.5, 0.6, 0.4]),   # tx/tz = 0.9 beyond the clamp limit, still overlapping the image
        ([-0.4, 0.1, 2.0], [0.0, 0.0, 0.0]),  # zero scale: a blur-sized splat
    ]
    for t, s in special:
        cams.append(t)
        sc_list.append(np.array(s, dtype=np.float64))
    n = len(cams)
    cams = np.array(cams)
    means = (W.T @ (cams - tvec).T).T
    quats = rng.normal(size=(n, 4))
    quats[3] *= 3.7  # not normalised
    scales = np.array(sc_list)
    opac = rng.uniform(0.2, 0.95, n)
    if deg < 0:
        coeffs = rng.uniform(0, 1, (n, 1, 3))
    else:
        coeffs = rng.normal(0, 0.4, (n, k, 3))
    viewmat = np.eye(4)
    viewmat[:3, :3] = W
    viewmat[:3, 3] = tvec
    camera = {"viewmat": viewmat.ravel().tolist(), "fx": fx, "fy": fy, "cx": cx, "cy": cy,
              "width": width, "height": height, "near": 0.01, "far": 100.0}
    return {
        "n": n, "k": k, "shDegree": deg, "antialiased": antialiased, "camera": camera, "tileSize": ts,
        "background": [0.1, 0.25, 0.6],
        "means": means.ravel().tolist(), "quats": quats.ravel().tolist(), "scales": scales.ravel().tolist(),
        "opacities": opac.tolist(), "coeffs": coeffs.ravel().tolist(),
    }


def main():
    scenes = [
        ("colours, antialiased off", make_scene(1, -1, 1, False, (0.0, 0.0, 0.0))),
        ("SH degree 3, antialiased on, rotated camera", make_scene(2, 3, 16, True, (0.3, -0.2, 0.15))),
        ("SH degree 1 of 16 stored, antialiased off, rotated camera", make_scene(3, 1, 16, False, (-0.1, 0.25, -0.3))),
        ("SH degree 2, antialiased on, odd tile size 5", make_scene(4, 2, 9, True, (0.05, 0.1, 0.0), width=23, height=17, ts=5)),
    ]
    out = []
    for name, sc in scenes:
        p = project(sc)
        r = rasterize(p, sc["camera"]["width"], sc["camera"]["height"], sc["tileSize"], sc["background"])
        out.append({
            "name": name, "scene": sc,
            "project": {key: v.ravel().tolist() for key, v in p.items()},
            "raster": {key: v.ravel().tolist() for key, v in r.items()},
        })
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "splat_ref.json")
    with open(path, "w") as f:
        json.dump({"generator": "tests/splat/golden/splat_ref.py (NumPy " + np.__version__ + ")", "cases": out}, f)
    print("wrote", path, [int((np.array(c["project"]["radii"]) > 0).sum()) for c in out], "visible")


if __name__ == "__main__":
    main()
