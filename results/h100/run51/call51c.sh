# gpu-log run 51, call c (an H200 only; on any other card it stops at once): models.json and
# standard.json with --variant best and the H200 table (results/h200/h200.table.json), cold and
# hot, beside PyTorch's anchor: the targets with the shipped table.
# Run from the repository root: bash results/h100/run51/call51c.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in *H200*) ;; *) exit 0 ;; esac
D=$OUT/51c; mkdir -p $D; T=results/h200/h200.table.json
run() { bash .gpuhost/launch.sh "$@"; }
for c in standard models; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/51c_${c}_torch.json configs/$c.json > /dev/null 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 200 .gpuhost/gnbench run configs/$c.json --variant best --table $T --mode both -q --json $D/51c_${c}_best.json > $D/51c_${c}_best.txt 2>&1; echo "$c best rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/51c.tar 51c && rm -r $D
