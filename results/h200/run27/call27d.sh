# gpu-log run 27, call d: verification of every gn_* variant; every gn_* on standard.json and on the 80 random
# shapes of calls a and b (gen_shapes.py 27 40, 28 40), cold and hot, beside PyTorch's anchor on each, in one call
set -x
G=.gpuhost/gnbench
FINAL=$OUT; OUT=$(mktemp -d)  # many files: one tarball comes back
S=$SECONDS; $G run configs/verify.json configs/edge.json --variant 'gn_*' --no-timing -q > $OUT/27d_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/27d_standard_torch.json > $OUT/27d_standard_torch.txt 2>&1; echo "torch standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/27d_standard.json > $OUT/27d_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
for r in rnd27 rnd28; do
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/27d_${r}_torch.json .gpuhost/$r.json > $OUT/27d_${r}_torch.txt 2>&1; echo "torch $r rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run .gpuhost/$r.json --variant 'gn_*' --mode both -q --json $OUT/27d_$r.json > $OUT/27d_$r.txt 2>&1; echo "$r rc=$? $((SECONDS-S)) s"
done
gzip $OUT/27d_standard.json $OUT/27d_rnd27.json $OUT/27d_rnd28.json
tail -1 $OUT/27d_verify.txt
grep -h "^summary" $OUT/27d_standard.txt $OUT/27d_rnd27.txt $OUT/27d_rnd28.txt
cd $OUT && tar czf $FINAL/27d.tgz . && ls -la $FINAL
