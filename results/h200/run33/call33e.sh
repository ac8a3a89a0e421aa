# gpu-log run 33, call e: gn_onchip2_m4_192x8d2 on verify.json (coverage); the held-out
# gen_shapes.py 42 24 (drawn after every run-33 build was fixed), every gn_* cold and hot beside
# PyTorch's anchor
set -x
R=results/h200/run33
# written straight into $OUT so that a call cut short still brings back what finished
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run configs/verify.json configs/edge.json --variant gn_onchip2_m4_192x8d2 --no-timing -q --coverage > $OUT/33e_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/33e_rnd42_torch.json $R/rnd42.json > $OUT/33e_rnd42_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/rnd42.json --variant 'gn_*' --mode both -q --json $OUT/33e_rnd42.json > $OUT/33e_rnd42.txt 2>&1; echo "rnd42 rc=$? $((SECONDS-S)) s"
gzip $OUT/33e_rnd42.json
grep -h "^summary\|^coverage\|never verified" $OUT/33e_*.txt
ls -la $OUT
