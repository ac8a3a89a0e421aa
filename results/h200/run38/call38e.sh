# gpu-log run 38, call e: narrower bands for groups of 257-2048 channels (exp4/gn_flatz: 64x8,
# 128x8, 256x8, 128x16 and their vec4 forms, one and 4 samples, 8 at 256 invocations), where
# 38d's held-out flat61 lost to PyTorch on the 256x4 / 256x16 builds using a quarter to a third
# of their slots; hot, against gn_flat, on flatmid.json (30 such shapes of flat61/59/60). Then
# flat62.json, held out (gen_shapes.py 62 20 --spatial 1 1 --channels 128 16384 --max-cpg 16384
# --min-cpg 65 --batch 1 4096 --elements 100000 40000000), every gn_* and gn_flatz cold and hot.
set -x
R=results/h200/run38
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38e_flat62_torch.json $R/flat62.json > /dev/null 2>&1; echo "torch flat62 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/38e_flatmid_torch.json $R/flatmid.json > /dev/null 2>&1; echo "torch flatmid rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 130 .gpuhost/gnbench run $R/flatmid.json --kernels $R/exp4 --variant 'gn_flat*' --mode hot -q --pipeline-stats --json $OUT/38e_flatmid.json > /dev/null 2>&1; echo "flatmid rc=$? $((SECONDS-S)) s"
gzip $OUT/38e_flatmid.json
S=$SECONDS; timeout -s INT 180 .gpuhost/gnbench run $R/flat62.json --kernels $R/exp4 --variant 'gn_*' --mode both -q --json $OUT/38e_flat62.json > /dev/null 2>&1; echo "flat62 rc=$? $((SECONDS-S)) s"
gzip $OUT/38e_flat62.json
ls -la $OUT
