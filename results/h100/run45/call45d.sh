# gpu-log run 45, call d (any card): gn_fused_rp2*'s merging apply without grad_weight blocks
# (xt_rp2t*, results/h100/run45/exp/rp_tail_exp.json: DW_TAIL in gn_apply_rpmerge.comp, the last
# of the N blocks (n, g, j) sums chunk j of g's channels over n) hot beside every gn_* and
# PyTorch's anchor on fewg86 and fewg452, and hot beside the gn_* builds on held83.
# The exp manifest and the DW_TAIL versions calls d-g ran were not committed (docs/gpu-log.md
# run 45d-g); the shipped DW_TAIL is what call h timed. Calls e and f ran this script with P=45e,
# P=45f after changing the shader.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45d.sh
P=${P:-45d}; H=results/h100/run45; X="--kernels $H/exp"
nvidia-smi --query-gpu=name --format=csv,noheader
for s in fewg452:$H/fewg452.json fewg86:results/h100/run44/fewg86.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/${P}_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $cfg $X --variant 'xt_rp2t*,gn_*' --mode hot -q --json $OUT/${P}_$name.json > $OUT/${P}_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -A17 "best variant per problem" $OUT/${P}_$name.txt; grep -c FAIL $OUT/${P}_$name.txt
done
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h100/run43/held83.json $X --variant 'xt_rp2t*,gn_fused_rp2*,gn_fused_rp*' --mode hot -q --json $OUT/${P}_held83.json > $OUT/${P}_held83.txt 2>&1; echo "held83 rc=$? $((SECONDS-S)) s"
grep -c FAIL $OUT/${P}_held83.txt
gzip $OUT/*.json
