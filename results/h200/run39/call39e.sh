# gpu-log run 39, call e (session 24): PREFETCH in gn_flat.comp's sample loop (the next
# sample's x and grad_out loaded before this one's statistics; exp3/gn_flatp.json: every
# _s4/_s8 build with it, and _s2 / _s2wl in the 1024-invocation bands), hot, beside the shipped
# gn_flat* builds on wide66.json and flat63.json (both held out from these builds).
set -x
R=results/h200/run39
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/wide66.json --kernels $R/exp3 --variant 'gn_flat*' --mode hot -q --json $OUT/39e_wide66.json > /dev/null 2>&1; echo "wide66 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 170 .gpuhost/gnbench run $R/flat63.json --kernels $R/exp3 --variant 'gn_flat*' --mode hot -q --json $OUT/39e_flat63.json > /dev/null 2>&1; echo "flat63 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
