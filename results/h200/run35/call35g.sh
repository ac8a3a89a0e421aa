# gpu-log run 35, call g: A/B of the barrier between a variant's stages. .gpuhost/gnbench is
# 61e5eb8 (source and destination: compute shader and transfer, shader and transfer writes);
# .gpuhost/gnbench_exp is 4ef2c32 with exp/35g_stage_barrier.patch: a compute-to-compute barrier only (shader writes ->
# shader reads and writes), which is all that stages need (fills come before the first stage).
# Hot only, every gn_fused_rp* and gn_onchip2_m4_512 entry of small44.json and few51.json,
# A B A B.
set -x
V='gn_fused_rp*,gn_onchip2_m4_512'
for i in 1 2; do
  for b in gnbench gnbench_exp; do
    S=$SECONDS; timeout -s INT 100 .gpuhost/$b run results/h200/run34/small44.json results/h200/run35/few51.json --variant "$V" --mode hot -q --json $OUT/35g_${b}_$i.json > $OUT/35g_${b}_$i.txt 2>&1; echo "$b $i rc=$? $((SECONDS-S)) s"
  done
done
gzip $OUT/35g_*.json
