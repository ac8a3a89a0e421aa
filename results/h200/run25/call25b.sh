# gpu-log run 25, call b: models.json shard 1/2 (every gn_* variant, cold and hot) beside PyTorch; standard.json
set -x
G=.gpuhost/gnbench
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25b_models_torch.json configs/models.json > $OUT/25b_torch.txt 2>&1; echo "torch models rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --shard 1/2 --variant 'gn_*' --mode both -q --json $OUT/25b_models1.json > $OUT/25b_models1.txt 2>&1; echo "models 1/2 rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/25b_standard.json > $OUT/25b_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25b_standard_torch.json > $OUT/25b_standard_torch.txt 2>&1; echo "torch standard rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
