# gpu-log run 47, call d (any card): gn_combine.glsl as committed in fc5069f (batched merges without
# per-item divisions; gn_apply_merge.comp one record a round) against 4f37a2c's loops
# (results/h100/run47/old/), the builds that include it (gn_fused, _v4, gn_fused2*, gn_fused1*)
# hot on fewg462 / fewg86 and the models.json shapes of call c; new, old, new again on one
# machine. Then fewg472 every gn_* hot beside PyTorch with the committed kernels.
# Run from the repository root, after bash results/h100/run47/prepare_versions.sh:
#   bash results/h100/run47/call47d.sh
H=results/h100/run47; D=$OUT/47d; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader
M='sd2_unet_320x96x96_b2,sd2_unet_640x48x48_b2,sdxl_unet_320x128x128_b1,sdxl_unet_640x64x64_b2,sdxl_unet_1920x64x64_b1,sd_vae_512x128x128_b1,sd_vae_256x256x256_b1,flux_vae_512x128x128_b1,maskrcnn_fpn_p3_256x100x168_b2,audio_unet1d_32x65536_b4,audio_unet1d_128x4096_b8,audio_unet1d_512x1024_b8,sd15_unet_320x64x64_b1,wav2vec2_gn_512x49999_b1'
sets="$H/../run46/fewg462.json $H/../run44/fewg86.json"
V='gn_fused,gn_fused_v4,gn_fused2*,gn_fused1*'
for v in new old new2; do
  if [ $v = old ]; then cp $H/old/gn_combine.glsl $H/old/gn_apply_merge.comp kernels/glsl/; fi
  if [ $v = new2 ]; then cp $H/new2/gn_combine.glsl $H/new2/gn_apply_merge.comp kernels/glsl/; fi
  S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $sets --variant "$V" --mode hot -q --json $D/47d_fewg_$v.json > $D/47d_fewg_$v.txt 2>&1; echo "fewg $v rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 50 .gpuhost/gnbench run configs/models.json --problem "$M" --variant "$V" --mode hot -q --json $D/47d_models_$v.json > $D/47d_models_$v.txt 2>&1; echo "models $v rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/47d_fewg472_torch.json $H/fewg472.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/fewg472.json --variant 'gn_*' --mode hot -q --json $D/47d_fewg472.json > $D/47d_fewg472.txt 2>&1; echo "fewg472 rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47d.tar 47d && rm -r $D
