# gpu-log run 31, call d: every gn_* on verify.json and edge.json (verify only); standard.json
# and the held-out gen_shapes.py 36 40 (drawn after the run-31 changes were measured), cold and
# hot beside PyTorch's anchor
set -x
R=results/h200/run31
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run configs/verify.json configs/edge.json --variant 'gn_*' --no-timing -q > $OUT/31d_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/31d_standard_torch.json configs/standard.json > $OUT/31d_standard_torch.txt 2>&1; echo "torch std rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 110 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/31d_standard.json > $OUT/31d_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/31d_rnd36_torch.json $R/rnd36.json > $OUT/31d_rnd36_torch.txt 2>&1; echo "torch rnd36 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 220 .gpuhost/gnbench run $R/rnd36.json --variant 'gn_*' --mode both -q --json $OUT/31d_rnd36.json > $OUT/31d_rnd36.txt 2>&1; echo "rnd36 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/31d_*.txt
cd $OUT && tar czf $FINAL/31d.tgz . && ls -la $FINAL
