# gpu-log run 39, call g (session 24): one-sample 512-invocation builds with partials for
# 4097-8192 channels (exp4/gn_flatw.json: 512x16 and v4_512x4, with and without W_LATE; two
# workgroups per SM, so 132-264 samples fit one wave), hot, beside the shipped gn_flat builds
# on wide66.json and flat63.json.
set -x
R=results/h200/run39
S=$SECONDS; timeout -s INT 80 .gpuhost/gnbench run $R/wide66.json --kernels $R/exp4 --variant 'gn_flat*' --mode hot -q --json $OUT/39g_wide66.json > /dev/null 2>&1; echo "wide66 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run $R/flat63.json --problem 'r00_*,r01_*,r07_*,r09_*,r10_*' --kernels $R/exp4 --variant 'gn_flat*' --mode hot -q --json $OUT/39g_flat63.json > /dev/null 2>&1; echo "flat63 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
