# gpu-log run 44, call h: where the give-up path's outputs differ between runs. Two separate runs
# with --dump of the all-give-up copies (x_giveup_*) and, as a control, the waiting builds
# (x_onchip2_*) on two fewg86 shapes of 5 groups; diff_dumps.py prints which outputs differ
# bitwise, how many elements, in which rows.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44h.sh
H=results/h100/run44; X="--kernels $H/exp"; V='x_giveup_256x16s,x_giveup_v4_512x8s,x_onchip2_256x16s,x_onchip2_v4_512x8s'
for k in A B; do
  timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r11*' --variant "$V" --no-timing -q --dump /tmp/dump$k > $OUT/44h_run$k.txt 2>&1; echo "run $k rc=$?"
done
python3 $H/diff_dumps.py /tmp/dumpA /tmp/dumpB | tee $OUT/44h_diff.txt
