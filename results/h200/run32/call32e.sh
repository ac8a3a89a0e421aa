# gpu-log run 32, call e: gn_team's masked builds after their bounded load / masked store moved to
# gn_masked.glsl's macros (4af8049), hot, on seeds 36 and 37 (compare with 31d and 32a)
set -x
FINAL=$OUT
for c in results/h200/run31/rnd36.json results/h200/run32/rnd37.json; do
  n=$(basename $c .json)
  timeout -s INT 60 .gpuhost/gnbench run $c --variant 'gn_team_m4*' --mode hot -q --json $FINAL/32e_${n}_team.json > $FINAL/32e_${n}_team.txt 2>&1; echo "$n rc=$?"
done
gzip $FINAL/*.json
