# gpu-log run 40, call c (session 25): gn_flatap after 40b's stage times (apply 15 us on
# wide66 r15: each row's loads waited for the previous row's grad_input store): the apply
# stage now loads BATCH rows of x and grad_out before any store and reads the chunk's records
# from shared memory; 4 or 8 row lanes; statistics with and without W_LATE. Stage times on
# four wide66 shapes, then hot on flat67 (beside 40a's shipped times) and wide66 (beside the
# shipped gn_flat builds, in this call).
set -x
R=results/h200/run40
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h200/run39/wide66.json --problem 'r15_*,r07_*,r12_*,r02_*' --kernels $R/exp --variant 'gn_flatap_512x16*,gn_flatap_1024x8,gn_flatap_1024x16' --mode hot --stage-times -q --json $OUT/40c_stages.json > $OUT/40c_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $R/flat67.json --kernels $R/exp --variant 'gn_flatap*' --mode hot -q --json $OUT/40c_flat67_ap.json > /dev/null 2>&1; echo "flat67 ap rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run results/h200/run39/wide66.json --kernels $R/exp --variant 'gn_flat*' --mode hot -q --json $OUT/40c_wide66.json > /dev/null 2>&1; echo "wide66 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
