# gpu-log run 26, call c: gn_gmajor x2_256 / x2_512 builds (batch 2, two samples at once in 256 or 512 invocations): verification; gn_gmajor, gn_onchip2 and gn_sgroup on the batch-2 shapes of models.json beside PyTorch
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json configs/edge.json .gpuhost/x2s_sg32.json --variant 'gn_gmajor*' --no-timing -q --json $OUT/26c_verify.json > $OUT/26c_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/26c_torch.json .gpuhost/b2.json > $OUT/26c_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run .gpuhost/b2.json --variant 'gn_gmajor*,gn_onchip2*,gn_sgroup*' --mode both -q --pipeline-stats --json $OUT/26c_b2.json > $OUT/26c_b2.txt 2>&1; echo "b2 rc=$? $((SECONDS-S)) s"
cp .gpuhost/x2s_sg32.json $OUT/
gzip $OUT/*.json
tail -1 $OUT/26c_verify.txt
grep -h "x2_.*/ group" $OUT/26c_b2.txt
