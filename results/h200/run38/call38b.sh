# gpu-log run 38, call b: gn_flat after 38a (the 1024-invocation _s4 builds with W_LATE, _s8
# builds of the 256-invocation bands) against exp2/gn_flatrr.json (REREAD: no per-(n, c)
# partials, the dwdb stage reads x and grad_out again), beside PyTorch on flatbig.json (38a's
# shapes), flat59.json (held out: gen_shapes.py 59 20 --spatial 1 1 --channels 512 16384
# --max-cpg 16384 --min-cpg 257 --batch 1 4096 --elements 100000 30000000, every gn_*) and
# flat57.json (run 37's held-out set, gn_flat builds only: its other families are in 37d).
set -x
R=results/h200/run38
for set in flatbig flat59; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38b_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38b_flat57_torch.json results/h200/run37/flat57.json > /dev/null 2>&1; echo "torch flat57 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 140 .gpuhost/gnbench run $R/flatbig.json --kernels $R/exp2 --variant 'gn_flat*' --mode both -q --json $OUT/38b_flatbig.json > /dev/null 2>&1; echo "flatbig rc=$? $((SECONDS-S)) s"
gzip $OUT/38b_flatbig.json
S=$SECONDS; timeout -s INT 160 .gpuhost/gnbench run $R/flat59.json --kernels $R/exp2 --variant 'gn_*' --mode both -q --json $OUT/38b_flat59.json > /dev/null 2>&1; echo "flat59 rc=$? $((SECONDS-S)) s"
gzip $OUT/38b_flat59.json
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run results/h200/run37/flat57.json --kernels $R/exp2 --variant 'gn_flat*' --mode both -q --json $OUT/38b_flat57.json > /dev/null 2>&1; echo "flat57 rc=$? $((SECONDS-S)) s"
gzip $OUT/38b_flat57.json
ls -la $OUT
