# gpu-log run 37, call e: gn_flat on large flattened tensors (flat58.json: gen_shapes.py 58 16
# --spatial 1 1 --batch 64 4096 --channels 512 16384 --max-cpg 16384 --elements 2000000
# 24000000, drawn after the builds were written) and on models.json's five spatial-1 shapes,
# every gn_* cold and hot beside PyTorch.
set -x
R=results/h200/run37
for set in flat58 models_flat; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37e_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/flat58.json --variant 'gn_*' --mode both -q --json $OUT/37e_flat58.json > /dev/null 2>&1; echo "flat58 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/models_flat.json --variant 'gn_*' --mode both -q --json $OUT/37e_models_flat.json > /dev/null 2>&1; echo "models_flat rc=$? $((SECONDS-S)) s"
gzip $OUT/37e_flat58.json $OUT/37e_models_flat.json
ls -la $OUT
