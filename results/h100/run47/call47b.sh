# gpu-log run 47, call b (any card; on an H200 it runs 47a instead: models.json beside PyTorch,
# the targets). (1) call 46i: flattened features for the H100 table (flat470 beside
# PyTorch, flat471); (2) re-times after session 36's review: the gn_sgroup_wg builds (one barrier
# fewer) on low85 / midm464 / short465 and the split build (the wait polls in rounds of 256) on
# the four models.json shapes of call 44k; (3) stage times of every gn_* the few-group shapes of
# fewg462 admit, on the ten where PyTorch was faster (where the 2-dispatch builds spend it).
# Run from the repository root: bash results/h100/run47/call47b.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=430 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh; exit ;;
esac
bash results/h100/run46/call46i.sh
H=results/h100/run46; D=$OUT/47b; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/low85.json $H/midm464.json $H/short465.json --variant 'gn_sgroup_*' --mode hot -q --json $D/47b_sgwg.json > $D/47b_sgwg.txt 2>&1; echo "sgwg rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 40 .gpuhost/gnbench run configs/models.json --problem 'sd15_unet_640x64x64_b8,svd_unet_640x36x64_f14,sdxl_unet_1280x32x32_b2,sd_vae_512x64x64_b4' --variant 'gn_onchip2_v4_256x8s,gn_fused_v4,gn_regx_v4_1024x10,gn_onchip2_v4_1024' --mode hot -q --json $D/47b_split.json > $D/47b_split.txt 2>&1; echo "split rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/fewg462.json --problem 'r00*,r01*,r03*,r04*,r06*,r07*,r09*,r12*,r13*,r14*' --variant 'gn_*' --mode hot --stage-times -q --json $D/47b_fewg_stages.json > $D/47b_fewg_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47b.tar 47b && rm -r $D
