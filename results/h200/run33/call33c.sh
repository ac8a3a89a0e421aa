# gpu-log run 33, call c: the run-33 builds (gn_sgroup_v4_*, gn_onchip2_v4_256x8d2/_128x10d6/
# _128x13d4) on verify.json, edge.json and numerics.json (verify only, with coverage);
# standard.json, every gn_* cold and hot beside PyTorch's anchor; exp/gn_occ.json's masked
# (HW % 4 != 0) twins with grad_out slots in shared memory against the shipped masked, team and
# on-chip builds on odd41.json (held out) and the odd-HW shapes of models.json and seed 37 (hot)
set -x
R=results/h200/run33
NEW='gn_sgroup_v4_*,gn_onchip2_v4_256x8d2,gn_onchip2_v4_128x10d6,gn_onchip2_v4_128x13d4'
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run configs/verify.json configs/edge.json configs/numerics.json --variant "$NEW" --no-timing -q --coverage > $OUT/33c_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/33c_standard_torch.json configs/standard.json > $OUT/33c_standard_torch.txt 2>&1; echo "torch std rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/33c_standard.json > $OUT/33c_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
for f in $R/odd41.json configs/models.json results/h200/run32/rnd37.json; do
  n=$(basename $f .json); P=""
  [ -f $R/odd_$n.txt ] && P="--problem $(cat $R/odd_$n.txt)"
  S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $f --kernels exp $P --variant 'gn_occ*,gn_onchip2_m4*,gn_team*,gn_onchip_*,gn_onchip2_[0-9]*' --mode hot -q --pipeline-stats --json $OUT/33c_m4_$n.json > $OUT/33c_m4_$n.txt 2>&1; echo "m4 $n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/*.json
grep -h "^summary\|^coverage" $OUT/33c_*.txt
cd $OUT && tar czf $FINAL/33c.tgz . && ls -la $FINAL
