# gpu-log run 42, call b (session 30, H100): after run 41's adoptions (gn_fused*'s fewest-tiles
# geometry; MASK_LOADS 2 for gn_onchip2_m4_128/192x8d2/512; the new gn_onchip2_m4_256l2).
# First the held-out odd256l2_74.json (16 odd-HW shapes the new build admits, drawn after its
# `when` was fixed) with every masked on-chip build; then models.json, every gn_* cold and hot
# beside PyTorch, as run 39c on the H200.
set -x
R=results/h100/run42
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run $R/odd256l2_74.json --variant 'gn_onchip2_m4_*' --mode hot -q --json $OUT/42b_odd256l2_74.json > $OUT/42b_odd256l2_74.txt 2>&1; echo "odd rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/42b_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T:-380} .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/42b_models.json > $OUT/42b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
