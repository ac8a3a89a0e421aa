# gpu-log run 48, call a (any card). On an H200 first: call 47g (models.json and standard.json
# with --variant best and the H200 table beside PyTorch). Then the experiments of
# results/h100/run48/exp (builds with PART_LAST: grad_weight / grad_bias summed by the last
# workgroup of each g, one dispatch, in place of the dwdb stage): x_flatl (gn_flat) and
# x_onchip2l (gn_onchip2, written by exp/make_x.py), hot, beside every gn_* and PyTorch, on the
# models.json shapes they apply to (batch 2-64, under 32 MB); on a card other than the H200 also
# on sets drawn for them: small482 (batch 2-16, spatial 2-4096, 2e4-4e6 elements), flat480
# (flattened, batch 2-64, 2e4-4e6), flat481 (flattened, batch 2-256, 1e5-2e7) and run 47's flat474.
# Run from the repository root: bash results/h100/run48/call48a.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run48; D=$OUT/48a; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
P='animatediff_1280x8x8_f32,audio_unet1d_1024x128_b8,flat_embed_1280_b2,flat_odd_1000_b64,iddpm64_1344x8x8_b64,maskrcnn_fpn_p5_256x25x42_b2,nnunet3d_in_320x5x6x5_b2,resnet50gn_2048x7x7_b64,resnext50gn_1024x7x7_b64,retinanet_fpn_p7_256x7x11_b2,sd15_unet_1280x16x16_b2,sd15_unet_1280x16x16_b4,sd15_unet_1280x8x8_b2,sd15_unet_1920x16x16_b2,sd15_unet_2560x8x8_b2,sd15_unet_640x32x32_b2,sd15_unet_640x32x32_b4,sd2_unet_1280x12x12_b8,sd2_unet_1280x24x24_b2,styletransfer_in_128x64x64_b4,svd_unet_1280x9x16_f14'
case "$gpu" in
  *H200*) bash results/h100/run47/call47g.sh; sets="" ;;
  *) sets="small482:$H/small482.json flat480:$H/flat480.json flat481:$H/flat481.json flat474:$H/../run47/flat474.json" ;;
esac
S=$SECONDS; run timeout -s INT 120 .gpuhost/gnbench run configs/models.json --problem "$P" --kernels $H/exp --variant 'gn_*,x_*' --mode hot -q --json $D/48a_models.json > $D/48a_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
for s in $sets; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/48a_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 100 .gpuhost/gnbench run $cfg --kernels $H/exp --variant 'gn_*,x_*' --mode hot -q --json $D/48a_$name.json > $D/48a_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/48a.tar 48a && rm -r $D
