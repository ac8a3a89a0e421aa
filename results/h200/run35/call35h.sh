# gpu-log run 35, call h: gn_fused_rp2s* (gn_rowpiece.comp LAST_WG: the last piece of each
# group merges it; gn_apply_rpmerge.comp GROUP_STATS), shipped with N*G <= 64, and
# exp2s/gn_xrp2s.json (the same builds without that bound) to find where they stop paying.
# Every gn_* cold and hot beside PyTorch on few51.json, small44.json and held43.json's b*;
# mid52.json (N*G 65-256) with the row-piece builds only.
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35h_few51_torch.json results/h200/run35/few51.json > /dev/null 2>&1; echo "torch few rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run35/few51.json --kernels results/h200/run35/exp2s --variant 'gn_*' --mode both -q --json $OUT/35h_few51.json > /dev/null 2>&1; echo "few51 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35h_held_torch.json results/h200/run34/held43.json > /dev/null 2>&1; echo "torch held rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 70 .gpuhost/gnbench run results/h200/run34/held43.json --problem 'b*' --kernels results/h200/run35/exp2s --variant 'gn_*' --mode both -q --json $OUT/35h_held43b.json > /dev/null 2>&1; echo "held43b rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 50 .gpuhost/gnbench run results/h200/run35/mid52.json results/h200/run34/small44.json --kernels results/h200/run35/exp2s --variant 'gn_fused_rp*,gn_xrp2s*' --mode both -q --json $OUT/35h_rp.json > /dev/null 2>&1; echo "mid52+small44 rp rc=$? $((SECONDS-S)) s"
gzip $OUT/35h_*.json
