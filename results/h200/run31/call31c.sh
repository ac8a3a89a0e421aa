# gpu-log run 31, call c: models.json, every gn_* variant cold and hot beside PyTorch's anchor,
# with the row-lane dwdb stage on gn_onchip2 / gn_sgroup / gn_team and hot samples without a
# zero-fill between them (the figures of docs/performance.md's models.json table)
set -x
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/31c_models_torch.json configs/models.json > $OUT/31c_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 450 .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/31c_models.json > $OUT/31c_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/31c_models.json
grep -h "^summary" $OUT/31c_*.txt
cd $OUT && tar czf $FINAL/31c.tgz . && ls -la $FINAL
