# gpu-log run 28, call a: held-out check of the run-27 builds on 80 generated shapes that no
# build was chosen on (scripts/gen_shapes.py 29 40, 30 40): every gn_* variant, cold and hot,
# beside PyTorch's anchor on each; and every gn_* on edge.json (the band problems added for
# the run-27 builds), verify only
set -x
G=.gpuhost/gnbench
FINAL=$OUT; OUT=$(mktemp -d)  # many files: one tarball comes back
S=$SECONDS; $G run configs/edge.json --variant 'gn_*' --no-timing -q > $OUT/28a_edge.txt 2>&1; echo "edge rc=$? $((SECONDS-S)) s"
for r in rnd29 rnd30; do
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/28a_${r}_torch.json results/h200/run28/$r.json > $OUT/28a_${r}_torch.txt 2>&1; echo "torch $r rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run results/h200/run28/$r.json --variant 'gn_*' --mode both -q --json $OUT/28a_$r.json > $OUT/28a_$r.txt 2>&1; echo "$r rc=$? $((SECONDS-S)) s"
done
gzip $OUT/28a_rnd29.json $OUT/28a_rnd30.json
grep -h "^summary" $OUT/28a_*.txt
cd $OUT && tar czf $FINAL/28a.tgz . && ls -la $FINAL
