# gpu-log run 34, call a (the run-33f kit, A/B, hot): grad_out-in-shared-memory twins of the one-workgroup-per-SM
# builds (results/h200/run33/exp/gn_occ2.json: gn_onchip2_v4_896 with 0 or 2 slots, _1024 with 0 or 2; the shipped
# ones hold 1) on models.json's groups of 12k-25k elements; gn_sgroup_v4 builds at other
# workgroup sizes (results/h200/run33/exp/gn_sgx.json) on the shapes the vec4 builds took in 33a;
# masked twins with more than 8 slots (gn_occ2_m4_128x10d6 / _128x13d4 / _128x16d4, possible since
# gn_masked.glsl keeps one mask word per 8 slots) on odd41.json and models.json's wav2vec2 b8 / FPN p5
set -x
S=$SECONDS; timeout -s INT 80 .gpuhost/gnbench run configs/models.json --kernels results/h200/run33/exp --problem resnet50gn_stem_64x112x112_b32,resnet50gn_256x56x56_b64,svd_unet_1280x18x32_f14,resnet50gn_512x28x28_b64,resnext50gn_128x56x56_b32,sd15_unet_640x32x32_b4,sd15_unet_960x32x32_b2 --variant 'gn_occ2*,gn_onchip2_v4_896,gn_onchip2_v4_1024,gn_onchip2_v4_512x7' --mode hot -q --json $OUT/34a_occ2.json > $OUT/34a_occ2.txt 2>&1; echo "occ2 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run configs/models.json --kernels results/h200/run33/exp --problem maskrcnn_box_head_256x7x7_rois1024,resnet50gn_512x7x7_b128,ddpm_cifar_256x4x4_b128,retinanet_fpn_p7_256x7x11_b2 --variant 'gn_sgx*,gn_sgroup_v4*' --mode hot -q --json $OUT/34a_sgx_models.json > $OUT/34a_sgx_models.txt 2>&1; echo "sgx models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run results/h200/run32/rnd37.json --kernels results/h200/run33/exp --problem r00_n191_c1106_hw104_g553,r25_n130_c1784_hw29_g446,r34_n286_c348_hw43_g29,r04_n49_c67_hw640_g67 --variant 'gn_sgx*,gn_sgroup_v4*' --mode hot -q --json $OUT/34a_sgx_rnd37.json > $OUT/34a_sgx_rnd37.txt 2>&1; echo "sgx rnd37 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h200/run33/odd41.json --kernels results/h200/run33/exp --variant 'gn_occ2_m4*,gn_onchip2_m4*' --mode hot -q --json $OUT/34a_m4_odd41.json > $OUT/34a_m4_odd41.txt 2>&1; echo "m4 odd41 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 30 .gpuhost/gnbench run configs/models.json --kernels results/h200/run33/exp --problem wav2vec2_gn_512x3199_b8,maskrcnn_fpn_p5_256x25x42_b2 --variant 'gn_occ2_m4*,gn_onchip2_m4*' --mode hot -q --json $OUT/34a_m4_models.json > $OUT/34a_m4_models.txt 2>&1; echo "m4 models rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/*.txt
ls -la $OUT
