# gpu-log run 31, call b: hot samples without a zero-fill between them (the variant keeps its
# "zero" scratch zero; the runtime fills it before the first sample only). The same entries
# with the binary of call a (a fill before every hot sample) and with this one, in one call;
# then gn_onchip2 against its row-lane dwdb twin (_d8) on the held-out large-batch shapes.
set -x
R=results/h200/run31
FINAL=$OUT; OUT=$(mktemp -d)
P='resnet50gn_*,resnext50gn_*,bit_*,maskrcnn_*,flat_*,ddpm*,poolformer*,retinanet*,nnunet*'
V='gn_onchip2*,gn_sgroup*,gn_team*,gn_regx*,gn_fused*'
for b in gnbench_31a gnbench; do
  S=$SECONDS; timeout -s INT 150 .gpuhost/$b run configs/models.json --problem "$P" --kernels .gpuhost/exp --variant "$V" --mode hot -q --json $OUT/31b_models_$b.json > $OUT/31b_models_$b.txt 2>&1; echo "$b rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/bigbatch35.json --kernels .gpuhost/exp --variant 'gn_onchip2*' --mode hot -q --json $OUT/31b_bigbatch35.json > $OUT/31b_bigbatch35.txt 2>&1; echo "bigbatch rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "^summary" $OUT/31b_*.txt
cd $OUT && tar czf $FINAL/31b.tgz . && ls -la $FINAL
