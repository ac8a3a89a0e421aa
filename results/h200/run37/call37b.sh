# gpu-log run 37, call b: flattened features and short rows in groups over 1024 elements,
# drawn this session: flat55.json (gen_shapes.py 55 24 --spatial 1 1 --channels 256 8192
# --max-cpg 8192 --elements 100000 16000000) and wide56.json (gen_shapes.py 56 16 --spatial 1 16
# --channels 512 8192 --min-cpg 1025 --max-cpg 8192 --elements 100000 16000000), plus small54's
# r19 (37a's timeout cut it); every gn_* cold and hot beside PyTorch.
set -x
R=results/h200/run37
for set in flat55 wide56 small54_r19; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37b_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/flat55.json --variant 'gn_*' --mode both -q --json $OUT/37b_flat55.json > /dev/null 2>&1; echo "flat55 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/wide56.json --variant 'gn_*' --mode both -q --json $OUT/37b_wide56.json > /dev/null 2>&1; echo "wide56 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 30 .gpuhost/gnbench run $R/small54_r19.json --variant 'gn_*' --mode both -q --json $OUT/37b_small54_r19.json > /dev/null 2>&1; echo "r19 rc=$? $((SECONDS-S)) s"
gzip $OUT/37b_flat55.json $OUT/37b_wide56.json $OUT/37b_small54_r19.json
ls -la $OUT
