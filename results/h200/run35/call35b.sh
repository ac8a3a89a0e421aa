# gpu-log run 35, call b: run 34b's held-out sets again with the gn_fused_rp2* builds in,
# every gn_* cold and hot beside PyTorch: small44.json (0.2-8 MB) and held43.json's
# batch-1-4 block (b*, gen_shapes.py 46 12 --batch 1 4).
set -x
R=results/h200/run34
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35b_small44_torch.json $R/small44.json > $OUT/35b_torch.txt 2>&1; echo "torch small rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/small44.json --variant 'gn_*' --mode both -q --json $OUT/35b_small44.json > $OUT/35b_small44.txt 2>&1; echo "small44 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35b_held43_torch.json $R/held43.json >> $OUT/35b_torch.txt 2>&1; echo "torch held rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/held43.json --problem 'b*' --variant 'gn_*' --mode both -q --json $OUT/35b_held43b.json > $OUT/35b_held43b.txt 2>&1; echo "held43b rc=$? $((SECONDS-S)) s"
gzip $OUT/35b_small44.json $OUT/35b_held43b.json
grep -h "^summary" $OUT/35b_*.txt
ls -la $OUT
