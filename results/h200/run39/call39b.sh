# gpu-log run 39, call b (prepared in session 23; flat62rest moved to call a): flat63.json (held out: gen_shapes.py 63 16 --spatial 1 1
# --channels 128 16384 --max-cpg 16384 --min-cpg 65 --batch 1 4096 --elements 100000 40000000,
# drawn in session 23 after run 38's builds were chosen), every gn_* cold and hot beside
# PyTorch. About 5 minutes.
set -x
R=results/h200/run39
for set in flat63; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/39b_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/flat63.json --variant 'gn_*' --mode both -q --json $OUT/39b_flat63.json > /dev/null 2>&1; echo "flat63 rc=$? $((SECONDS-S)) s"
gzip $OUT/39b_flat63.json
ls -la $OUT
