# gpu-log run 41, call c (prepared in session 27): gn_fused*'s tile geometry. In run 39a's
# stage times svd_unet_640x36x64_f14's partials stage (rows of 18 chunks, one row per tile of
# 32: 56 % of each tile used) read at 64 % of copy, and gn_fused_v4 ran it at 82 % of copy
# against 94 % on sd15_unet_640x64x64_b8 (the same size, full tiles). exp/gn_fusedt.json
# twins the six gn_fused / gn_fused1 / gn_fused2 builds with the geometry that cuts each
# group into the fewest tiles (rows x row pieces, 6 piece counts tried; never more tiles
# than gn_fused's). Hot, twins beside the shipped builds: models.json's shapes where the
# geometry differs (plus two where it does not: the twins must time as the shipped builds),
# twice in turn to see the call's drift, then the held-out fusedt73.json (drawn after the
# twins were written).
set -x
R=results/h200/run41
V='gn_fused,gn_fused_v4,gn_fused2,gn_fused2_v4,gn_fused1,gn_fused1_v4,gn_fusedt*'
for s in fusedt_models:$R/fusedt_models.json fusedt_models_2:$R/fusedt_models.json fusedt73:$R/fusedt73.json; do
  n=${s%%:*}; f=${s#*:}
  t=150; [ $n = fusedt73 ] && t=280  # 580 s at most: one run call
  S=$SECONDS; timeout -s INT $t .gpuhost/gnbench run $f --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/41c_$n.json > $OUT/41c_$n.txt 2>&1; echo "$n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/*.json
ls -la $OUT
