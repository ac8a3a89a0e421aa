# gpu-log run 40, call b (session 25): where the time goes in 40a's gn_flatap builds against
# the shipped gn_flat builds on four wide66 shapes: --stage-times, hot.
set -x
R=results/h200/run40
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run39/wide66.json --problem 'r15_*,r07_*,r12_*,r02_*' --kernels $R/exp --variant 'gn_flat_1024x8_s4,gn_flat_512x16,gn_flat_1024x8,gn_flat_512x16_rr,gn_flatap_512x16,gn_flatap_1024x8,gn_flatap_512x16_l2,gn_flatap_v4_512x4' --mode hot --stage-times -q --json $OUT/40b_stages.json > $OUT/40b_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
