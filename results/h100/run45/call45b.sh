# gpu-log run 45, call b (any card): the experimental one-dispatch x_selfstat builds
# (results/h100/run45/exp, kernels/glsl/gn_selfstat.comp: every part reads its whole group for
# the statistics, no wait, no second dispatch) hot beside every gn_* on the few-group shapes:
# fewg86.json (run 44d's) and fewg452.json (new: batch 1-8, N*G 1-16, 0.1-2 M elements), each
# beside PyTorch's anchor in the same call.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45b.sh
H=results/h100/run45; X="--kernels $H/exp"
nvidia-smi --query-gpu=name --format=csv,noheader
for s in fewg86:results/h100/run44/fewg86.json fewg452:$H/fewg452.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/45b_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; timeout -s INT ${T:-200} .gpuhost/gnbench run $cfg $X --variant 'x_selfstat_*,gn_*' --mode hot -q --json $OUT/45b_$name.json > $OUT/45b_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -A17 "best variant per problem" $OUT/45b_$name.txt
  grep -c FAIL $OUT/45b_$name.txt
done
gzip $OUT/*.json
