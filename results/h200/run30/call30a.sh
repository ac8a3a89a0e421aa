# gpu-log run 30, call a: gn_team (one team of lanes per row, G = C, short rows):
# verification on verify.json, edge.json and team_sg32.json (gn_team's bands at subgroup 32);
# every gn_* on the G = C shapes seen before (inorm_seen.json) and on the held-out
# gen_shapes.py 33 40 --instance (inorm33.json), cold and hot, beside PyTorch's anchor
set -x
G=.gpuhost/gnbench
R=results/h200/run30
FINAL=$OUT; OUT=$(mktemp -d)
S=$SECONDS; $G run configs/verify.json configs/edge.json $R/team_sg32.json --variant 'gn_team*' --no-timing -q > $OUT/30a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
for c in inorm33 inorm_seen; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/30a_${c}_torch.json $R/$c.json > $OUT/30a_${c}_torch.txt 2>&1; echo "torch $c rc=$? $((SECONDS-S)) s"
  S=$SECONDS; $G run $R/$c.json --variant 'gn_*' --mode both -q --pipeline-stats --json $OUT/30a_$c.json > $OUT/30a_$c.txt 2>&1; echo "$c rc=$? $((SECONDS-S)) s"
  gzip $OUT/30a_$c.json
done
grep -h "^summary" $OUT/30a_*.txt
cd $OUT && tar czf $FINAL/30a.tgz . && ls -la $FINAL
