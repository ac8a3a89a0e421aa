# gpu-log run 46, call a/b: whichever card comes. On an H200: call 44b (the targets,
# models.json beside PyTorch) by itself. On an H100: call 45k (the run-45 builds with 3 trials on 80
# few-group shapes), gn_fused_rp2* hot again on fewg452 / fewg86 (the review's block order), and
# three sets drawn this session before any timing (held461: gen_shapes.py's default ranges;
# fewg462: batch 1-8, N*G 1-16, 0.1-2 M elements; big463: 10-30 M elements) beside PyTorch, each
# with --variant best from the H100 table (what a user of the table gets) and every gn_* hot.
# Run from the repository root: bash results/h100/run46/call46b.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=430 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh; exit ;;
esac
H=results/h100/run46; D=$OUT/46b; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
OUT=$OUT run bash results/h100/run45/call45k.sh
S=$SECONDS; run timeout -s INT 40 .gpuhost/gnbench run results/h100/run45/fewg452.json results/h100/run44/fewg86.json --variant 'gn_fused_rp2*' --mode hot -q --json $D/46b_rp2.json > $D/46b_rp2.txt 2>&1; echo "rp2 rc=$? $((SECONDS-S)) s"
for s in fewg462:70 held461:100 big463:100; do
  name=${s%%:*}; lim=${s#*:}; cfg=$H/$name.json
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/46b_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 30 .gpuhost/gnbench run $cfg --variant best --table results/h100/h100.table.json --mode both -q --json $D/46b_${name}_best.json > $D/46b_${name}_best.txt 2>&1; echo "$name best rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT $lim .gpuhost/gnbench run $cfg --variant 'gn_*' --mode hot -q --json $D/46b_$name.json > $D/46b_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -c FAIL $D/46b_$name.txt $D/46b_${name}_best.txt
done
gzip $D/*.json; tar -C $OUT -cf $OUT/46b.tar 46b && rm -r $D; ls -la $OUT
