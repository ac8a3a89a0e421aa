# gpu-log run 26, call d: every gn_* variant on models.json and standard.json (cold and hot) beside PyTorch's anchor on both, in one call
set -x
G=.gpuhost/gnbench
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/26d_models_torch.json configs/models.json > $OUT/26d_torch.txt 2>&1; echo "torch models rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/26d_models.json > $OUT/26d_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/26d_standard.json > $OUT/26d_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/26d_standard_torch.json > $OUT/26d_standard_torch.txt 2>&1; echo "torch standard rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/26d_models.txt $OUT/26d_standard.txt
