# gpu-log run 44, call i: call h again after the split builds compute d = x - K `precise` in both grad_input paths (the owner's registers and the give-up loop). Two separate runs
# with --dump of the all-give-up copies (x_giveup_*) and, as a control, the waiting builds
# (x_onchip2_*) on two fewg86 shapes of 5 groups; diff_dumps.py prints which outputs differ
# bitwise, how many elements, in which rows.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44i.sh
H=results/h100/run44; X="--kernels $H/exp"; V='x_giveup_256x16s,x_giveup_v4_512x8s,x_onchip2_256x16s,x_onchip2_v4_512x8s'
for k in A B; do
  timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r11*' --variant "$V" --no-timing -q --dump /tmp/dump$k > $OUT/44i_run$k.txt 2>&1; echo "run $k rc=$?"
done
python3 $H/diff_dumps.py /tmp/dumpA /tmp/dumpB | tee $OUT/44i_diff.txt
timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r06*,r11*,r12*,r14*' --variant 'x_giveup_*,x_onchip2_*' --trials 3 --no-timing -q > $OUT/44i_trials.txt 2>&1; echo "trials rc=$?"
grep -E "FAIL|summary" $OUT/44i_trials.txt | tail -12
