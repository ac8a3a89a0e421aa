# gpu-log run 50, call a (asked for an H200, ran on an H100): the FOLD builds of gn_onchip2 (gn_onchip2*f, one dispatch,
# gn_fold.glsl) beside the two-dispatch builds they fold, cold and hot, on models.json; then two
# sets drawn for this call (gen_shapes.py 497 24 --elements 20000 2000000 --batch 1 32; 498 24)
# with every gn_* cold and hot, beside PyTorch's anchor.
# Run from the repository root: bash results/h100/run50/call50a.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run50; D=$OUT/50a; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
S=$SECONDS; run timeout -s INT 280 .gpuhost/gnbench run configs/models.json --variant 'gn_onchip2*' --mode both -q --json $D/50a_models_onchip2.json > $D/50a_models_onchip2.txt 2>&1; echo "models onchip2 rc=$? $((SECONDS-S)) s"
for s in small497 mix498; do
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/50a_${s}_torch.json $H/$s.json > /dev/null 2>&1; echo "torch $s rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 130 .gpuhost/gnbench run $H/$s.json --variant 'gn_*' --mode both -q --json $D/50a_${s}_all.json > $D/50a_${s}_all.txt 2>&1; echo "$s all rc=$? $((SECONDS-S)) s"
done
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/50a.tar 50a && rm -r $D
