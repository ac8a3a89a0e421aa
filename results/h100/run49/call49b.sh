# gpu-log run 49, call b (any card). On an H200: call 47g (models.json and standard.json with
# --variant best and the H200 table beside PyTorch, cold and hot), then the same hot with
# --hot-batch 20. On any other card: three sets drawn for this call and timed before any choice
# was made from them (gen_shapes.py 492 24: defaults; 493 20: 2e4-2e6 elements, batch 1-32; 494 16: flattened, batch 2-64, 2e4-4e6 elements), after the dispatch changes of 361566a,
# first as a user of the shipped table runs them (--variant best with the card's table, cold and
# hot), then every gn_* hot (sources for the table), beside PyTorch's anchor.
# Run from the repository root: bash results/h100/run49/call49b.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run49; D=$OUT/49b; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in
  *H200*)
    bash results/h100/run47/call47g.sh
    for c in standard models; do
      S=$SECONDS; run timeout -s INT 150 .gpuhost/gnbench run configs/$c.json --variant best --table results/h200/h200.table.json --mode hot --hot-batch 20 -q --json $D/49b_${c}_best_k20.json > $D/49b_${c}_best_k20.txt 2>&1; echo "$c best k20 rc=$? $((SECONDS-S)) s"
    done ;;
  *)
    for s in mix492 small493 flat494; do
      S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/49b_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
      S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/$s.json --variant best --table results/h100/h100.table.json --mode both -q --json $D/49b_${s}_best.json > $D/49b_${s}_best.txt 2>&1; echo "$s best rc=$? $((SECONDS-S)) s"
    done
    for s in small493 mix492 flat494; do
      S=$SECONDS; run timeout -s INT 120 .gpuhost/gnbench run $H/$s.json --variant 'gn_*' --mode hot -q --json $D/49b_${s}_all.json > $D/49b_${s}_all.txt 2>&1; echo "$s all rc=$? $((SECONDS-S)) s"
    done ;;
esac
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/49b.tar 49b && rm -r $D
