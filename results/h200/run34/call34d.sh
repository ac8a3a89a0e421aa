# gpu-log run 34, call d (A/B, hot): gn_combine.glsl's merge with its record loads batched
# (MERGE_BATCH 4 strides in flight per loop; gn_fused*, gn_fused_rp*: the working tree) against
# the same builds from the committed sources (results/h200/run34/exp/old_glsl, names gn_ofused*),
# and gn_xf1n / _v4 (exp/gn_f1n.json: gn_fused1's apply-merge for any batch, the first blocks'
# rows summed over n by the last of them) on the held-out sets of 34b and models.json's shapes
# where a 5T build was the fastest in 33d
# To rerun: the measured working tree is commit 5619bb7 plus exp/34d_merge_batch.patch and exp/34d_apply_merge_batched.patch
# (`git apply`; the patches keep the measured code, with shorter comments), and exp/old_glsl is
# that commit's kernels/glsl: mkdir -p results/h200/run34/exp/old_glsl && git archive 5619bb7
# kernels/glsl | tar -x --strip-components=2 -C results/h200/run34/exp/old_glsl
set -x
R=results/h200/run34
V='gn_ofused*,gn_fused*,gn_xf*'
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run $R/small44.json --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/34d_small44.json > $OUT/34d_small44.txt 2>&1; echo "small44 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 210 .gpuhost/gnbench run $R/held43.json --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/34d_held43.json > $OUT/34d_held43.txt 2>&1; echo "held43 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run configs/models.json --kernels $R/exp --problem sd15_unet_320x64x64_b1,sd2_unet_320x96x96_b2,sd2_unet_640x48x48_b2,sdxl_unet_640x64x64_b2,sdxl_unet_1920x64x64_b1,sd_vae_512x64x64_b4,maskrcnn_fpn_p3_256x100x168_b2,audio_unet1d_32x65536_b4,audio_unet1d_128x4096_b8,audio_unet1d_512x1024_b8,poolformer_s12_320x14x14_b64,poolformer_s12_512x7x7_b128,sd15_unet_320x64x64_b2,maskrcnn_fpn_p4_256x50x84_b2 --variant "$V" --mode hot -q --json $OUT/34d_models.json > $OUT/34d_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/*.txt
ls -la $OUT
