# gpu-log run 41, call b (prepared in session 26): the version-2 dispatch rule with the H200 table
# (results/h200/h200.table.json, 658 shapes from runs 31-40) on held72.json, 52 shapes drawn
# after the rule and the table were fixed (none in the table). Every gn_* timed hot beside
# PyTorch, then --variant best's choices timed in the same call; dispatch_regret.py sets each
# choice against the fastest (the offline leave-one-set-out estimate was 1.036x).
set -x
R=results/h200/run41
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/41b_held72_torch.json $R/held72.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 300 .gpuhost/gnbench run $R/held72.json --variant 'gn_*' --mode hot -q --json $OUT/41b_held72.json > $OUT/41b_held72.txt 2>&1; echo "all rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run $R/held72.json --variant best --table results/h200/h200.table.json --mode hot -q --json $OUT/41b_held72_best.json > $OUT/41b_held72_best.txt 2>&1; echo "best rc=$? $((SECONDS-S)) s"
python3 scripts/dispatch_regret.py $OUT/41b_held72_best.json $OUT/41b_held72.json > $OUT/41b_regret.txt 2>&1
gzip $OUT/41b_held72.json $OUT/41b_held72_best.json
ls -la $OUT
