# gpu-log run 40, call f (session 25): flat68.json, held out (drawn after 40e, before the
# gn_flatap builds were chosen from 40c: gen_shapes.py 68 16 --spatial 1 1 --channels 1025
# 16384 --min-cpg 1025 --max-cpg 16384 --batch 1 1000 --elements 200000 30000000), every
# shipped gn_* (with kernels/gn_flatap.json) beside PyTorch, hot and cold.
set -x
R=results/h200/run40
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/40f_flat68_torch.json $R/flat68.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/flat68.json --variant 'gn_*' --mode both -q --json $OUT/40f_flat68.json > /dev/null 2>&1; echo "flat68 rc=$? $((SECONDS-S)) s"
gzip $OUT/40f_flat68.json
