# gpu-log run 34, call f: gn_fused_rp_t1/_t2/_t4/_t8 (gn_rowpiece.comp TEAM: one row per team of
# 1-8 lanes, for rows under 157 elements with HW % 4 != 0 in groups of several rows, which only
# the scalar gn_fused took) on verify/edge/numerics with coverage; then team49.json (gen_shapes.py
# 49 3000's first 24 shapes in those bands) every gn_* cold and hot beside PyTorch, and the
# held-out a01 of 34b and models.json's shapes in the bands, every gn_* cold and hot
set -x
R=results/h200/run34
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run configs/verify.json configs/edge.json configs/numerics.json --variant 'gn_fused_rp_t*' --no-timing -q --coverage > $OUT/34f_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/34f_team49_torch.json $R/team49.json > $OUT/34f_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/team49.json --variant 'gn_*' --mode both -q --json $OUT/34f_team49.json > $OUT/34f_team49.txt 2>&1; echo "team49 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run $R/held43.json configs/models.json --problem a01_n252_c1994_hw35_g2,resnet50gn_2048x7x7_b64,resnet50gn_512x7x7_b128,resnext50gn_1024x7x7_b64,bit_r50x3_6144x7x7_b32,retinanet_fpn_p7_256x7x11_b2,maskrcnn_box_head_256x7x7_rois1024,flat_resnet50_pool_2048_b256,flat_mlp_512_b1024,flat_points_128_n65536,flat_embed_1280_b2,flat_odd_1000_b64,poolformer_s12_512x7x7_b128 --variant 'gn_*' --mode both -q --json $OUT/34f_other.json > $OUT/34f_other.txt 2>&1; echo "other rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary\|^coverage\|never verified" $OUT/*.txt
ls -la $OUT
