#!/usr/bin/env python3
"""gn_fused_v4's % of copy (its own 5T traffic, hot) against how full its tiles are, from every
stored H200 results file (results/h200/run*/, each shape's first measurement): the evidence
behind call 41c. Tile fill = the group's chunks / (tiles x 32 chunks) at subgroup 32. Only
shapes of >= MB megabytes per tensor with groups of >= 32768 elements (the 5T regime) count.
Run from the repository root: python3 results/h200/run41/fused_fill.py [MB]"""
import glob
import gzip
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from select_fusedt import cd, geometry, tiles_fused  # noqa: E402 (the same tile geometry)

min_mb = float(sys.argv[1]) if len(sys.argv) > 1 else 30
rows, seen = [], set()
for path in sorted(glob.glob('results/h200/run*/*.json.gz')):
    try:
        doc = json.load(gzip.open(path))
    except (OSError, ValueError):
        continue
    bw = (doc.get('context', {}).get('gnbench', {}).get('copy_bandwidth') or {}).get('gbps')
    if not bw:
        continue
    info = {b['run_name']: b['gnbench'] for b in doc['benchmarks'] if 'gnbench' in b}
    for b in doc['benchmarks']:
        name = b.get('run_name', '')
        if b.get('aggregate_name') != 'median' or b.get('real_time', 0) <= 0 or not name.endswith('/gn_fused_v4/hot'):
            continue
        g = info.get(name) or info.get(name[:-len('/hot')]) or {}
        p = g.get('problem')
        if not p or p['spatial'] % 4:
            continue
        n, c, hw, groups = p['batch'], p['channels'], p['spatial'], p['groups']
        cpg, (cpr, tile) = c // groups, geometry(p)
        if (n, c, hw, groups) in seen or 4 * n * c * hw / 1e6 < min_mb or cpg * hw < 32768:
            continue
        seen.add((n, c, hw, groups))
        fill = cpg * cpr / (tiles_fused(cpg, cpr, tile) * tile)
        rows.append((fill, g['actual_bytes'] / (b['real_time'] * 1e-6) / 1e9 / bw, p['name'], path))
print(f'gn_fused_v4, hot, shapes of >= {min_mb:g} MB with groups of >= 32768 elements: {len(rows)}')
print('tile fill    shapes  median % of copy')
for lo, hi in ((0, 0.6), (0.6, 0.8), (0.8, 0.95), (0.95, 1.01)):
    band = [r[1] for r in rows if lo <= r[0] < hi]
    print(f'{lo:.2f}-{min(hi, 1):.2f}  {len(band):7d}  ' + (f'{100 * statistics.median(band):5.0f} %' if band else '    -'))
for fill, eff, name, path in sorted(rows)[:8]:
    print(f'  fill {fill:.2f}  {100 * eff:3.0f} %  {name}  ({path})')
