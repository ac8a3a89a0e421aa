# gpu-log run 32, call a: the masked-vec4 on-chip builds (gn_onchip2_m4_*, gn_gmajor_m4_*;
# HW % 4 != 0): every gn_* on verify.json and edge.json (verify only), then the held-out
# gen_shapes.py 37 40 (drawn after the builds were written), every gn_* cold and hot beside
# PyTorch's anchor
set -x
R=results/h200/run32
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run configs/verify.json configs/edge.json --variant 'gn_*' --no-timing -q > $OUT/32a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/32a_rnd37_torch.json $R/rnd37.json > $OUT/32a_rnd37_torch.txt 2>&1; echo "torch rnd37 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 330 .gpuhost/gnbench run $R/rnd37.json --variant 'gn_*' --mode both -q --json $OUT/32a_rnd37.json > $OUT/32a_rnd37.txt 2>&1; echo "rnd37 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/32a_*.txt
cd $OUT && tar czf $FINAL/32a.tgz . && ls -la $FINAL
