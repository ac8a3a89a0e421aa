# gpu-log run 33, call d: every run-33 build on verify.json, edge.json and numerics.json (verify
# only, with coverage); models.json, every gn_* variant cold and hot beside PyTorch's anchor
# (the figures of docs/performance.md's models.json table)
set -x
FINAL=$OUT; OUT=$(mktemp -d)
NEW='gn_sgroup_v4_*,gn_onchip2_v4_256x8d2,gn_onchip2_v4_128x10d6,gn_onchip2_v4_128x13d4,gn_onchip2_m4_192x8d2'
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run configs/verify.json configs/edge.json configs/numerics.json --variant "$NEW" --no-timing -q --coverage > $OUT/33d_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/33d_models_torch.json configs/models.json > $OUT/33d_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 450 .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode both -q --json $OUT/33d_models.json > $OUT/33d_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/33d_models.json
grep -h "^summary\|^coverage" $OUT/33d_*.txt
cd $OUT && tar czf $FINAL/33d.tgz . && ls -la $FINAL
