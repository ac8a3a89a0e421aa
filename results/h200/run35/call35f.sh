# gpu-log run 35, call f: call e's standard.json pair again (its PyTorch file was one past the
# eight files a call brings back): PyTorch's anchor, then every gn_* cold and hot.
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35f_standard_torch.json configs/standard.json > $OUT/35f_torch.txt 2>&1; echo "torch std rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/35f_standard.json > $OUT/35f_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
gzip $OUT/35f_standard.json
grep -h "^summary" $OUT/35f_*.txt
