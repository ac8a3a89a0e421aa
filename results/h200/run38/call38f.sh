# gpu-log run 38, call f: the six flat62.json shapes (held out) that 38e's timeout cut, every
# gn_* with the shipped kernels (gn_flat with 38e's bands) cold and hot beside PyTorch.
set -x
R=results/h200/run38
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38f_flat62rest_torch.json $R/flat62rest.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run $R/flat62rest.json --variant 'gn_*' --mode both -q --json $OUT/38f_flat62rest.json > /dev/null 2>&1; echo "flat62rest rc=$? $((SECONDS-S)) s"
gzip $OUT/38f_flat62rest.json
ls -la $OUT
