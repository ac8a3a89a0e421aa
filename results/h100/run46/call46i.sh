# gpu-log run 46, call i (any card): flattened features (spatial 1) for the H100 table, which had
# one such set (41b's f* shapes; left out, dispatch_eval.py picked gn_fused at up to 20x the
# fastest): flat470 (gen_shapes.py 470 16 --spatial 1 1 --channels 64 16384 --max-cpg 16384
# --elements 50000 32000000) beside PyTorch and flat471 (gen_shapes.py 471 12 --spatial 1 1
# --channels 257 16384 --max-cpg 16384 --min-cpg 257 --batch 1 1000 --elements 100000 40000000,
# layer-norm-like), every gn_* hot.
# Run from the repository root: bash results/h100/run46/call46i.sh
H=results/h100/run46; D=$OUT/46i; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
nvidia-smi --query-gpu=name --format=csv,noheader
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/46i_flat470_torch.json $H/flat470.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/flat470.json --variant 'gn_*' --mode hot -q --json $D/46i_flat470.json > $D/46i_flat470.txt 2>&1; echo "flat470 rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 45 .gpuhost/gnbench run $H/flat471.json --variant 'gn_*' --mode hot -q --json $D/46i_flat471.json > $D/46i_flat471.txt 2>&1; echo "flat471 rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/46i.tar 46i && rm -r $D
