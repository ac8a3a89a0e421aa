# gpu-log run 45, call h: whichever card comes. On an H200, call 44b (the targets:
# models.json beside PyTorch). On an H100: the shipped gn_fused_rp2t* builds (gn_apply_rpmerge.comp
# DW_TAIL) hot beside every gn_* and PyTorch's anchor on fewg452, fewg86 and fewg454 (drawn after
# the builds were written: batch 1-8, N*G 1-16, 0.1-2 M elements), held83 with the gn_fused_rp*
# builds, and models.json's three shapes in rp2t's regime with every gn_*.
# Run from the repository root: bash results/h100/run45/call45h.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=430 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh; exit ;;
esac
H=results/h100/run45
run() { bash .gpuhost/launch.sh "$@"; }
for s in fewg454:$H/fewg454.json fewg452:$H/fewg452.json fewg86:results/h100/run44/fewg86.json; do
  name=${s%%:*}; cfg=${s#*:}
  S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $OUT/45h_${name}_torch.json $cfg > /dev/null 2>&1; echo "torch $name rc=$? $((SECONDS-S)) s"
  S=$SECONDS; run timeout -s INT 90 .gpuhost/gnbench run $cfg --variant 'gn_*' --mode hot -q --json $OUT/45h_$name.json > $OUT/45h_$name.txt 2>&1; echo "$name rc=$? $((SECONDS-S)) s"
  grep -c FAIL $OUT/45h_$name.txt
done
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run results/h100/run43/held83.json --variant 'gn_fused_rp*' --mode hot -q --json $OUT/45h_held83.json > $OUT/45h_held83.txt 2>&1; echo "held83 rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run configs/models.json --problem 'maskrcnn_fpn_p5_256x25x42_b2,retinanet_fpn_p7_256x7x11_b2,audio_unet1d_1024x128_b8' --variant 'gn_*' --mode hot -q --json $OUT/45h_models3.json > $OUT/45h_models3.txt 2>&1; echo "models3 rc=$? $((SECONDS-S)) s"
grep -A4 "best variant per problem" $OUT/45h_models3.txt
gzip $OUT/*.json
