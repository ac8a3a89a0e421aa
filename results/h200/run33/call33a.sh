# gpu-log run 33, call a (A/B, hot): (1) gn_sgroup_v4_* (vec4 builds for groups of M % 4 == 0)
# against the scalar gn_sgroup_* on every shape they take in models.json and the held-out
# seeds 36-38; (2) exp/gn_occ.json, gn_onchip2 builds that keep more grad_out slots in shared
# memory (fewer registers, more workgroups per SM), against the gn_onchip2_v4_* builds on the
# shapes with groups of 1000-30000 elements and HW % 4 == 0.
set -x
R=results/h200/run33
FINAL=$OUT; OUT=$(mktemp -d)
for f in configs/models.json results/h200/run31/rnd36.json results/h200/run32/rnd37.json results/h200/run32/rnd38.json; do
  n=$(basename $f .json)
  S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $f --variant 'gn_sgroup*' --mode hot -q --json $OUT/33a_sg_$n.json > $OUT/33a_sg_$n.txt 2>&1; echo "sg $n rc=$? $((SECONDS-S)) s"
  S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $f --kernels exp --problem "$(cat $R/mid_$n.txt)" --variant 'gn_occ*,gn_onchip2_v4*' --mode hot -q --pipeline-stats --json $OUT/33a_occ_$n.json > $OUT/33a_occ_$n.txt 2>&1; echo "occ $n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/*.json
grep -h "^summary" $OUT/*.txt
cd $OUT && tar czf $FINAL/33a.tgz . && ls -la $FINAL
