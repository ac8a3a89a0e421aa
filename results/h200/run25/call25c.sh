# gpu-log run 25, call c: models.json shard 2/2 (every gn_* variant, cold and hot) beside PyTorch; verification suite
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json --variant 'gn_*' --no-timing -q --json $OUT/25c_verify.json > $OUT/25c_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25c_models_torch.json configs/models.json > $OUT/25c_torch.txt 2>&1; echo "torch models rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --shard 2/2 --variant 'gn_*' --mode both -q --json $OUT/25c_models2.json > $OUT/25c_models2.txt 2>&1; echo "models 2/2 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
