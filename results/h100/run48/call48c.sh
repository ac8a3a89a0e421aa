# gpu-log run 48, call c (any card): what a user of the shipped dispatch tables gets. PyTorch's
# anchor, then gnbench --variant best with the card's table (results/h200/h200.table.json on an
# H200: run 47's call g; results/h100/h100.table.json, 541 shapes, on an H100), cold and hot,
# on models.json and standard.json, one call. Run from the repository root:
#   bash results/h100/run48/call48c.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) exec bash results/h100/run47/call47g.sh ;;
esac
D=$OUT/48c; mkdir -p $D; T=results/h100/h100.table.json
run() { bash .gpuhost/launch.sh "$@"; }
for c in standard models; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/48c_${c}_torch.json configs/$c.json > /dev/null 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 240 .gpuhost/gnbench run configs/$c.json --variant best --table $T --mode both -q --json $D/48c_${c}_best.json > $D/48c_${c}_best.txt 2>&1; echo "$c best rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/48c.tar 48c && rm -r $D
