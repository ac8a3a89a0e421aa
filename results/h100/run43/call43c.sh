# gpu-log run 43, call c (session 32: the device budget left room for two calls, not three, so
# 43b runs first and this call takes 43a's held-out half plus the standard set beside PyTorch):
# split75.json, every gn_* hot (with 43b's models.json hot it decides which split builds stay),
# then PyTorch's anchor and every gn_* cold and hot on configs/standard.json (the >= 1.6x target).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run43/call43c.sh
set -x
R=results/h100/run43
S=$SECONDS; timeout -s INT ${TB:-200} .gpuhost/gnbench run $R/split75.json --variant 'gn_*' --mode hot -q --json $OUT/43a_split75.json > $OUT/43a_split75.txt 2>&1; echo "split75 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/43c_standard_torch.json configs/standard.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TS:-200} .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/43c_standard.json > $OUT/43c_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
gzip $OUT/4*.json
ls -la $OUT
