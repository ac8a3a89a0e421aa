# gpu-log run 27, call b: more occupancy builds (scalar gn_onchip2_128, _256x24; vec4 _v4_128x8,
# _v4_256x12, _v4_256x12s4, _v4_256x14s4; gn_sgroup_24): verification; the two families on the
# random shapes of call a and models.json's shapes; every gn_* on 40 new random shapes beside PyTorch
set -x
G=.gpuhost/gnbench
NEW='gn_onchip2_128,gn_onchip2_256x24,gn_onchip2_v4_128x8,gn_onchip2_v4_256x12*,gn_onchip2_v4_256x14s4,gn_sgroup_24'
S=$SECONDS; $G run configs/verify.json configs/edge.json --variant "$NEW" --no-timing -q --json $OUT/27b_verify.json > $OUT/27b_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run .gpuhost/rnd27.json --variant 'gn_onchip2*,gn_sgroup*' --mode hot -q --pipeline-stats --json $OUT/27b_rnd27.json > $OUT/27b_rnd27.txt 2>&1; echo "rnd27 rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --problem 'resnet50gn_*,resnext50gn_*,maskrcnn_*,animatediff_*,svd_unet_*,wav2vec2_*,flat_*,sd15_unet_*' --variant 'gn_onchip2*,gn_sgroup*' --mode hot -q --json $OUT/27b_models.json > $OUT/27b_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/27b_rnd28_torch.json .gpuhost/rnd28.json > $OUT/27b_rnd28_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run .gpuhost/rnd28.json --variant 'gn_*' --mode hot -q --json $OUT/27b_rnd28.json > $OUT/27b_rnd28.txt 2>&1; echo "rnd28 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/*.txt
