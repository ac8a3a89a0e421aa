# gpu-log run 38, call d: the shipped gn_flat after 38c (30 builds) on flat61.json, held out
# (gen_shapes.py 61 20 --spatial 1 1 --channels 128 16384 --max-cpg 16384 --min-cpg 65 --batch 1
# 4096 --elements 100000 40000000, drawn after the builds were chosen), every gn_* beside
# PyTorch; then 38b's cold outlier (ar08 on gn_flat_256x16: 607 us cold, 164 hot) under both
# flush modes.
set -x
R=results/h200/run38
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38d_flat61_torch.json $R/flat61.json > /dev/null 2>&1; echo "torch flat61 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/flat61.json --variant 'gn_*' --mode both -q --json $OUT/38d_flat61.json > /dev/null 2>&1; echo "flat61 rc=$? $((SECONDS-S)) s"
gzip $OUT/38d_flat61.json
for f in read fill; do
  S=$SECONDS; timeout -s INT 30 .gpuhost/gnbench run $R/flatbig.json --problem 'ar08*' --variant 'gn_flat_256x16,gn_flat_256x16_s8' --mode cold --flush $f -q --json $OUT/38d_ar08_$f.json > /dev/null 2>&1; echo "ar08 $f rc=$? $((SECONDS-S)) s"
done
ls -la $OUT
