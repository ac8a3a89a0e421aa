# gpu-log run 39, call b (session 24): held-out sets, every gn_* cold and hot beside PyTorch:
# flat63.json (gen_shapes.py 63 16 --spatial 1 1 --channels 128 16384 --max-cpg 16384
# --min-cpg 65 --batch 1 4096 --elements 100000 40000000, drawn in session 23 after run 38's
# builds were chosen), small64.json (gen_shapes.py 64 20 --elements 50000 4000000: tensors of
# 0.2-16 MB, the latency-bound range) and mixed65.json (gen_shapes.py 65 16, the default
# 8-96 MB draw), both drawn in session 24 before any change to the kernels. About 8 minutes.
set -x
R=results/h200/run39
for set in flat63 small64 mixed65; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/39b_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 180 .gpuhost/gnbench run $R/flat63.json --variant 'gn_*' --mode both -q --json $OUT/39b_flat63.json > /dev/null 2>&1; echo "flat63 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run $R/small64.json --variant 'gn_*' --mode both -q --json $OUT/39b_small64.json > /dev/null 2>&1; echo "small64 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 170 .gpuhost/gnbench run $R/mixed65.json --variant 'gn_*' --mode both -q --json $OUT/39b_mixed65.json > /dev/null 2>&1; echo "mixed65 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
