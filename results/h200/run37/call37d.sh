# gpu-log run 37, call d: gn_flat with the _s4 builds (4 samples per workgroup) and the
# restructured group kernel, every gn_* cold and hot beside PyTorch on flat57.json, flat55.json
# and flat4.json (wide56's and small54's spatial-1 shapes).
set -x
R=results/h200/run37
for set in flat57 flat55 flat4; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37d_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 130 .gpuhost/gnbench run $R/flat57.json --variant 'gn_*' --mode both -q --json $OUT/37d_flat57.json > /dev/null 2>&1; echo "flat57 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 130 .gpuhost/gnbench run $R/flat55.json --variant 'gn_*' --mode both -q --json $OUT/37d_flat55.json > /dev/null 2>&1; echo "flat55 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run $R/flat4.json --variant 'gn_*' --mode both -q --json $OUT/37d_flat4.json > /dev/null 2>&1; echo "flat4 rc=$? $((SECONDS-S)) s"
gzip $OUT/37d_flat57.json $OUT/37d_flat55.json $OUT/37d_flat4.json
ls -la $OUT
