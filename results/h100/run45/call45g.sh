# gpu-log run 45, call g (any card): the adaptive DW_TAIL of gn_apply_rpmerge.comp (grad_weight
# blocks where their rounds are few, else the tails of 45f) with the chunk's records loaded after
# the merge (xt_rp2t*, PF 0) or with the block's x and grad_out (xt_rp2p*, PF 2), hot beside the
# gn_fused_rp* builds on fewg452, fewg86 and held83 (results/h100/run45/exp/rp_tail_exp.json).
# (The exp manifest and shader version this call ran were not committed: docs/gpu-log.md 45d-g.)
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45g.sh
H=results/h100/run45; X="--kernels $H/exp"
nvidia-smi --query-gpu=name --format=csv,noheader
for s in fewg452:$H/fewg452.json fewg86:results/h100/run44/fewg86.json held83:results/h100/run43/held83.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $cfg $X --variant 'xt_rp2[tp]*,gn_fused_rp*' --mode hot -q --json $OUT/45g_$name.json > $OUT/45g_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -c FAIL $OUT/45g_$name.txt
done
gzip $OUT/*.json
