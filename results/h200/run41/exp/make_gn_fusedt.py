#!/usr/bin/env python3
"""Writes gn_fusedt.json next to this file: kernels/gn_fused.json's six builds with the tile
geometry that cuts each group into the fewest tiles. A tile is R rows x one piece of each row
(span chunks); gn_fused takes the fewest pieces per row that fit (s0) and as many rows as fit;
here s0 .. s0 + 5 pieces per row are tried and the count with the fewest tiles is taken (ties:
the fewest pieces), so a tile is never emptier than gn_fused's. The manifest language has no
argmin, so (tiles * 8 + i) is minimised and i read back with % 8. Run from the repository root.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
K = 6  # piece counts tried

m = json.load(open('kernels/gn_fused.json'))
fam = m['variants'][0]
fam['family'] = 'gn_fusedt'
let = fam['let']
let['s0'] = 'ceil_div(${chunks_per_row}, ${tile})'
for i in range(K):
    let[f'span{i}'] = f'ceil_div(${{chunks_per_row}}, ${{s0}} + {i})'
    let[f'tiles{i}'] = (f'ceil_div(CPG, max(1, min(min(CPG, 1024), ${{tile}} / ${{span{i}}})))'
                        f' * ceil_div(${{chunks_per_row}}, ${{span{i}}})')
best = f'${{tiles{K - 1}}} * 8 + {K - 1}'
for i in reversed(range(K - 1)):
    best = f'min(${{tiles{i}}} * 8 + {i}, {best})'
let['span'] = f'ceil_div(${{chunks_per_row}}, ${{s0}} + ({best}) % 8)'
let['rows_per_tile'] = 'max(1, min(min(CPG, 1024), ${tile} / ${span}))'
let['spans_per_row'] = 'ceil_div(${chunks_per_row}, ${span})'
v = fam['variant']
v['name'] = 'gn_fusedt${dispatches}${v}'
v['description'] = v['description'].replace(
    'tiles of <=4096 elements',
    'tiles of <=4096 elements cut for the fewest tiles (rows x row pieces, 6 piece counts tried)')
text = json.dumps(m, indent=1).replace('"glsl/', '"../../../../kernels/glsl/')
with open(os.path.join(HERE, 'gn_fusedt.json'), 'w') as f:
    f.write(text + '\n')
