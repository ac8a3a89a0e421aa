# gpu-log run 33, call b (A/B, hot): exp/gn_occ.json round 2 (DY_SHARED 1-4 on the 256x8 build,
# 128x10/128x13/192x10 builds, 512x7 and 384x9 with few shared slots) against the gn_onchip2,
# gn_onchip, gn_gmajor and gn_team builds on mid40.json (24 held-out shapes drawn after call a,
# groups of 2000-14000 elements) and on models.json's shapes of that regime.
set -x
R=results/h200/run33
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; timeout -s INT 280 .gpuhost/gnbench run $R/mid40.json --kernels exp --variant 'gn_onchip*,gn_occ*,gn_gmajor*,gn_team*' --mode hot -q --pipeline-stats --json $OUT/33b_mid40.json > $OUT/33b_mid40.txt 2>&1; echo "mid40 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run configs/models.json --kernels exp --problem "$(cat $R/mid_models_b.txt)" --variant 'gn_occ*,gn_onchip2_v4*' --mode hot -q --json $OUT/33b_models.json > $OUT/33b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/*.txt
cd $OUT && tar czf $FINAL/33b.tgz . && ls -la $FINAL
