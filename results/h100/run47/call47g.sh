# gpu-log run 47, call g (any card). On an H200 (the card the targets name; about 400 s):
# PyTorch's anchor and gnbench --variant best with the H200 dispatch table
# (results/h200/h200.table.json, as a user of the shipped table runs it), cold and hot, on
# models.json and standard.json. On any other card: call f (the adopted gn_flat builds).
# Run from the repository root: bash results/h100/run47/call47g.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) ;;
  *) bash results/h100/run47/call47f.sh; exit ;;
esac
D=$OUT/47g; mkdir -p $D; T=results/h200/h200.table.json
run() { bash .gpuhost/launch.sh "$@"; }
for c in standard models; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/47g_${c}_torch.json configs/$c.json > /dev/null 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT ${TB:-240} .gpuhost/gnbench run configs/$c.json --variant best --table $T --mode both -q --json $D/47g_${c}_best.json > $D/47g_${c}_best.txt 2>&1; echo "$c best rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47g.tar 47g && rm -r $D
