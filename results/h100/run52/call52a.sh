# gpu-log run 52, call a (any card). Three sets drawn for this call, never timed before:
# tiny503 (gen_shapes.py 503 12 --elements 256 8192 --batch 1 8 --channels 4 256 --spatial 1 256:
# problems of at most 100 KB, so a cold sample's extra time is not the data's), small504
# (gen_shapes.py 504 32 --elements 20000 2000000 --batch 1 32) and mix505 (gen_shapes.py 505 24).
# tiny503: every gn_* cold and hot with --stage-times and --pipeline-stats (each stage's binary
# size beside its cold - hot difference). On an H200: models.json and standard.json with
# --variant best and the H200 table beside PyTorch (the targets). Then small504 (and on
# other cards mix505) as a user of the shipped table runs them, beside PyTorch, and small504
# with every gn_* hot (table source).
# Run from the repository root: bash results/h100/run52/call52a.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run52; D=$OUT/52a; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in *H200*) T=results/h200/h200.table.json; sets="small504" ;;
  *) T=results/h100/h100.table.json; sets="small504 mix505" ;; esac
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/tiny503.json --variant 'gn_*' --mode both --stage-times --pipeline-stats -q --json $D/52a_tiny503_all.json > $D/52a_tiny503_all.txt 2>&1; echo "tiny503 all rc=$? $((SECONDS-S)) s"
case "$gpu" in
  *H200*)
    for c in standard models; do
      S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/52a_${c}_torch.json configs/$c.json > /dev/null 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
      S=$SECONDS; run timeout -s INT 200 .gpuhost/gnbench run configs/$c.json --variant best --table $T --mode both -q --json $D/52a_${c}_best.json > $D/52a_${c}_best.txt 2>&1; echo "$c best rc=$? $((SECONDS-S)) s"
    done ;;
esac
for s in $sets; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/52a_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/$s.json --variant best --table $T --mode both -q --json $D/52a_${s}_best.json > $D/52a_${s}_best.txt 2>&1; echo "$s best rc=$? $((SECONDS-S)) s"
done
# What the call's limit leaves (the device budget was short): at most 110 s, ending by 520 s.
left=$((520 - SECONDS)); [ $left -gt 110 ] && left=110
if [ $left -gt 20 ]; then
  S=$SECONDS; run timeout -s INT $left .gpuhost/gnbench run $H/small504.json --variant 'gn_*' --mode hot -q --json $D/52a_small504_all.json > $D/52a_small504_all.txt 2>&1; echo "small504 all rc=$? $((SECONDS-S)) s"
fi
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/52a.tar 52a && rm -r $D
