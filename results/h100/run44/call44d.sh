# gpu-log run 44, call d: one-dispatch split builds with larger parts (results/h100/run44/exp,
# x_onchip2_*s: the scalar split removed in run 43 and 512/1024-invocation parts) against every
# gn_* on the few-group regime of 44a/44c: fewg86.json (drawn for this call: batch 1-4, N*G 1-16,
# 0.3-8M elements) cold and hot beside PyTorch, held83 hot, models.json hot (x_* only; run 43
# timed the gn_* builds on the same card type).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44d.sh
set -x
H=results/h100/run44; X="--kernels $H/exp"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/44d_fewg86_torch.json $H/fewg86.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/44d_flat87_torch.json $H/flat87.json > /dev/null 2>&1; echo "torch87 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T1:-200} .gpuhost/gnbench run $H/fewg86.json $X --variant 'gn_*,x_*' --mode both -q --json $OUT/44d_fewg86.json > $OUT/44d_fewg86.txt 2>&1; echo "fewg86 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T2:-90} .gpuhost/gnbench run results/h100/run43/held83.json $X --variant 'gn_*,x_*' --mode hot -q --json $OUT/44d_held83.json > $OUT/44d_held83.txt 2>&1; echo "held83 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T4:-60} .gpuhost/gnbench run $H/flat87.json $X --variant 'gn_*,x_flat*' --mode both -q --json $OUT/44d_flat87.json > $OUT/44d_flat87.txt 2>&1; echo "flat87 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T3:-90} .gpuhost/gnbench run configs/models.json $X --variant 'x_*' --mode hot -q --json $OUT/44d_models_x.json > $OUT/44d_models_x.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
