# gpu-log run 26, call b: gn_onchip2 *_1d builds (one dispatch, the last workgroup of each group sums dw/db): verification; every gn_onchip2 build on models.json and standard.json beside PyTorch
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json configs/edge.json .gpuhost/x2_sg32.json .gpuhost/last_sg32.json --variant 'gn_onchip2*' --no-timing -q --json $OUT/26b_verify.json > $OUT/26b_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/26b_models_torch.json configs/models.json > $OUT/26b_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --variant 'gn_onchip2*' --mode both -q --pipeline-stats --json $OUT/26b_models.json > $OUT/26b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/standard.json --variant 'gn_onchip2*' --mode both -q --json $OUT/26b_standard.json > $OUT/26b_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
cp .gpuhost/last_sg32.json $OUT/
gzip $OUT/*.json
tail -1 $OUT/26b_verify.txt
grep -h "_1d / group" $OUT/26b_models.txt
