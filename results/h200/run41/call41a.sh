# gpu-log run 41, call a (session 26): the masked on-chip builds' loads. gn_team's masked builds
# ran 2-3x slower with gn_masked.glsl's two-test load macros (run 32e); the gn_onchip2_m4 builds
# still use them. Experiment twins of the six gn_onchip2_m4 builds (exp/gn_m4x.json, the
# shipped shaders with MASK_LOADS / MASK_STORE): l1 = one bounds test for x and grad_out
# (gn_team's form), l2 = all full vec4 loads under one predicate, the tensor's partial last
# vec4 and the masks after them, l2s = l2 with the end-vec4 stores unrolled. Hot, beside the
# shipped builds, on models.json's odd-HW shapes and run 33's odd41 (the sets the form is
# chosen on), and the held-out odd70 / oddsmall71 (drawn this session, reported, not chosen on).
set -x
R=results/h200/run41
V='gn_onchip2_m4_*,gn_m4x_*'
for s in models_odd:$R/models_odd.json odd41:results/h200/run33/odd41.json odd70:$R/odd70.json oddsmall71:$R/oddsmall71.json; do
  n=${s%%:*}; f=${s#*:}
  S=$SECONDS; timeout -s INT 140 .gpuhost/gnbench run $f --kernels $R/exp --variant "$V" --mode hot -q --json $OUT/41a_$n.json > $OUT/41a_$n.txt 2>&1; echo "$n rc=$? $((SECONDS-S)) s"
done
gzip $OUT/*.json
ls -la $OUT
