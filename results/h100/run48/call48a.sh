# gpu-log run 48, call a (any card). On an H200 first: call 47g (models.json and standard.json
# with --variant best and the H200 table beside PyTorch). Then, on any card: the experiment
# x_flatl (results/h100/run48/exp: gn_flat with LAST_WG, grad_weight / grad_bias summed by the
# last workgroup of each g, one dispatch) beside every gn_* and PyTorch, hot, on flattened sets
# drawn for it (flat480: batch 2-64, 2e4-4e6 elements; flat481: batch 2-256, 1e5-2e7) and
# run 47's flat474. Run from the repository root: bash results/h100/run48/call48a.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run48; D=$OUT/48a; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
case "$gpu" in
  *H200*) bash results/h100/run47/call47g.sh; sets="flat480:$H/flat480.json" ;;
  *) sets="flat480:$H/flat480.json flat481:$H/flat481.json flat474:$H/../run47/flat474.json" ;;
esac
for s in $sets; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/48a_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 120 .gpuhost/gnbench run $cfg --kernels $H/exp --variant 'gn_*,x_*' --mode hot -q --json $D/48a_$name.json > $D/48a_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/48a.tar 48a && rm -r $D
