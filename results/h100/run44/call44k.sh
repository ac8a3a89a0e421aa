# gpu-log run 44, call k: the split join's last part now finishes a given-up part by loading
# its rows into the register slots and running the owner's grad_input loop (one code path).
# (1) call h's dump diff of the all-give-up copies; (2) 3 verification trials of every x_giveup
# and x_onchip2 build on five fewg86 shapes; (3) the shipped gn_onchip2_v4_256x8s hot on the four
# models.json shapes it was fastest on in run 43, beside the builds that came next there.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44k.sh
H=results/h100/run44; X="--kernels $H/exp"; V='x_giveup_256x16s,x_giveup_v4_512x8s,x_onchip2_256x16s,x_onchip2_v4_512x8s'
for k in A B; do
  timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r11*' --variant "$V" --no-timing -q --dump /tmp/dump$k > $OUT/44k_run$k.txt 2>&1; echo "run $k rc=$?"
done
python3 $H/diff_dumps.py /tmp/dumpA /tmp/dumpB > $OUT/44k_diff.txt; grep -v " 0 of " $OUT/44k_diff.txt
timeout -s INT 60 .gpuhost/gnbench run $H/fewg86.json $X --problem 'r04*,r06*,r11*,r12*,r14*' --variant 'x_giveup_*,x_onchip2_*' --trials 3 --no-timing -q > $OUT/44k_trials.txt 2>&1; echo "trials rc=$?"
grep -E "FAIL|summary" $OUT/44k_trials.txt | tail -8
timeout -s INT 90 .gpuhost/gnbench run configs/models.json --problem 'sd15_unet_640x64x64_b8,svd_unet_640x36x64_f14,sdxl_unet_1280x32x32_b2,sd_vae_512x64x64_b4' --variant 'gn_onchip2_v4_256x8s,gn_fused_v4,gn_regx_v4_1024x10,gn_onchip2_v4_1024' --mode hot -q --json $OUT/44k_split_hot.json > $OUT/44k_split_hot.txt 2>&1; echo "hot rc=$?"
grep -A8 "best variant per problem" $OUT/44k_split_hot.txt
gzip $OUT/*.json
