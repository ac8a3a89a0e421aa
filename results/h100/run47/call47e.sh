# gpu-log run 47, call e (any card): flattened features (spatial 1) with groups of 1025-4096
# channels, where gn_flat has only 128x16 / 256x8 (to 2048) and 256x16 (to 4096) scalar builds:
# experimental builds with more invocations and fewer slots each (results/h100/run47/exp/flat_exp.json,
# x_flat_*: 512x4 / 1024x2 to 2048, 512x8 / 1024x4 to 4096, 256x12 to 3072, and vec4 512x1,
# 512x2, 1024x1, 256x3) beside every gn_* and PyTorch on flat473 (gen_shapes.py 473 16 --spatial 1 1
# --channels 1025 16384 --min-cpg 1025 --max-cpg 4096 --batch 1 1000 --elements 5e4 2e7) and flat474
# (seed 474, 12 shapes, --min-cpg 2049), drawn for this call, and flat470's r07_n139_c2146_hw1_g1.
# Run from the repository root: bash results/h100/run47/call47e.sh
H=results/h100/run47; D=$OUT/47e; mkdir -p $D; X="--kernels $H/exp"
run() { bash .gpuhost/launch.sh "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader
for s in flat473 flat474; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/47e_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 100 .gpuhost/gnbench run $H/$s.json $X --variant 'gn_*,x_flat*' --mode hot -q --json $D/47e_$s.json > $D/47e_$s.txt 2>&1; echo "$s rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; run timeout -s INT 30 .gpuhost/gnbench run $H/../run46/flat470.json --problem 'r07*' $X --variant 'gn_*,x_flat*' --mode hot -q --json $D/47e_flat470_r07.json > $D/47e_flat470_r07.txt 2>&1; echo "r07 rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/47e.tar 47e && rm -r $D
