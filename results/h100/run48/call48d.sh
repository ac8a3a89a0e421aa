# gpu-log run 48, call d (any card). Experiment: hot samples of K calls back to back between one
# pair of timestamps (the binary built with results/h100/run48/exp3/batch.patch, env
# GNBENCH_EXP_BATCH=K; each call after the usual compute barrier, the sample is time / K), the
# way the PyTorch anchor's CUDA-graph time replays 20 calls, against gnbench's hot samples (one
# call between timestamps): --variant best with the card's table, hot, beside PyTorch, on
# models.json and the small sets of run 48 (flat483, small482). On an H200 call 47g first.
# Run from the repository root: bash results/h100/run48/call48d.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run48; D=$OUT/48d; mkdir -p $D; T=results/h100/h100.table.json
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in
  *H200*) bash results/h100/run47/call47g.sh; T=results/h200/h200.table.json; sets="models:configs/models.json" ;;
  *) sets="models:configs/models.json flat483:$H/flat483.json small482:$H/small482.json" ;;
esac
for s in $sets; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/48d_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  for k in 1 20; do
    S=$SECONDS; run env GNBENCH_EXP_BATCH=$k timeout -s INT 90 .gpuhost/gnbench run $cfg --variant best --table $T --mode hot -q --json $D/48d_${name}_k$k.json > $D/48d_${name}_k$k.txt 2>&1; echo "$name k=$k rc=$? $((SECONDS-S)) s"
  done
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/48d.tar 48d && rm -r $D
