# gpu-log run 44, call j: as call i, with give-up copies that compute grad_input's
# k2 * (d - mean) + cA as an explicit fma (SPLIT_GI_FMA, x_giveupfma_*), and x_giveup_256x16s as
# the control: two separate runs with --dump, diff_dumps.py on them, then 3 verification
# trials of every x_giveupfma build on five fewg86 shapes.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44j.sh
H=results/h100/run44; X="--kernels $H/exp"; V='x_giveupfma_256x16s,x_giveupfma_v4_512x8s,x_giveup_256x16s'
for k in A B; do
  timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r11*' --variant "$V" --no-timing -q --dump /tmp/dump$k > $OUT/44j_run$k.txt 2>&1; echo "run $k rc=$?"
done
python3 $H/diff_dumps.py /tmp/dumpA /tmp/dumpB | tee $OUT/44j_diff.txt
timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r06*,r11*,r12*,r14*' --variant 'x_giveupfma_*' --trials 3 --no-timing -q > $OUT/44j_trials.txt 2>&1; echo "trials rc=$?"
grep -E "FAIL|summary" $OUT/44j_trials.txt | tail -12
