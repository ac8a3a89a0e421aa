# gpu-log run 49, call c (an H200, right after 49b on the same machine): every gn_* hot on
# models.json (the H200 table's models.json entries with the builds since run 44), then the
# sets of 49b (mix492, small493, flat494) with --variant best (the H200 table, cold and hot)
# and every gn_* hot, beside PyTorch's anchor.
# Run from the repository root: bash results/h100/run49/call49c.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run49; D=$OUT/49c; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
S=$SECONDS; run timeout -s INT 260 .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode hot -q --json $D/49c_models_all.json > $D/49c_models_all.txt 2>&1; echo "models all rc=$? $((SECONDS-S)) s"
for s in small493 mix492 flat494; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/49c_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 40 .gpuhost/gnbench run $H/$s.json --variant best --table results/h200/h200.table.json --mode both -q --json $D/49c_${s}_best.json > $D/49c_${s}_best.txt 2>&1; echo "$s best rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/$s.json --variant 'gn_*' --mode hot -q --json $D/49c_${s}_all.json > $D/49c_${s}_all.txt 2>&1; echo "$s all rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/49c.tar 49c && rm -r $D
