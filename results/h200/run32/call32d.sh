# gpu-log run 32, call d: the final run-32 build set on shapes drawn after it was fixed: seed 38
# (gen_shapes.py 38 40) and a small-batch set (gen_shapes.py 39 24 --batch 1 4, the regime of
# the held-out shapes slower than PyTorch), every gn_* cold and hot beside PyTorch's anchor
set -x
R=results/h200/run32
FINAL=$OUT; OUT=$(mktemp -d)
for n in rnd38 smallbatch39; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/32d_${n}_torch.json $R/$n.json > $OUT/32d_${n}_torch.txt 2>&1; echo "torch $n rc=$? $((SECONDS-S)) s"
  S=$SECONDS; timeout -s INT 220 .gpuhost/gnbench run $R/$n.json --variant 'gn_*' --mode both -q --json $OUT/32d_${n}.json > $OUT/32d_${n}.txt 2>&1; echo "$n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/32d_rnd38.json $OUT/32d_smallbatch39.json
grep -h "^summary" $OUT/32d_*.txt
cd $OUT && tar czf $FINAL/32d.tgz . && ls -la $FINAL
