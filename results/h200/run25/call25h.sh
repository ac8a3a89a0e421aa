# gpu-log run 25, call h: gn_fused1 (batch 1: combine merged into the grad_input blocks) against the gn_fused builds on every batch-1 shape of models.json, beside PyTorch
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json configs/edge.json --variant 'gn_fused1*' --no-timing -q --json $OUT/25h_verify.json > $OUT/25h_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
cp .gpuhost/batch1_shapes.json $OUT/25h_batch1_shapes.json
S=$SECONDS; $G run .gpuhost/batch1_shapes.json --variant 'gn_fused*' --mode both -q --stage-times --json $OUT/25h_batch1.json > $OUT/25h_batch1.txt 2>&1; echo "batch1 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25h_torch.json .gpuhost/batch1_shapes.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "PASS\|FAIL" $OUT/25h_batch1.txt | awk '{print $1, $4, $5, "cold", $10, "hot", $12}' | grep -v "gn_fused2"
