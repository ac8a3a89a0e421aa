# gpu-log run 25, call g: gn_fused_rp (row pieces read as vec4 for HW % 4 != 0) against the scalar 5T builds and the best other variants, beside PyTorch
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json --variant 'gn_fused_rp,gn_gmajor*' --no-timing -q --json $OUT/25g_verify.json > $OUT/25g_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
cat > /tmp/odd.json <<'J'
{"problems": [
 {"name": "odd_n2_c256_hw12545_g32", "batch": 2, "channels": 256, "spatial": 12545, "groups": 32},
 {"name": "odd_n4_c64_hw30001_g64", "batch": 4, "channels": 64, "spatial": 30001, "groups": 64},
 {"name": "odd_n1_c128_hw100003_g8", "batch": 1, "channels": 128, "spatial": 100003, "groups": 8}]}
J
cp /tmp/odd.json $OUT/25g_odd_config.json
S=$SECONDS; $G run configs/models.json /tmp/odd.json --problem 'wav2vec2*,odd_*' --variant 'gn_*' --mode both -q --stage-times --json $OUT/25g_odd.json > $OUT/25g_odd.txt 2>&1; echo "odd rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25g_torch.json /tmp/odd.json > $OUT/25g_torch.txt 2>&1; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25g_wav2vec2_torch.json .gpuhost/wav2vec2_shapes.json > $OUT/25g_wav2vec2_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "PASS\|FAIL" $OUT/25g_odd.txt | awk '{print $1, $4, $5, "cold", $10, "hot", $12}'
