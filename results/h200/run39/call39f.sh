# gpu-log run 39, call f (session 24): where the cold 2-4x of flat63 r02_n1983_c9009_hw1_g9
# (39b: gn_flat_256x4_s8 88.2 us hot, 310.8 cold; gn_flat_128x8 139.7 / 377.4) goes:
# --stage-times, cold and hot, the affected builds and an unaffected one, twice, then once
# with --flush fill.
set -x
R=results/h200/run39
V=gn_flat_256x4_s8,gn_flat_128x8,gn_flat_128x8_s4,gn_flat_256x4_s4
for rep in 1 2; do
  S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/flat63.json --problem r02_n1983_c9009_hw1_g9 --variant $V --mode both --stage-times -q --json $OUT/39f_r02_$rep.json > /dev/null 2>&1; echo "rep $rep rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/flat63.json --problem r02_n1983_c9009_hw1_g9 --variant $V --mode both --stage-times --flush fill -q --json $OUT/39f_r02_fill.json > /dev/null 2>&1; echo "fill rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
