# gpu-log run 45, call i: whichever card comes. On an H200, call 44b (the targets). On an
# H100: the combine stage's loops batched (gn_combine.glsl CB: four records per invocation per
# round trip; bitwise the same results) hot beside the same builds with the old combine (xo_rp*,
# results/h100/run45/exp/combine_old_exp.json) and every gn_*, beside PyTorch's anchor, on
# fewg452, fewg454 and fewg86; and the models.json / standard shapes whose best H100 build in
# run 43 was a gn_fused_rp / gn_fused2 one. Outputs in one archive (45h lost five files to the
# limit on how many come back).
# Run from the repository root: bash results/h100/run45/call45i.sh
# (exp/combine_old_exp.json, the old combine, was removed after this call: the batched combine was
# not kept, so the shipped combine is the old one again; exp/combine_batched.diff is the change.)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=430 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh; exit ;;
esac
H=results/h100/run45; X="--kernels $H/exp"; D=$OUT/45i; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
for s in fewg452:$H/fewg452.json fewg454:$H/fewg454.json fewg86:results/h100/run44/fewg86.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/45i_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 90 .gpuhost/gnbench run $cfg $X --variant 'gn_*,xo_rp,xo_rp_*' --mode hot -q --json $D/45i_$name.json > $D/45i_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -c FAIL $D/45i_$name.txt
done
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run configs/models.json configs/standard.json --problem 'resnet50gn_2048x7x7_b64,resnext50gn_1024x7x7_b64,bit_r50x3_6144x7x7_b32,wav2vec2_gn_512x49999_b1,poolformer_s12_320x14x14_b64,poolformer_s12_512x7x7_b128,resnet50gn_2048x7x7' $X --variant 'gn_fused_rp*,gn_fused2*,xo_rp,xo_rp_*' --mode hot -q --json $D/45i_models.json > $D/45i_models.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
grep -A8 "best variant per problem" $D/45i_models.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/45i.tar 45i && rm -r $D
