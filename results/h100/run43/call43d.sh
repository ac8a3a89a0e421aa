# gpu-log run 43, call d: 43b and 43a's held-out half in one call, for a session whose device
# budget leaves room for one call only (session 32 lost most of its budget to machines that did
# not start). PyTorch's anchor; models.json every gn_* cold and hot, its 1.2 GB shape last (in
# 42b the shapes after it ran out of time); then split75.json every gn_* hot. Each gnbench run is
# stopped by SIGINT at its limit (T, TL, TB); its results file keeps every finished entry.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run43/call43d.sh
set -x
R=results/h100/run43
big=nnunet3d_in_32x80x192x160_b2
rest=$(python3 -c "import json; print(','.join(p['name'] for p in json.load(open('configs/models.json'))['problems'] if p['name'] != '$big'))")
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/43b_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T:-340} .gpuhost/gnbench run configs/models.json --problem "$rest" --variant 'gn_*' --mode both -q --json $OUT/43b_models_rest.json > $OUT/43b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TL:-60} .gpuhost/gnbench run configs/models.json --problem $big --variant 'gn_*' --mode both -q --json $OUT/43b_models_big.json > $OUT/43b_models_big.txt 2>&1; echo "big rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TB:-90} .gpuhost/gnbench run $R/split75.json --variant 'gn_*' --mode hot -q --json $OUT/43a_split75.json > $OUT/43a_split75.txt 2>&1; echo "split75 rc=$? $((SECONDS-S)) s"
# The parts only once: the merged file holds both.
.gpuhost/gnbench merge $OUT/43b_models_rest.json $OUT/43b_models_big.json -o $OUT/43b_models.json && rm $OUT/43b_models_rest.json $OUT/43b_models_big.json; echo "merge rc=$?"
gzip $OUT/4*.json
ls -la $OUT
