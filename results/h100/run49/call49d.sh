# gpu-log run 49, call d (an H200): two sets drawn after the H200 table was rebuilt with run
# 49c's calls (gen_shapes.py 495 24: defaults; 496 20: 2e4-2e6 elements, batch 1-32), with
# --variant best (the H200 table, cold and hot) and every gn_* hot, beside PyTorch's anchor.
# Run from the repository root: bash results/h100/run49/call49d.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run49; D=$OUT/49d; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in *H200*) T=results/h200/h200.table.json ;; *) T=results/h100/h100.table.json ;; esac
for s in small496 mix495; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/49d_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 40 .gpuhost/gnbench run $H/$s.json --variant best --table $T --mode both -q --json $D/49d_${s}_best.json > $D/49d_${s}_best.txt 2>&1; echo "$s best rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 70 .gpuhost/gnbench run $H/$s.json --variant 'gn_*' --mode hot -q --json $D/49d_${s}_all.json > $D/49d_${s}_all.txt 2>&1; echo "$s all rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/49d.tar 49d && rm -r $D
