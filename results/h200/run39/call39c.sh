# gpu-log run 39, call c (prepared in session 23 as call a): models.json, every gn_* cold and
# hot beside PyTorch in one call, the first since 36d (with run 37-38's gn_flat builds; only
# flat_odd_1000_b64 is in their regime). About 7 minutes (36d: 429 s).
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/39c_models_torch.json configs/models.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 470 .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/39c_models.json > /dev/null 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/39c_models.json
ls -la $OUT
