# gpu-log run 29, call b: held-out check with gn_fused_rp_row64 / _row128 in: 80 generated
# shapes drawn after every build was fixed (scripts/gen_shapes.py 31 40, 32 40) and the
# standard set, every gn_* variant, cold and hot, each beside PyTorch's anchor, in one call
set -x
G=.gpuhost/gnbench
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/29b_standard_torch.json > $OUT/29b_standard_torch.txt 2>&1; echo "torch standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/29b_standard.json > $OUT/29b_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
for r in rnd31 rnd32; do
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/29b_${r}_torch.json results/h200/run29/$r.json > $OUT/29b_${r}_torch.txt 2>&1; echo "torch $r rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run results/h200/run29/$r.json --variant 'gn_*' --mode both -q --json $OUT/29b_$r.json > $OUT/29b_$r.txt 2>&1; echo "$r rc=$? $((SECONDS-S)) s"
done
gzip $OUT/29b_standard.json $OUT/29b_rnd31.json $OUT/29b_rnd32.json
grep -h "^summary" $OUT/29b_*.txt
cd $OUT && tar czf $FINAL/29b.tgz . && ls -la $FINAL
