# gpu-log run 31, call a: the row-lane dwdb stage (gn_dwdb_split.comp with ROW_LANES 8) on the
# H200: verification of the shipped gn_sgroup / gn_team (now on it) and of the experiment
# builds in .gpuhost/exp (gn_onchip2*_d8: gn_onchip2 with it instead of its one-invocation-
# per-channel walk; gn_sgroup*_d1 / gn_team*_d1: the previous split stage); then hot A/B on
# models.json's large-batch shapes and on the held-out gen_shapes.py 35 24 --batch 64 1024
set -x
G=.gpuhost/gnbench
R=results/h200/run31
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; $G run configs/verify.json configs/edge.json --kernels .gpuhost/exp --variant 'gn_sgroup*,gn_team*,gn_onchip2*_d8' --no-timing -q > $OUT/31a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 $G run configs/models.json --problem 'resnet50gn_*,resnext50gn_*,bit_*,maskrcnn_box_head*,maskrcnn_mask_head*,flat_*,ddpm*,poolformer*' --kernels .gpuhost/exp --variant 'gn_onchip2*,gn_sgroup*,gn_team*' --mode hot -q --json $OUT/31a_models.json > $OUT/31a_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 $G run $R/bigbatch35.json --kernels .gpuhost/exp --variant 'gn_onchip2*,gn_sgroup*,gn_team*' --mode hot -q --json $OUT/31a_bigbatch35.json > $OUT/31a_bigbatch35.txt 2>&1; echo "bigbatch rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/31a_*.txt
cd $OUT && tar czf $FINAL/31a.tgz . && ls -la $FINAL
