# gpu-log run 43, call g (session 33): four held-out sets drawn before any timing, every gn_*
# cold and hot beside PyTorch's anchor: held81 (gen_shapes.py default, 8-96 MB), held82
# (0.2-16 MB, latency-bound), held83 (batch 1-2, 256-2560 channels), held84 (flattened N x C).
# The gnbench run also shows the copy probe between problems on a GPU.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run43/call43g.sh
set -x
R=results/h100/run43
for s in 81 82 83 84; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/43g_held${s}_torch.json $R/held$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT ${T:-330} .gpuhost/gnbench run $R/held81.json $R/held82.json $R/held83.json $R/held84.json --variant 'gn_*' --mode both -q --json $OUT/43g_held.json > $OUT/43g_held.txt 2>&1; echo "held rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
