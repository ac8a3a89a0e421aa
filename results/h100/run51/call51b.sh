# gpu-log run 51, call b (any card). small502's six shapes that call a's every-gn_* run did not
# reach (its 100 s limit), every gn_* cold and hot; then small502 with the card's table
# (--variant best) and --stage-times, cold and hot: which stage pays the 2-15 us that the
# builds take more cold than hot on 2e4-2e6-element problems; PyTorch's anchor again beside
# them. On an H200 first: call a's models.json
# and standard.json part.
# Run from the repository root: bash results/h100/run51/call51b.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run51; D=$OUT/51b; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in *H200*) T=results/h200/h200.table.json ;; *) T=results/h100/h100.table.json ;; esac
case "$gpu" in
  *H200*)
    for c in standard models; do
      S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/51b_${c}_torch.json configs/$c.json > /dev/null 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
      S=$SECONDS; run timeout -s INT 150 .gpuhost/gnbench run configs/$c.json --variant best --table $T --mode both -q --json $D/51b_${c}_best.json > $D/51b_${c}_best.txt 2>&1; echo "$c best rc=$? $((SECONDS-S)) s"
    done ;;
esac
s=small502
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/51b_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/$s.json --problem 'r18_*,r19_*,r20_*,r21_*,r22_*,r23_*' --variant 'gn_*' --mode both -q --json $D/51b_${s}_rest_all.json > $D/51b_${s}_rest_all.txt 2>&1; echo "$s rest all rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 90 .gpuhost/gnbench run $H/$s.json --variant best --table $T --stage-times --mode both -q --json $D/51b_${s}_best_stages.json > $D/51b_${s}_best_stages.txt 2>&1; echo "$s best stages rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/51b.tar 51b && rm -r $D
