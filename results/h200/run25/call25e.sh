# gpu-log run 25, call e: where the scalar 5T path (odd HW, large M) loses: stage times, scalar against vec4 at the same size, and the apply stage's items per invocation
set -x
G=.gpuhost/gnbench
$G run configs/models.json --problem wav2vec2_gn_512x49999_b1 --kernels .gpuhost/exp --variant 'gn_fused,gn_fx*' --mode hot --stage-times > $OUT/25e_wav2vec2.txt 2>&1
$G run --batch 1 --channels 512 --spatial 50000 --groups 512 --variant 'gn_fused,gn_fused_v4' --mode hot --stage-times > $OUT/25e_v4_same_size.txt 2>&1
$G run configs/models.json --problem 'maskrcnn_box_head_256x7x7_rois1024,wav2vec2_gn_512x3199_b8,resnet50gn_1024x14x14_b64' --variant 'gn_*' --mode hot --stage-times > $OUT/25e_low_pct.txt 2>&1
cat $OUT/*.txt | grep -v "^$" | grep -v SKIP
