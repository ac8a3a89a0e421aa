# gpu-log run 40, call g (session 25): the shipped builds (gn_flatap included) on the two sets
# gn_flatap was chosen on (gn_flatap_256x16 dropped after 40f, where it won no shape), each
# beside PyTorch in this call: flat67 (40a) hot and cold, run
# 39's wide66 hot.
set -x
R=results/h200/run40
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/40g_flat67_torch.json $R/flat67.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/40g_wide66_torch.json results/h200/run39/wide66.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/flat67.json --variant 'gn_*' --mode both -q --json $OUT/40g_flat67.json > /dev/null 2>&1; echo "flat67 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run results/h200/run39/wide66.json --variant 'gn_*' --mode hot -q --json $OUT/40g_wide66.json > /dev/null 2>&1; echo "wide66 rc=$? $((SECONDS-S)) s"
gzip $OUT/40g_flat67.json $OUT/40g_wide66.json
