# gpu-log run 34, call e (A/B, hot): gn_sgroup with the weights of groups of <= SUBGROUP_SIZE
# channels held one per lane and taken by subgroupShuffle (the working tree) against the same
# builds from the committed source (results/h200/run34/exp/gn_osgroup.json -> old_glsl), on
# models.json's shapes where a gn_sgroup build runs and the generated sets of runs 31-34
# To rerun: the measured working tree is commit 5619bb7 plus exp/34e_sgroup_shuffle_w.patch
# (`git apply`; the patches keep the measured code, with shorter comments), and exp/old_glsl is
# that commit's kernels/glsl: mkdir -p results/h200/run34/exp/old_glsl && git archive 5619bb7
# kernels/glsl | tar -x --strip-components=2 -C results/h200/run34/exp/old_glsl
set -x
R=results/h200/run34
V='gn_sgroup*,gn_osgroup*'
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run configs/models.json --kernels $R/exp --problem ddpm_cifar_256x4x4_b128,flat_embed_1280_b2,flat_mlp_512_b1024,flat_odd_1000_b64,flat_points_128_n65536,flat_resnet50_pool_2048_b256,maskrcnn_box_head_256x7x7_rois1024,nnunet3d_in_320x5x6x5_b2,resnet50gn_512x7x7_b128,retinanet_fpn_p7_256x7x11_b2 --variant "$V" --mode hot -q --json $OUT/34e_models.json > $OUT/34e_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run $R/held43.json $R/small44.json --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/34e_held.json > $OUT/34e_held.txt 2>&1; echo "held rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run results/h200/run31/rnd36.json results/h200/run32/rnd37.json results/h200/run32/rnd38.json --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/34e_rnd.json > $OUT/34e_rnd.txt 2>&1; echo "rnd rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/*.txt
ls -la $OUT
