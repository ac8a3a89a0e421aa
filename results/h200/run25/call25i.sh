# gpu-log run 25, call i: gn_fused1_v4 (groups of <= 16 tiles) without --stage-times against the best other variants on the small batch-1 shapes, beside PyTorch
G=.gpuhost/gnbench
$G run .gpuhost/b1_small.json --variant 'gn_fused_v4,gn_fused1*,gn_gmajor*,gn_onchip2*,gn_regx*' --mode both -q --json $OUT/25i_b1_small.json > $OUT/25i_b1_small.txt 2>&1; echo "rc=$?"
python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25i_torch.json .gpuhost/b1_small.json > /dev/null 2>&1
gzip $OUT/*.json
grep -h "PASS\|FAIL" $OUT/25i_b1_small.txt | awk '{print $1, $4, $5, "cold", $10, "hot", $12}'
