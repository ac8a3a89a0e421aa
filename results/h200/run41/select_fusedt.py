#!/usr/bin/env python3
"""The shape sets of call 41c, reproducibly (run from the repository root):
fusedt_models.json, models.json's shapes with groups of >= 32768 elements where gn_fusedt's
geometry (exp/make_gn_fusedt.py) cuts fewer tiles than gn_fused's at subgroup 32, plus two
controls where it cuts the same; fusedt73.json, the same filter on a gen_shapes.py draw
(seed 73) made after the experiment was written: the first 16 with HW % 4 == 0 (vec4 builds,
tiles of 32 chunks of 128 elements) and the first 12 with HW % 4 != 0 (scalar, 128 of 32)."""
import json
import subprocess

SG = 32
CONTROLS = ('sd15_unet_640x64x64_b8', 'sd_vae_256x256x256_b1')


def cd(a, b):
    return -(-a // b)


def geometry(p):  # chunks per row, tile capacity in chunks
    hw = p['spatial']
    return (cd(hw // 4, SG), 256 // SG * 4) if hw % 4 == 0 else (cd(hw, SG), 256 // SG * 16)


def tiles_fused(cpg, cpr, tile):
    rows = max(1, min(min(cpg, 1024), tile // cpr))
    return cd(cpg, rows) * cd(cpr, cd(cpr, cd(cpr, tile)))


def tiles_fusedt(cpg, cpr, tile, k=6):
    s0 = cd(cpr, tile)
    return min(cd(cpg, max(1, min(min(cpg, 1024), tile // cd(cpr, s)))) * cd(cpr, cd(cpr, s))
               for s in range(s0, s0 + k))


def differs(p):
    cpg = p['channels'] // p['groups']
    cpr, tile = geometry(p)
    return cpg * p['spatial'] >= 32768 and tiles_fusedt(cpg, cpr, tile) < tiles_fused(cpg, cpr, tile)


def main():
    models = json.load(open('configs/models.json'))
    sel = [p for p in models['problems'] if differs(p) or p['name'] in CONTROLS]
    out = {k: v for k, v in models.items() if k != 'problems'}
    out['description'] = ("configs/models.json's shapes with groups of >= 32768 elements where gn_fusedt's "
                          "fewest-tiles geometry (subgroup 32) cuts fewer tiles than gn_fused's, and two where "
                          "it cuts the same (sd15_unet_640x64x64_b8, sd_vae_256x256x256_b1: the twins must time "
                          "as the shipped builds)")
    out['problems'] = sel
    json.dump(out, open('results/h200/run41/fusedt_models.json', 'w'), indent=1)

    draw = json.loads(subprocess.run(['python3', 'scripts/gen_shapes.py', '73', '20000', '--spatial', '256', '16384'],
                                     check=True, capture_output=True, text=True).stdout)
    aligned = [p for p in draw['problems'] if p['spatial'] % 4 == 0 and differs(p)][:16]
    odd = [p for p in draw['problems'] if p['spatial'] % 4 != 0 and differs(p)][:12]
    draw['description'] = ("gen_shapes.py 73 20000 --spatial 256 16384, then the first 16 shapes with HW % 4 == 0 "
                           "and the first 12 with HW % 4 != 0 that have groups of >= 32768 elements and where "
                           "gn_fusedt's fewest-tiles geometry (subgroup 32) cuts fewer tiles than gn_fused's "
                           "(held out: drawn after the gn_fusedt experiment was written)")
    draw['problems'] = aligned + odd
    json.dump(draw, open('results/h200/run41/fusedt73.json', 'w'), indent=1)


if __name__ == '__main__':
    main()
