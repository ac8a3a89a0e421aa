# gpu-log run 45, call k (any card): the run-45 builds verified on the GPU (subgroups of 32, the
# driver's memory model for the counters): every gn_fused_rp2* build, 3 trials of fresh inputs,
# no timing, on fewg452, fewg454, fewg86, fewg456 (40 shapes drawn for this call: batch 1-8,
# N*G 1-64, 20 thousand to 5 M elements) and the rp2t_* problems of verify.json and numerics.json.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45k.sh
H=results/h100/run45; D=$OUT/45k; mkdir -p $D
nvidia-smi --query-gpu=name --format=csv,noheader
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $H/fewg452.json $H/fewg454.json results/h100/run44/fewg86.json $H/fewg456.json --variant 'gn_fused_rp2*' --trials 3 --no-timing -q --json $D/45k_fewg.json > $D/45k_fewg.txt 2>&1; echo "fewg rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 40 .gpuhost/gnbench run configs/verify.json configs/numerics.json --problem 'rp2t_*' --trials 3 --no-timing -q --json $D/45k_rp2t.json > $D/45k_rp2t.txt 2>&1; echo "rp2t rc=$? $((SECONDS-S)) s"
grep -h "summary" $D/*.txt; grep -h "FAIL" $D/*.txt | head -5
gzip $D/*.json; tar -C $OUT -cf $OUT/45k.tar 45k && rm -r $D
