# gpu-log run 38, call a (prepared in session 22, not yet run): gn_flat's weak spots of run 37f
# (G = 1 with 11k-14k channels at N of 290-1009: 0.60-0.97x of PyTorch) against the experiment
# builds of exp/gn_flatx.json (the shipped gn_flat.comp with W_LATE: weights read where used,
# two register arrays instead of three; and 2 or 8 samples per workgroup), every gn_flat* and
# gn_flatx* cold and hot beside PyTorch on flatbig.json.
set -x
R=results/h200/run38
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38a_flatbig_torch.json $R/flatbig.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 400 .gpuhost/gnbench run $R/flatbig.json --kernels $R/exp --variant 'gn_flat*' --mode both -q --pipeline-stats --json $OUT/38a_flatbig.json > /dev/null 2>&1; echo "flatbig rc=$? $((SECONDS-S)) s"
gzip $OUT/38a_flatbig.json
ls -la $OUT
