# gpu-log run 40, call d (session 25): gn_flatap's apply stage as one batch of rows per row
# lane (chunks of 16 * lanes rows, so more workgroups), with each invocation's x and grad_out
# loads issued before the chunk's records are read into shared memory (40c: apply still
# 12 us of 22 on wide66 r15). Stage times on four wide66 shapes, then hot on wide66 and flat67.
set -x
R=results/h200/run40
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h200/run39/wide66.json --problem 'r15_*,r07_*,r12_*,r02_*' --kernels $R/exp --variant 'gn_flatap_512x16*,gn_flatap_1024x8,gn_flatap_1024x16' --mode hot --stage-times -q --json $OUT/40d_stages.json > $OUT/40d_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run39/wide66.json --kernels $R/exp --variant 'gn_flatap*' --mode hot -q --json $OUT/40d_wide66_ap.json > /dev/null 2>&1; echo "wide66 ap rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $R/flat67.json --kernels $R/exp --variant 'gn_flatap*' --mode hot -q --json $OUT/40d_flat67_ap.json > /dev/null 2>&1; echo "flat67 ap rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
