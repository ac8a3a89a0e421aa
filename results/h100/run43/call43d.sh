# gpu-log run 43, call d: 43b and 43a's held-out half in one call, for a session whose device
# budget leaves room for one call only (session 32 lost most of its budget to machines that did
# not start). PyTorch's anchor and models.json every gn_* cold and hot (T: stopped by SIGINT, the
# results file keeps every finished entry), then split75.json every gn_* hot (TB).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run43/call43d.sh
set -x
R=results/h100/run43
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/43b_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T:-420} .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/43b_models.json > $OUT/43b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TB:-100} .gpuhost/gnbench run $R/split75.json --variant 'gn_*' --mode hot -q --json $OUT/43a_split75.json > $OUT/43a_split75.txt 2>&1; echo "split75 rc=$? $((SECONDS-S)) s"
gzip $OUT/4*.json
ls -la $OUT
