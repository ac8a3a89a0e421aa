# gpu-log run 36, call b: why gn_onchip2_256 / _v4_256 ran 1.5-2.2x slower on
# ddpm_cifar_256x4x4_b128 in 36a after gn_part.glsl. Seven models.json shapes of many small
# groups (tiny7.json), the builds of that regime hot, with four kernel folders in turn, twice:
# kernels_old (b606a48), the new kernels, exp_nr (gn_part.glsl without restrict) and exp_nb
# (gn_part.glsl always writing part[]: the bindings without the batch-1 branch).
set -x
R=results/h200/run36
V='gn_onchip2_256,gn_onchip2_v4_256,gn_onchip2_m4_256,gn_onchip2_m4_128,gn_sgroup_8,gn_sgroup_24,gn_sgroup_v4_4,gn_sgroup_2,gn_team_1x8'
for rep in 1 2; do
  for k in kernels_old new exp_nr exp_nb; do
    if [ $k = new ]; then E=""; else E="GNBENCH_KERNELS=$R/$k"; fi
    S=$SECONDS; env $E timeout -s INT 40 .gpuhost/gnbench run $R/tiny7.json --variant "$V" --mode hot -q --json $OUT/36b_${k}_$rep.json > /dev/null 2>&1; echo "$k $rep rc=$? $((SECONDS-S)) s"
  done
done
gzip $OUT/36b_*.json
