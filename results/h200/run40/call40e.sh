# gpu-log run 40, call e (session 25): gn_flatap's apply stage over wider channel blocks
# (1 or 2 row lanes: 256 or 128 consecutive channels of a row per workgroup, 1 KB or 512 B;
# 40d's 4 and 8 lanes read 256 or 128 B of each of 64-128 rows), after 40d left it at 12 us
# on wide66 r15. Stage times on four wide66 shapes, hot on wide66.
set -x
R=results/h200/run40
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h200/run39/wide66.json --problem 'r15_*,r07_*,r12_*,r02_*' --kernels $R/exp --variant 'gn_flatap_512x16*' --mode hot --stage-times -q --json $OUT/40e_stages.json > $OUT/40e_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run39/wide66.json --kernels $R/exp --variant 'gn_flatap*' --mode hot -q --json $OUT/40e_wide66_ap.json > /dev/null 2>&1; echo "wide66 ap rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
