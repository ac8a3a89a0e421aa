# gpu-log run 40, call h (session 25): flat61 r19_n10_c10379_hw1_g1 (ten samples of one
# 10379-channel group, 0.91x of PyTorch since run 38d), which gn_flatap_1024x16_l4_wl admits:
# every gn_flat* beside PyTorch on flat61, hot.
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/40h_flat61_torch.json results/h200/run38/flat61.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h200/run38/flat61.json --problem 'r19_*' --variant 'gn_*' --mode hot -q --json $OUT/40h_flat61_r19.json > $OUT/40h_flat61_r19.txt 2>&1; echo "r19 rc=$? $((SECONDS-S)) s"
gzip $OUT/40h_flat61_r19.json
