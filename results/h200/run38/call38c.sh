# gpu-log run 38, call c: exp3/gn_flaty.json (256- and 512-invocation builds of 16-64 elements
# each with W_LATE, with and without REREAD: two workgroups or more per SM where the
# 1024-invocation builds, capped at 64 registers, held one) against gn_flat and exp2's
# gn_flatrr on flat59.json and flatbig.json; flat60.json (held out: gen_shapes.py 60 20
# --spatial 1 1 --channels 256 16384 --max-cpg 16384 --min-cpg 65 --batch 1 4096 --elements
# 100000 30000000, drawn before this call and not used to choose builds) with every gn_*.
set -x
R=results/h200/run38
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38c_flat60_torch.json $R/flat60.json > /dev/null 2>&1; echo "torch flat60 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38c_flat59_torch.json $R/flat59.json > /dev/null 2>&1; echo "torch flat59 rc=$? $((SECONDS-S)) s"
K="--kernels $R/exp2 $R/exp3 --mode both -q --pipeline-stats"
S=$SECONDS; timeout -s INT 110 .gpuhost/gnbench run $R/flat59.json $K --variant 'gn_flat*' --json $OUT/38c_flat59.json > /dev/null 2>&1; echo "flat59 rc=$? $((SECONDS-S)) s"
gzip $OUT/38c_flat59.json
S=$SECONDS; timeout -s INT 110 .gpuhost/gnbench run $R/flatbig.json $K --variant 'gn_flat*' --json $OUT/38c_flatbig.json > /dev/null 2>&1; echo "flatbig rc=$? $((SECONDS-S)) s"
gzip $OUT/38c_flatbig.json
S=$SECONDS; timeout -s INT 170 .gpuhost/gnbench run $R/flat60.json $K --variant 'gn_*' --json $OUT/38c_flat60.json > /dev/null 2>&1; echo "flat60 rc=$? $((SECONDS-S)) s"
gzip $OUT/38c_flat60.json
ls -la $OUT
