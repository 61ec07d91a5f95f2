#!/usr/bin/env python3
"""gpu_msm_model.py -- the counted model of the device MSM's bucket accumulation (src/gpu/msm_core.cuh),
used for docs/perf/gpu.md's diagnosis and predictions (issue #14). Stdlib only.

For one MSM shape (n general scalars, uniform, window c, group, lanes) it follows msm_accumulate's
plan with EXPECTED Poisson bucket sizes: per affine round the entries, pairs, k (pairs per inversion),
lanes used, Fp products (6 per chord + 483/k for the lane's inversion; G2: 17 + 483/k), and the
global-memory bytes the round kernel moves (v1: lane-contiguous chunks over AoS points; v2: the
interleaved lane mapping over SoA planes); then the XYZZ tail (10 Fp products per mixed addition,
G2 28). Time models: compute = products / rate; memory = bytes / bandwidth; "serial" = compute +
memory (each warp waits for its loads: what the 2026-12-01 run fits), "overlap" = max of the two.

Usage: gpu_msm_model.py [--g2] [--rate G] [--bw TB] LOG_N [C] ...   (defaults: G1, 26.6 G/s, 1.7 TB/s)
       gpu_msm_model.py --table      the rows of docs/perf/gpu.md
"""
import math
import sys

INV = 483          # Fp products of fe_inv_vartime (4-bit windows)
LANES_G1 = 132 * 512   # 128 registers: 4 blocks of 128 per SM
LANES_G2 = 132 * 256   # 208 registers: 2 blocks
KMIN, KMAX, TAIL = 128, 1024, 32


def poisson(lam, hi=None):
    """pmf of Poisson(lam) as a list (tail below 1e-12 dropped)"""
    if hi is None:
        hi = int(lam + 12 * math.sqrt(lam + 1) + 20)
    out, p = [], math.exp(-lam) if lam < 700 else 0.0
    if p == 0.0:  # large lam: start from the mode in log space
        for m in range(hi + 1):
            out.append(math.exp(-lam + m * math.log(lam) - math.lgamma(m + 1)))
        return out
    for m in range(hi + 1):
        out.append(p)
        p *= lam / (m + 1)
    return out


def plan(n, c, g2=False, windows_per_group=None, kmin=KMIN, tail=TAIL, lanes=None, item_cap=None):
    """the rounds of msm_accumulate for n uniform scalars; returns per-group summaries summed over W"""
    W = (256 + c - 1) // c
    B = 1 << (c - 1)
    if item_cap is None:
        item_cap = (1 << 26) if g2 else (1 << 27)
    gw = windows_per_group or max(1, min(W, item_cap // n))
    lanes = lanes or (LANES_G2 if g2 else LANES_G1)
    chord = 17 if g2 else 6
    madd = 28 if g2 else 10
    pt = 192 if g2 else 96
    # bucket populations: full windows get lam = n / B per bucket; the top window only the buckets
    # below r / 2^(c (W-1)) (r < 2^254.86)
    top_bits = 254.86 - c * (W - 1)
    top_b = max(1.0, min(B, 2 ** (top_bits - 1)))
    groups = []
    for j0 in range(0, W, gw):
        g = min(gw, W - j0)
        wins = list(range(j0, j0 + g))
        # mixture of bucket classes: (count of buckets, lam)
        classes = []
        for j in wins:
            if j == W - 1:
                classes.append((top_b, n / top_b))
            else:
                classes.append((B, n / B))
        groups.append(classes)
    tot = dict(rounds=[], madds=0, tail_tasks=0, prod=0.0, prod_tail=0.0, bytes_v1=0.0, bytes_v2=0.0,
               lane_rounds=0.0, pairs=0.0)
    for classes in groups:
        # distributions of entries per bucket for each class
        dists = [(cnt, poisson(lam)) for cnt, lam in classes]
        total = sum(cnt * sum(m * p for m, p in enumerate(d)) for cnt, d in dists)
        rnd = 0
        while True:
            nxt = sum(cnt * sum(((m + 1) // 2) * p for m, p in enumerate(d)) for cnt, d in dists)
            pairs = total - nxt
            if pairs < 1 or pairs < lanes * tail:
                break
            k = min(KMAX, max(kmin, math.ceil(pairs / lanes)))
            chunk = 2 * k
            nl = min(lanes, math.ceil(total / chunk))
            singles = nxt - pairs
            prod = pairs * chord + nl * INV * max(1, math.ceil(math.ceil(total / chunk) / nl))
            # v1 bytes: forward x's (round 0 gathered AoS: 2 x 64 B; later lane-contiguous AoS: 128 B),
            # items 8 B (round 0), pre+info 56 B w + 56 B r, backward P,Q 192 B, result 96 B; singles 2 pt
            b1 = pairs * (128 + 56 + 56 + 2 * pt + pt + (16 if rnd == 0 else 0)) + singles * 2 * pt
            # v2 bytes: forward x's 96 B (SoA) / round 0 gathered 128 B, pre 48 + entry 4 (w and r),
            # backward 192 B, result 96 B, seg/plan 12 B per entry
            b2 = pairs * ((128 if rnd == 0 else 2 * pt // 2) + 52 + 52 + 2 * pt + pt + (16 if rnd == 0 else 0)) \
                + singles * 2 * pt + total * 12
            tot['rounds'].append(dict(r=rnd, total=total, pairs=pairs, k=k, nl=nl, inv_per_pair=nl * INV / pairs,
                                      prod=prod, b1=b1, b2=b2))
            tot['prod'] += prod
            tot['bytes_v1'] += b1
            tot['bytes_v2'] += b2
            tot['pairs'] += pairs
            dists = [(cnt, halve(d)) for cnt, d in dists]
            total = nxt
            rnd += 1
        # XYZZ tail: tasks of <= 32 entries (mixed additions), then levels of full additions
        ent = dists
        level = 0
        while True:
            tasks = sum(cnt * sum(math.ceil(m / 32) * p for m, p in enumerate(d)) for cnt, d in ent)
            cur = sum(cnt * sum(m * p for m, p in enumerate(d)) for cnt, d in ent)
            if level > 0 and tasks >= cur - 1e-9:
                break
            adds = cur - tasks
            tot['madds' if level == 0 else 'tail_tasks'] += adds
            tot['prod_tail'] += adds * (madd if level == 0 else (38 if g2 else 14))
            ent = [(cnt, ceil32(d)) for cnt, d in ent]
            level += 1
            if level > 8:
                break
    tot['W'], tot['gw'], tot['B'] = W, gw, B
    return tot


def halve(d):
    out = [0.0] * ((len(d) + 1) // 2 + 1)
    for m, p in enumerate(d):
        out[(m + 1) // 2] += p
    return out


def ceil32(d):
    out = [0.0] * ((len(d) + 31) // 32 + 1)
    for m, p in enumerate(d):
        out[math.ceil(m / 32)] += p
    return out


def xyzz_only(n, c, g2=False):
    """every addition a mixed XYZZ one (tasks of 32), then levels: the TAIL=inf variant"""
    return plan(n, c, g2, tail=1e30)


def report(n_log, c, g2=False, rate=26.6e9, bw=1.7e12, quiet=False):
    n = 1 << n_log
    t = plan(n, c, g2)
    comp = (t['prod'] + t['prod_tail']) / rate
    mem = t['bytes_v1'] / bw
    x = xyzz_only(n, c, g2)
    comp_x = (x['prod'] + x['prod_tail']) / rate
    if not quiet:
        print(f"{'G2' if g2 else 'G1'} 2^{n_log} c={c} W={t['W']} windows/group={t['gw']} buckets/window={t['B']}")
        print("  round  entries      pairs        k    lanes  inv/pair  Fp prod   v1 bytes  v2 bytes")
        for r in t['rounds'][:8]:
            print(f"  {r['r']:>5} {r['total']:>11.3g} {r['pairs']:>11.3g} {r['k']:>6} {r['nl']:>8} {r['inv_per_pair']:>8.2f} "
                  f"{r['prod']:>9.3g} {r['b1']:>9.3g} {r['b2']:>9.3g}")
        print(f"  (first group of {t['gw']} windows shown; totals over all W windows below)")
        print(f"  affine: pairs {t['pairs']:.3g}, Fp products {t['prod']:.3g} ({t['prod'] / max(1, t['pairs']):.2f}/pair), "
              f"v1 bytes {t['bytes_v1']:.3g} ({t['bytes_v1'] / max(1, t['pairs']):.0f} B/pair), v2 bytes {t['bytes_v2']:.3g}")
        print(f"  tail: mixed adds {t['madds']:.3g}, full adds {t['tail_tasks']:.3g}, Fp products {t['prod_tail']:.3g}")
        print(f"  time at {rate / 1e9:.1f} G/s, {bw / 1e12:.1f} TB/s: compute {comp * 1e3:.0f} ms, memory {mem * 1e3:.0f} ms, "
              f"serial {(comp + mem) * 1e3:.0f} ms, overlapped {max(comp, mem) * 1e3:.0f} ms")
        print(f"  XYZZ only: mixed adds {x['madds']:.3g}, full {x['tail_tasks']:.3g}, Fp products {x['prod_tail']:.3g} -> "
              f"{comp_x * 1e3:.0f} ms")
    return t, comp, mem, comp_x


def main(argv):
    g2 = '--g2' in argv
    rate, bw = 26.6e9, 1.7e12
    args = [a for a in argv if not a.startswith('--')]
    if '--rate' in argv:
        rate = float(argv[argv.index('--rate') + 1]) * 1e9
        args.remove(argv[argv.index('--rate') + 1])
    if '--bw' in argv:
        bw = float(argv[argv.index('--bw') + 1]) * 1e12
        args.remove(argv[argv.index('--bw') + 1])
    if '--table' in argv or not args:
        for L, c, grp in ((24, 20, False), (26, 22, False), (27, 22, False), (25, 20, True), (20, 16, False), (20, 16, True)):
            report(L, c, grp, rate, bw)
        return
    L = int(args[0])
    c = int(args[1]) if len(args) > 1 else (20 if L <= 24 else 22)
    report(L, c, g2, rate, bw)


if __name__ == '__main__':
    main(sys.argv[1:])
