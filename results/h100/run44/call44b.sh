# gpu-log run 44, call b (H200 only; the targets name it): models.json every gn_* cold
# and hot beside PyTorch's anchor in one call, its 1.2 GB shape last. Each gnbench run is stopped
# by SIGINT at its limit (T, TL); its results file keeps every finished entry.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh
set -x
big=nnunet3d_in_32x80x192x160_b2
rest=$(python3 -c "import json; print(','.join(p['name'] for p in json.load(open('configs/models.json'))['problems'] if p['name'] != '$big'))")
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/44b_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T:-470} .gpuhost/gnbench run configs/models.json --problem "$rest" --variant 'gn_*' --mode both -q --json $OUT/44b_models_rest.json > $OUT/44b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TL:-50} .gpuhost/gnbench run configs/models.json --problem $big --variant 'gn_*' --mode both -q --json $OUT/44b_models_big.json > $OUT/44b_models_big.txt 2>&1; echo "big rc=$? $((SECONDS-S)) s"
.gpuhost/gnbench merge $OUT/44b_models_rest.json $OUT/44b_models_big.json -o $OUT/44b_models.json && rm $OUT/44b_models_rest.json $OUT/44b_models_big.json; echo "merge rc=$?"
gzip $OUT/*.json
ls -la $OUT
