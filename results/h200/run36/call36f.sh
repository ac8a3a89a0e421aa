# gpu-log run 36, call f: standard.json, every gn_* cold and hot beside PyTorch, with session
# 21's kernels (the batch-1 dwdb stage off does not apply: no batch-1 shape; the branch it adds
# and the rp2 merge choice do).
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/36f_standard_torch.json configs/standard.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 75 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/36f_standard.json > /dev/null 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
gzip $OUT/36f_standard.json
