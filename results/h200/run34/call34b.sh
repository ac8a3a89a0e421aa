# gpu-log run 34, call b: held-out shapes drawn after the run-33 build set was fixed, every gn_*
# cold and hot beside PyTorch's anchor: held43.json (gen_shapes.py 43 24; 45 12 --instance;
# 46 12 --batch 1 4) and small44.json (gen_shapes.py 44 24 --elements 50000 2000000: tensors of
# 0.2-8 MB, where launch and dispatch costs set the time)
set -x
R=results/h200/run34
# written straight into $OUT so that a call cut short still brings back what finished
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/34b_small44_torch.json $R/small44.json > $OUT/34b_torch.txt 2>&1; echo "torch small rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run $R/small44.json --variant 'gn_*' --mode both -q --json $OUT/34b_small44.json > $OUT/34b_small44.txt 2>&1; echo "small44 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/34b_held43_torch.json $R/held43.json >> $OUT/34b_torch.txt 2>&1; echo "torch held rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 330 .gpuhost/gnbench run $R/held43.json --variant 'gn_*' --mode both -q --json $OUT/34b_held43.json > $OUT/34b_held43.txt 2>&1; echo "held43 rc=$? $((SECONDS-S)) s"
gzip $OUT/34b_small44.json $OUT/34b_held43.json
grep -h "^summary" $OUT/34b_*.txt
ls -la $OUT
