# gpu-log run 39, call a (session 24): where the 85 % copy target's time goes on models.json's
# shapes of 40 MB and more. (1) The floor of a 3T variant at each shape's size under gnbench's
# timing: exp/floor.json's diagnostic kernels (a pure vec4 stream grad_input = x + grad_out,
# alone and followed by a minimal second dispatch; they fail verification by design), cold
# and hot. (2) --stage-times of run 36d's best variant on each of the 12 shapes under 85 %.
# (3) flat62rest.json (the six held-out flat62 shapes 38e's timeout cut) beside PyTorch.
set -x
R=results/h200/run39
S=$SECONDS; timeout -s INT 170 .gpuhost/gnbench run $R/models40.json --kernels $R/exp --variant 'floor_*' --mode both -q --json $OUT/39a_floor.json > $OUT/39a_floor.txt 2>&1; echo "floor rc=$? $((SECONDS-S)) s"
P=sdxl_unet_1280x32x32_b8,resnet50gn_stem_64x112x112_b32,resnet50gn_64x56x56_b64,resnet50gn_512x28x28_b64,resnet50gn_1024x14x14_b64,resnext50gn_128x56x56_b32,maskrcnn_box_head_256x7x7_rois1024,maskrcnn_mask_head_256x14x14_rois256,animatediff_320x64x64_f16,svd_unet_640x36x64_f14,svd_unet_1280x18x32_f14,wav2vec2_gn_512x3199_b8
V=gn_regx_v4_1024x10,gn_onchip2_v4_896,gn_onchip2_v4_128x13d4,gn_onchip2_v4_512x7,gn_onchip2_v4_256x8d2,gn_sgroup_v4_4,gn_onchip2_v4_128,gn_fused_v4,gn_onchip2_v4_1024,gn_onchip2_m4_256
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/models40.json --problem $P --variant $V --mode hot --stage-times -q --json $OUT/39a_stages.json > $OUT/39a_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/39a_flat62rest_torch.json $R/flat62rest.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run $R/flat62rest.json --variant 'gn_*' --mode both -q --json $OUT/39a_flat62rest.json > /dev/null 2>&1; echo "flat62rest rc=$? $((SECONDS-S)) s"
gzip $OUT/39a_floor.json $OUT/39a_stages.json $OUT/39a_flat62rest.json
ls -la $OUT
