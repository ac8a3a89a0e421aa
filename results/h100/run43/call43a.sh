# gpu-log run 43, call a (planned in session 31, before any device time of the split builds):
# the gn_onchip2_*s split builds (groups too large for one workgroup's registers, cut into parts
# of whole rows that meet in one dispatch) against every other gn_* build, hot, in one call:
# models.json (41 of its shapes admit a split build at subgroup 32, among them the 40 MB shapes
# under 85 % of copy: sdxl_unet_1280x32x32_b8, svd_unet_1280x18x32_f14, animatediff_320x64x64_f16,
# resnext50gn_128x56x56_b32, resnet50gn_1024x14x14_b64) and the held-out split75.json.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run43/call43a.sh
set -x
R=results/h100/run43
S=$SECONDS; timeout -s INT ${TA:-300} .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode hot -q --json $OUT/43a_models_hot.json > $OUT/43a_models_hot.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${TB:-200} .gpuhost/gnbench run $R/split75.json --variant 'gn_*' --mode hot -q --json $OUT/43a_split75.json > $OUT/43a_split75.txt 2>&1; echo "split75 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
