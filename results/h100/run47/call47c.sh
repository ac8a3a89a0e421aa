# gpu-log run 47, call c (any card): session 37's batched group merges (gn_combine.glsl,
# gn_piece_merge.glsl; commit 9cf76a2) against the loops before them (results/h100/run47/old/, the
# files of 4f37a2c), every gn_fused* hot on the few-group sets fewg462 / fewg86 and the
# models.json shapes gn_fused* or gn_fused_rp* won in run 43 (under 100 MB); new, old, new again
# on one machine (drift). Then fewg472 (drawn for this call: gen_shapes.py 472 16 --batch 1 8
# --elements 1e5 8e6 --groups 1 16 --max-cpg 4096) every gn_* hot beside PyTorch, new merges.
# Run from the repository root, after bash results/h100/run47/prepare_versions.sh:
#   bash results/h100/run47/call47c.sh
H=results/h100/run47; D=$OUT/47c; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader
M='sd2_unet_320x96x96_b2,sd2_unet_640x48x48_b2,sdxl_unet_320x128x128_b1,sdxl_unet_640x64x64_b2,sdxl_unet_1920x64x64_b1,sd_vae_512x128x128_b1,sd_vae_256x256x256_b1,flux_vae_512x128x128_b1,resnet50gn_2048x7x7_b64,resnext50gn_1024x7x7_b64,bit_r50x3_6144x7x7_b32,maskrcnn_fpn_p3_256x100x168_b2,audio_unet1d_32x65536_b4,audio_unet1d_128x4096_b8,audio_unet1d_512x1024_b8,sd15_unet_320x64x64_b1,wav2vec2_gn_512x49999_b1'
sets="$H/../run46/fewg462.json $H/../run44/fewg86.json"
for v in new old new2; do
  if [ $v = old ]; then cp $H/old/gn_combine.glsl $H/old/gn_piece_merge.glsl kernels/glsl/; fi
  if [ $v = new2 ]; then cp $H/new/gn_combine.glsl $H/new/gn_piece_merge.glsl kernels/glsl/; fi
  S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $sets --variant 'gn_fused*' --mode hot -q --json $D/47c_fewg_$v.json > $D/47c_fewg_$v.txt 2>&1; echo "fewg $v rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 50 .gpuhost/gnbench run configs/models.json --problem "$M" --variant 'gn_fused*' --mode hot -q --json $D/47c_models_$v.json > $D/47c_models_$v.txt 2>&1; echo "models $v rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/47c_fewg472_torch.json $H/fewg472.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/fewg472.json --variant 'gn_*' --mode hot -q --json $D/47c_fewg472.json > $D/47c_fewg472.txt 2>&1; echo "fewg472 rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47c.tar 47c && rm -r $D
