# gpu-log run 32, call b: A/B of gn_fused_rp*'s apply stage, scalar against the flat vec4 one
# (_a4), hot, on the held-out sets of seeds 36 and 37 and models.json (their HW % 4 != 0 shapes)
set -x
FINAL=$OUT; OUT=$(mktemp -d)
for c in results/h200/run31/rnd36.json results/h200/run32/rnd37.json configs/models.json; do
  n=$(basename $c .json)
  S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $c --variant 'gn_fused_rp*' -q --json $OUT/32b_${n}_rp.json > $OUT/32b_${n}_rp.txt 2>&1; echo "$n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/*.json
grep -h "^summary" $OUT/32b_*.txt
cd $OUT && tar czf $FINAL/32b.tgz . && ls -la $FINAL
