# gpu-log run 29, call a: gn_fused_rp_row64 / _row128 (one row of 257-2044 elements per tile,
# HW % 4 != 0, vec4 loads): verification on verify.json and edge.json; every gn_* on the
# generated odd-row shapes of seeds 27-30 in their bands (oddrows.json), cold and hot, beside
# PyTorch's anchor, in one call
set -x
G=.gpuhost/gnbench
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; $G run configs/verify.json configs/edge.json --variant 'gn_fused_rp*' --no-timing -q > $OUT/29a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/29a_oddrows_torch.json results/h200/run29/oddrows.json > $OUT/29a_oddrows_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run results/h200/run29/oddrows.json --variant 'gn_*' --mode both -q --pipeline-stats --json $OUT/29a_oddrows.json > $OUT/29a_oddrows.txt 2>&1; echo "oddrows rc=$? $((SECONDS-S)) s"
gzip $OUT/29a_oddrows.json
grep -h "^summary" $OUT/29a_*.txt
cd $OUT && tar czf $FINAL/29a.tgz . && ls -la $FINAL
