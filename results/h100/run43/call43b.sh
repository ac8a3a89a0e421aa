# gpu-log run 43, call b: models.json, every gn_* cold and hot beside PyTorch in one call (as
# run 42b, with the split builds; 42b's 380 s limit stopped after 74 of 78 shapes, so T=520).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run43/call43b.sh
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/43b_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T:-520} .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/43b_models.json > $OUT/43b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
