# gpu-log run 26, call a: gn_gmajor x2 builds (batch 2, two samples at once): verification on verify/edge and generated batch-2 shapes; every gn_* variant on the batch-2 shapes of models.json beside PyTorch
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json configs/edge.json .gpuhost/x2_sg32.json --variant 'gn_gmajor*' --no-timing -q --json $OUT/26a_verify.json > $OUT/26a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/26a_torch.json .gpuhost/b2.json > $OUT/26a_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run .gpuhost/b2.json --variant 'gn_*' --mode both -q --pipeline-stats --json $OUT/26a_b2.json > $OUT/26a_b2.txt 2>&1; echo "b2 rc=$? $((SECONDS-S)) s"
cp .gpuhost/b2.json .gpuhost/x2_sg32.json $OUT/
gzip $OUT/*.json
grep -h "x2" $OUT/26a_b2.txt | head -60
tail -3 $OUT/26a_verify.txt
