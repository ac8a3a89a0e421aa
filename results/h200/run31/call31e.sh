# gpu-log run 31, call e: the dispatch table tuned on models.json (models_h200.table.json, from
# 31c by `gnbench tune --from`) applied to shapes it was not tuned on: the choices of `run
# --variant best` on rnd36 and standard.json (verified, not timed; their times are 31d's)
set -x
R=results/h200/run31
FINAL=$OUT
for c in $R/rnd36.json configs/standard.json; do
  n=$(basename $c .json)
  .gpuhost/gnbench run $c --variant best --table $R/models_h200.table.json --no-timing -q --json $FINAL/31e_${n}_best.json > $FINAL/31e_${n}_best.txt 2>&1; echo "$n rc=$?"
done
ls -la $FINAL
