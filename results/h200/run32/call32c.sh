# gpu-log run 32, call c: models.json, every gn_* variant cold and hot beside PyTorch's anchor,
# with the masked-vec4 on-chip builds (the figures of docs/performance.md's models.json table);
# then the masked builds alone on the held-out seed 36 (the other variants' times: 31d) and on
# the one standard.json shape they admit
set -x
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/32c_models_torch.json configs/models.json > $OUT/32c_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 450 .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/32c_models.json > $OUT/32c_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h200/run31/rnd36.json --variant 'gn_onchip2_m4_*,gn_gmajor_m4_*' --mode both -q --json $OUT/32c_rnd36_m4.json > $OUT/32c_rnd36_m4.txt 2>&1; echo "rnd36 m4 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 30 .gpuhost/gnbench run configs/standard.json --problem resnet50gn_2048x7x7 --variant 'gn_onchip2_m4_*,gn_onchip2_v4_*,gn_onchip2_2*' --mode both -q --json $OUT/32c_std_m4.json > $OUT/32c_std_m4.txt 2>&1; echo "std m4 rc=$? $((SECONDS-S)) s"
gzip $OUT/32c_models.json $OUT/32c_rnd36_m4.json $OUT/32c_std_m4.json
grep -h "^summary" $OUT/32c_*.txt
cd $OUT && tar czf $FINAL/32c.tgz . && ls -la $FINAL
