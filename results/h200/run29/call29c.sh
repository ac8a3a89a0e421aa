# gpu-log run 29, call c: gn_fused_rp_sg4 / _sg8 (one row per subgroup, no barrier):
# verification on verify.json and edge.json; every gn_* on the generated shapes of seeds 27-32
# with odd rows of 129-1020 elements (shortrows.json), cold and hot, beside PyTorch's anchor
set -x
G=.gpuhost/gnbench
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; $G run configs/verify.json configs/edge.json --variant 'gn_fused_rp*' --no-timing -q > $OUT/29c_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/29c_shortrows_torch.json results/h200/run29/shortrows.json > $OUT/29c_shortrows_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run results/h200/run29/shortrows.json --variant 'gn_*' --mode both -q --pipeline-stats --json $OUT/29c_shortrows.json > $OUT/29c_shortrows.txt 2>&1; echo "shortrows rc=$? $((SECONDS-S)) s"
gzip $OUT/29c_shortrows.json
grep -h "^summary" $OUT/29c_*.txt
cd $OUT && tar czf $FINAL/29c.tgz . && ls -la $FINAL
