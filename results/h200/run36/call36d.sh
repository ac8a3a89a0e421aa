# gpu-log run 36, call d: models.json, every gn_* cold and hot beside PyTorch in one call
# (the first full call since 33d: with the run-34 team builds, run-35 rp2/rp2s builds and
# run 36's batch-1 dwdb stage off).
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/36d_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 470 .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/36d_models.json > /dev/null 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/36d_models.json
