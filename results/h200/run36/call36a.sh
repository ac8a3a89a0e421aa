# gpu-log run 36, call a: a stage `when` (kernels/runtime/manifest.hpp) and gn_part.glsl: the
# gn_onchip2, gn_sgroup and gn_team builds write grad_weight / grad_bias themselves at batch 1
# and run their dwdb stage only for N > 1. New kernels against the previous commit's
# (kernels_old: b606a48's kernels/, via GNBENCH_KERNELS), same binary, same call:
# b1.json: gen_shapes.py 52 30 --batch 1 1 --elements 100000 4000000 (r*) and models.json's
# batch-1 shapes of <= 64 MB , every gn_* cold and hot beside PyTorch; then
# the three families alone hot on all of models.json (N > 1: the stage-1 shaders changed too).
set -x
R=results/h200/run36
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/36a_b1_torch.json $R/b1.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/b1.json --variant 'gn_*' --mode both -q --json $OUT/36a_b1.json > /dev/null 2>&1; echo "b1 new rc=$? $((SECONDS-S)) s"
S=$SECONDS; GNBENCH_KERNELS=$R/kernels_old timeout -s INT 80 .gpuhost/gnbench run $R/b1.json --variant 'gn_onchip2*,gn_sgroup*,gn_team*' --mode both -q --json $OUT/36a_b1_old.json > /dev/null 2>&1; echo "b1 old rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run configs/models.json --variant 'gn_onchip2*,gn_sgroup*,gn_team*' --mode hot -q --json $OUT/36a_models_new.json > /dev/null 2>&1; echo "models new rc=$? $((SECONDS-S)) s"
S=$SECONDS; GNBENCH_KERNELS=$R/kernels_old timeout -s INT 100 .gpuhost/gnbench run configs/models.json --variant 'gn_onchip2*,gn_sgroup*,gn_team*' --mode hot -q --json $OUT/36a_models_old.json > /dev/null 2>&1; echo "models old rc=$? $((SECONDS-S)) s"
gzip $OUT/36a_b1.json $OUT/36a_b1_old.json $OUT/36a_models_new.json $OUT/36a_models_old.json
