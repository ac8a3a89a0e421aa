# gpu-log run 46, call f: whichever card comes. On an H200: call 44b (the targets,
# models.json beside PyTorch). Otherwise: the shipped gn_sgroup_wg* builds (ENTRY_WORKGROUP)
# verified with 3 trials on low85 / midm464 / short465 / short466, then every gn_* hot on them
# (short466 drawn after the builds were written, same recipe as short465, seed 466) beside
# PyTorch: the sources of the rebuilt H100 dispatch table.
# Run from the repository root: bash results/h100/run46/call46f.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=400 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh; exit ;;
esac
H=results/h100/run46; D=$OUT/46f; mkdir -p $D
run() { bash .gpuhost/launch.sh "$@"; }
S=$SECONDS; run timeout -s INT 60 .gpuhost/gnbench run $H/low85.json $H/midm464.json $H/short465.json $H/short466.json --variant 'gn_sgroup_wg*' --trials 3 --no-timing -q --json $D/46f_trials.json > $D/46f_trials.txt 2>&1; echo "trials rc=$? $((SECONDS-S)) s"
S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/46f_short466_torch.json $H/short466.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 80 .gpuhost/gnbench run $H/short466.json --variant 'gn_*' --mode hot -q --json $D/46f_short466.json > $D/46f_short466.txt 2>&1; echo "short466 rc=$? $((SECONDS-S)) s"
S=$SECONDS; run timeout -s INT 150 .gpuhost/gnbench run $H/low85.json $H/midm464.json $H/short465.json --variant 'gn_*' --mode hot -q --json $D/46f_mid.json > $D/46f_mid.txt 2>&1; echo "mid rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/46f.tar 46f && rm -r $D
