# gpu-log run 44, call a (planned in session 33, before any timing of it): the weak regime run
# 43g found. (1) held84 (flattened N x C, drawn in session 33; 43g's limit timed 1 of its 12
# shapes), every gn_* cold and hot beside PyTorch's anchor; (2) held83 (batch 1-2, many
# channels: 1.22x hot, 0.91x cold in 43g) hot with --stage-times for the gn_fused_rp* / fused1 /
# onchip2 builds that won there, to see where their 11-60 us go (dispatches, merge, apply).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44a.sh
set -x
H=results/h100/run43
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/44a_held84_torch.json $H/held84.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T:-200} .gpuhost/gnbench run $H/held84.json --variant 'gn_*' --mode both -q --json $OUT/44a_held84.json > $OUT/44a_held84.txt 2>&1; echo "held84 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TS:-120} .gpuhost/gnbench run $H/held83.json --variant 'gn_fused_rp*,gn_fused1*,gn_fused_v4,gn_onchip2_m4_*' --mode hot --stage-times -q --json $OUT/44a_held83_stages.json > $OUT/44a_held83_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
