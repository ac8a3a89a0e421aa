# gpu-log run 48, call b (any card). On an H200 first: call 47g (models.json and standard.json
# with --variant best and the H200 table beside PyTorch). Then the experiment x_flatp
# (results/h100/run48/exp2, written by its make_x.py: gn_flat builds with PARTS, a workgroup of
# 2, 4 or 8 parts each holding one sample of the group at once, one dispatch where N <= PARTS),
# hot, beside every gn_* and PyTorch, on flat480 and flat483 (flattened, batch 2-64 / 2-16,
# drawn for run 48) and, on a card other than the H200, run 47's flat474.
# Run from the repository root: bash results/h100/run48/call48b.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run48; D=$OUT/48b; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in
  *H200*) bash results/h100/run47/call47g.sh; sets="flat483:$H/flat483.json" ;;
  *) sets="flat483:$H/flat483.json flat480:$H/flat480.json flat474:$H/../run47/flat474.json" ;;
esac
for s in $sets; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/48b_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 100 .gpuhost/gnbench run $cfg --kernels $H/exp2 --variant 'gn_*,x_*' --mode hot -q --json $D/48b_$name.json > $D/48b_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/48b.tar 48b && rm -r $D
