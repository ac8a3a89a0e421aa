# gpu-log run 27, call a: experiment builds (gn_sgroup_16 at 64 and 128 invocations; gn_onchip2_v4_128,
# _v4_256x8, _v4_512x7s3): verification; every gn_* on 40 random large shapes (gen_shapes.py 27 40)
# beside PyTorch; the families on models.json's shapes under 85 % of copy
set -x
G=.gpuhost/gnbench
NEW='gn_sgroup_16*,gn_onchip2_v4_128,gn_onchip2_v4_256x8,gn_onchip2_v4_512x7s3'
S=$SECONDS; $G run configs/verify.json configs/edge.json --variant "$NEW" --no-timing -q --json $OUT/27a_verify.json > $OUT/27a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/27a_rnd_torch.json .gpuhost/rnd27.json > $OUT/27a_rnd_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run .gpuhost/rnd27.json --variant 'gn_*' --mode hot -q --pipeline-stats --json $OUT/27a_rnd.json > $OUT/27a_rnd.txt 2>&1; echo "rnd rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --problem 'resnet50gn_*,resnext50gn_*,maskrcnn_*,animatediff_320*,svd_unet_*,wav2vec2_*,flat_resnet50_pool*,sd15_unet_320x64x64_b1' --variant 'gn_onchip2*,gn_sgroup*,gn_fused_v4,gn_regx_v4*' --mode hot -q --json $OUT/27a_models.json > $OUT/27a_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
cp .gpuhost/rnd27.json .gpuhost/gen_shapes.py $OUT/
gzip $OUT/27a_verify.json $OUT/27a_rnd.json $OUT/27a_models.json
grep -h "^summary" $OUT/*.txt
