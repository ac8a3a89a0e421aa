# gpu-log run 52, call b (an H200 only; on any other card it stops at once): the H200 table's
# generated regimes timed with every current gn_* build, hot (table sources: its entries from
# runs 31-40 predate the builds added since run 41). mix505 (gen_shapes.py 505 24) first as a
# user of the shipped H200 table runs it, cold and hot, beside PyTorch; then every gn_* hot on
# mix505, fewg507 (gen_shapes.py 507 16 --batch 1 8 --elements 100000 8000000 --groups 1 16
# --max-cpg 4096) and mid508 (gen_shapes.py 508 16 --elements 2000000 30000000 --spatial 4 400).
# Run from the repository root: bash results/h100/run52/call52b.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in *H200*) ;; *) exit 0 ;; esac
H=results/h100/run52; D=$OUT/52b; mkdir -p $D; T=results/h200/h200.table.json
run() { bash .gpuhost/launch.sh "$@"; }
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/52b_mix505_torch.json $H/mix505.json > /dev/null 2>&1; echo "torch mix505 rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/mix505.json --variant best --table $T --mode both -q --json $D/52b_mix505_best.json > $D/52b_mix505_best.txt 2>&1; echo "mix505 best rc=$? $((SECONDS-S)) s"
for s in mix505 fewg507 mid508; do
  S=$SECONDS; run timeout -s INT 140 .gpuhost/gnbench run $H/$s.json --variant 'gn_*' --mode hot -q --json $D/52b_${s}_all.json > $D/52b_${s}_all.txt 2>&1; echo "$s all rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/52b.tar 52b && rm -r $D
