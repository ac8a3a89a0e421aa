#!/usr/bin/env python3
"""Run 41's twin-against-shipped ratios from the calls' text tables (run from this folder):
  twin_ratios.py fusedt 41c_fusedt_models.txt ...   gn_fused* builds against gn_fusedt* twins
  twin_ratios.py m4x 41a_models_odd.txt ...          gn_onchip2_m4_* against gn_m4x_{l1,l2,l2s}_*
Ratio = shipped median / twin median (> 1: the twin is faster), per build and per shape."""
import collections
import math
import sys


def load(path):
    table = collections.defaultdict(dict)
    for line in open(path):
        f = line.split()
        if len(f) > 10 and f[4] in ('PASS', 'FAIL'):
            table[f[0]][f[3]] = float(f[9])
    return table


def geo(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float('nan')


def fusedt(paths):
    pairs = [(f'gn_fused{d}{v}', f'gn_fusedt{d}{v}') for d in ('', '2', '1') for v in ('', '_v4')]
    for path in paths:
        ratios = []
        print('==', path)
        for shape, times in load(path).items():
            rs = [times[a] / times[b] for a, b in pairs if a in times and b in times]
            ratios += rs
            ship = min(times[a] for a, _ in pairs if a in times)
            twin = min(times[b] for _, b in pairs if b in times)
            print(f'{shape:40s} {" ".join(f"{r:.3f}" for r in rs):36s} best {ship:8.2f} -> {twin:8.2f} {ship / twin:.3f}')
        print(f'geometric mean over {len(ratios)} build pairs: {geo(ratios):.3f}')


def m4x(paths):
    for path in paths:
        by_build = collections.defaultdict(lambda: collections.defaultdict(list))
        for shape, times in load(path).items():
            for name, t in times.items():
                if name.startswith('gn_onchip2_m4_'):
                    build = name[len('gn_onchip2_m4_'):]
                    for form in ('l1', 'l2', 'l2s'):
                        twin = times.get(f'gn_m4x_{form}_{build}')
                        if twin:
                            by_build[build][form].append(t / twin)
        print('==', path)
        for build, forms in by_build.items():
            print(f'{build:8s} ' + '  '.join(
                f'{form} {geo(r):.3f} ({min(r):.2f}-{max(r):.2f}, n {len(r)})' for form, r in forms.items()))


if __name__ == '__main__':
    {'fusedt': fusedt, 'm4x': m4x}[sys.argv[1]](sys.argv[2:])
