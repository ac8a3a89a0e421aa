# gpu-log run 25, call d: the shipped gn_gmajor (the shared-memory channel sums back) beside gn_sgroup and gn_onchip2 on the small models.json shapes
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json --variant 'gn_gmajor*' --no-timing -q --json $OUT/25d_verify.json > $OUT/25d_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --problem 'retinanet_fpn_p7_256x7x11_b2,nnunet3d_in_320x5x6x5_b2,flat_embed_1280_b2,flat_resnet50_pool_2048_b256,flat_odd_1000_b64,cyclegan_in_256x64x64_b1,sd15_unet_1280x16x16_b1,sd15_unet_640x32x32_b1,maskrcnn_fpn_p5_256x25x42_b2' --variant 'gn_gmajor*,gn_sgroup*,gn_onchip2*' --mode both -q --json $OUT/25d_small.json > $OUT/25d_small.txt 2>&1; echo "small rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
