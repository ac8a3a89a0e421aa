# gpu-log run 47, call f (any card): the gn_flat builds adopted from call e (gn_flat_512x8,
# gn_flat_256x12; commit 25b0498; the binary is fc5069f's, whose C++ is the same) under their shipped names: every gn_* hot beside PyTorch on
# flat473, flat474 and flat470 (the flattened sets of calls e and 46i), for the H100 table.
# Run from the repository root: bash results/h100/run47/call47f.sh
H=results/h100/run47; D=$OUT/47f; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader
for s in flat473:$H/flat473.json flat474:$H/flat474.json flat470:$H/../run46/flat470.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/47f_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 130 .gpuhost/gnbench run $cfg --variant 'gn_*' --mode hot -q --json $D/47f_$name.json > $D/47f_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47f.tar 47f && rm -r $D
