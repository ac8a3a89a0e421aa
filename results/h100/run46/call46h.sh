# gpu-log run 46, call h (any card): what a user of the rebuilt H100 table gets on shapes drawn
# after it: held468 (gen_shapes.py 468 16, the default 8-96 MB draw) and short469 (short465's
# recipe, seed 469): PyTorch, --variant best --table results/h100/h100.table.json cold and hot,
# and every gn_* hot (the fastest, against which the table's choice is measured).
# Run from the repository root: bash results/h100/run46/call46h.sh
H=results/h100/run46; D=$OUT/46h; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader
for name in held468 short469; do
  cfg=$H/$name.json
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/46h_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 40 .gpuhost/gnbench run $cfg --variant best --table results/h100/h100.table.json --mode both -q --json $D/46h_${name}_best.json > $D/46h_${name}_best.txt 2>&1; echo "$name best rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 90 .gpuhost/gnbench run $cfg --variant 'gn_*' --mode hot -q --json $D/46h_$name.json > $D/46h_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/46h.tar 46h && rm -r $D
