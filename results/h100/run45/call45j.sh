# gpu-log run 45, call j (any card): gn_fused_rp2s for the one-row-per-subgroup and per-team
# builds (_sg4, _sg8, _t1-_t8: LAST_WG counting each workgroup's rows per group), every gn_*
# hot beside PyTorch's anchor on fewg452 and fewg454 (their 4-8 MB short-row shapes had only
# 3-dispatch builds), and the new builds alone on models.json where they apply.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45j.sh
H=results/h100/run45; D=$OUT/45j; mkdir -p $D
nvidia-smi --query-gpu=name --format=csv,noheader
for s in fewg452:$H/fewg452.json fewg454:$H/fewg454.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $D/45j_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $cfg --variant 'gn_*' --mode hot -q --json $D/45j_$name.json > $D/45j_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -c FAIL $D/45j_$name.txt
done
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run configs/models.json configs/standard.json --variant 'gn_fused_rp2s_sg*,gn_fused_rp2s_t*' --mode hot -q --json $D/45j_models.json > $D/45j_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
grep -A12 "best variant per problem" $D/45j_models.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/45j.tar 45j && rm -r $D
