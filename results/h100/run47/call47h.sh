# gpu-log run 47, call h (any card): (1) the split build after cf59a85 (each poll of the wait's
# rounds leaves once every part has arrived; call b measured it 3.5-4.2x slower with the rounds of
# 5409d95) on call 44k's four models.json shapes beside the builds that came next there; (2) call f
# (the gn_flat builds adopted from call e, every gn_* beside PyTorch on flat473 / flat474 / flat470).
# Run from the repository root: bash results/h100/run47/call47h.sh
H=results/h100/run47; D=$OUT/47h; mkdir -p $D
nvidia-smi --query-gpu=name --format=csv,noheader
S=$SECONDS; bash .gpuhost/launch.sh timeout -s INT 40 .gpuhost/gnbench run configs/models.json --problem 'sd15_unet_640x64x64_b8,svd_unet_640x36x64_f14,sdxl_unet_1280x32x32_b2,sd_vae_512x64x64_b4' --variant 'gn_onchip2_v4_256x8s,gn_fused_v4,gn_regx_v4_1024x10,gn_onchip2_v4_1024' --mode hot -q --json $D/47h_split.json > $D/47h_split.txt 2>&1; echo "split rc=$? $((SECONDS-S)) s"
grep -A5 "best variant per problem" $D/47h_split.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47h.tar 47h && rm -r $D
bash $H/call47f.sh
