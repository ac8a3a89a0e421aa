# gpu-log run 41, call c, short form (session 29: device time ran low after refused starts):
# call41c.sh without the second pass over fusedt_models.json (the drift check), same variants.
set -x
R=results/h200/run41
V='gn_fused,gn_fused_v4,gn_fused2,gn_fused2_v4,gn_fused1,gn_fused1_v4,gn_fusedt*'
for s in fusedt_models:$R/fusedt_models.json fusedt73:$R/fusedt73.json; do
  n=${s%%:*}; f=${s#*:}
  t=${T1:-150}; [ $n = fusedt73 ] && t=${T2:-250}  # T1, T2: shorter when device time is short
  S=$SECONDS; timeout -s INT $t .gpuhost/gnbench run $f --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/41c_$n.json > $OUT/41c_$n.txt 2>&1; echo "$n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/*.json
ls -la $OUT
