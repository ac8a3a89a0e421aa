# gpu-log run 35, call d: the shipped gn_fused_rp2* (8 values per invocation, tensors of
# <= 4 MB, N*G <= 64) with every gn_* cold and hot beside PyTorch on the held-out few51.json
# and small44.json.
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35d_few51_torch.json results/h200/run35/few51.json > $OUT/35d_torch.txt 2>&1; echo "torch few rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run results/h200/run35/few51.json --variant 'gn_*' --mode both -q --json $OUT/35d_few51.json > $OUT/35d_few51.txt 2>&1; echo "few51 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35d_small44_torch.json results/h200/run34/small44.json >> $OUT/35d_torch.txt 2>&1; echo "torch small rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run results/h200/run34/small44.json --variant 'gn_*' --mode both -q --json $OUT/35d_small44.json > $OUT/35d_small44.txt 2>&1; echo "small44 rc=$? $((SECONDS-S)) s"
gzip $OUT/35d_few51.json $OUT/35d_small44.json
grep -h "^summary" $OUT/35d_*.txt
