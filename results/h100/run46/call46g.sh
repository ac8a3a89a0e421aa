# gpu-log run 46, call g: whichever card comes. On an H200: call 44b (the targets,
# models.json beside PyTorch; T=380). Otherwise: the gn_sgroup _v2 builds (vec2 loads for groups
# of M % 4 == 2 elements) verified with 3 trials, then every gn_* hot beside PyTorch on m4r2_467
# (drawn for it: gen_shapes.py 467 800 --elements 2e6 30e6, the first 16 with M % 4 == 2 and
# 64 < M <= 3072) and short466.
# Run from the repository root: bash results/h100/run46/call46g.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=380 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh; exit ;;
esac
H=results/h100/run46; D=$OUT/46g; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/m4r2_467.json $H/short466.json $H/low85.json $H/midm464.json --variant 'gn_sgroup*v2*' --trials 3 --no-timing -q --json $D/46g_trials.json > $D/46g_trials.txt 2>&1; echo "trials rc=$? $((SECONDS-S)) s"
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/46g_m4r2_torch.json $H/m4r2_467.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 90 .gpuhost/gnbench run $H/m4r2_467.json --variant 'gn_*' --mode hot -q --json $D/46g_m4r2.json > $D/46g_m4r2.txt 2>&1; echo "m4r2 rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/short466.json --variant 'gn_*' --mode hot -q --json $D/46g_short466.json > $D/46g_short466.txt 2>&1; echo "short466 rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/46g.tar 46g && rm -r $D
