# gpu-log run 27, call c: every gn_* variant (with the run-27 builds) on models.json, cold and hot, beside PyTorch's anchor, in one call
set -x
G=.gpuhost/gnbench
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/27c_models_torch.json configs/models.json > $OUT/27c_torch.txt 2>&1; echo "torch models rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --variant 'gn_*' --mode both -q --pipeline-stats --json $OUT/27c_models.json > $OUT/27c_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/27c_models.json
grep -h "^summary" $OUT/27c_models.txt
