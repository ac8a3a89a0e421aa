# gpu-log run 35, call c: gn_fused_rp2*'s apply blocks at 4 (shipped), 8 and 16 values per
# invocation (exp/gn_xrp2i8.json, exp/gn_xrp2i16.json: fewer blocks, so fewer redundant
# merges) against gn_fused_rp*, cold and hot, on few51.json, small44.json and held43.json's b*.
set -x
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run results/h200/run35/few51.json --kernels results/h200/run35/exp --variant 'gn_fused_rp*,gn_xrp2i*' --mode both -q --json $OUT/35c_few51.json > $OUT/35c_few51.txt 2>&1; echo "few51 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run results/h200/run34/small44.json results/h200/run34/held43.json --problem 's*,b*' --kernels results/h200/run35/exp --variant 'gn_fused_rp*,gn_xrp2i*' --mode both -q --json $OUT/35c_held.json > $OUT/35c_held.txt 2>&1; echo "held rc=$? $((SECONDS-S)) s"
gzip $OUT/35c_few51.json $OUT/35c_held.json
grep -h "^summary" $OUT/35c_*.txt
