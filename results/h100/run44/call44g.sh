# gpu-log run 44, call g: (1) where the split join's GPU mismatch lives: copies of the x_onchip2
# builds whose parts all give up at once (SPLIT_SPINS 0, x_giveup_*), 3 verification trials each
# on 44d's failing shapes and on groups of few parts; (2) every shipped gn_* build verified (no
# timing) on random problems drawn at run time on the GPU (unseen shapes and hard inputs).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44g.sh
set -x
H=results/h100/run44; X="--kernels $H/exp"
S=$SECONDS; timeout -s INT ${T1:-60} .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r06*,r07*,r11*,r12*,r14*' --variant 'x_giveup_*,x_onchip2_*' --trials 3 --no-timing -q --json $OUT/44g_giveup.json > $OUT/44g_giveup.txt 2>&1; echo "giveup rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T2:-200} .gpuhost/gnbench run --random 120 --seed 4407 --variant 'gn_*' --no-timing -q --json $OUT/44g_random.json > $OUT/44g_random.txt 2>&1; echo "random rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
