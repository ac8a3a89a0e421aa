# gpu-log run 51, call a (any card). Two sets drawn for this call, never timed before
# (gen_shapes.py 501 24: the defaults, 2e6-2.4e7 elements, batch 1-512; 502 24: 2e4-2e6 elements,
# batch 1-32), first as a user of the shipped table runs them (--variant best with the card's
# table, cold and hot), then every gn_* cold and hot (the fastest build per shape, and sources for
# the table), beside PyTorch's anchor. On an H200 first: models.json and standard.json with
# --variant best and the H200 table beside PyTorch, cold and hot (the targets).
# Run from the repository root: bash results/h100/run51/call51a.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run51; D=$OUT/51a; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in *H200*) T=results/h200/h200.table.json ;; *) T=results/h100/h100.table.json ;; esac
case "$gpu" in
  *H200*)
    for c in standard models; do
      S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/51a_${c}_torch.json configs/$c.json > /dev/null 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
      S=$SECONDS; run timeout -s INT 150 .gpuhost/gnbench run configs/$c.json --variant best --table $T --mode both -q --json $D/51a_${c}_best.json > $D/51a_${c}_best.txt 2>&1; echo "$c best rc=$? $((SECONDS-S)) s"
    done ;;
esac
for s in small502 mix501; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/51a_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 50 .gpuhost/gnbench run $H/$s.json --variant best --table $T --mode both -q --json $D/51a_${s}_best.json > $D/51a_${s}_best.txt 2>&1; echo "$s best rc=$? $((SECONDS-S)) s"
done
for s in small502 mix501; do
  S=$SECONDS; run timeout -s INT 100 .gpuhost/gnbench run $H/$s.json --variant 'gn_*' --mode both -q --json $D/51a_${s}_all.json > $D/51a_${s}_all.txt 2>&1; echo "$s all rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/51a.tar 51a && rm -r $D
