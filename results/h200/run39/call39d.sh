# gpu-log run 39, call d (session 24): two samples per workgroup in the 1024-invocation gn_flat
# bands (exp2/gn_flatq.json: gn_flat.comp with SAMPLES 2, with and without W_LATE), for G = 1 or
# a few groups of 4097-16384 channels at batch 100-500, where the one-sample builds leave a
# partial second wave on 132 SMs and _s4 too few workgroups (flat63 r00_n186_c7631_hw1_g1 0.92x).
# wide66.json: gen_shapes.py 66 16 --spatial 1 1 --channels 4097 16384 --min-cpg 4097
# --max-cpg 16384 --batch 100 500 --elements 400000 8000000. Hot, every gn_flat* beside PyTorch.
set -x
R=results/h200/run39
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/39d_wide66_torch.json $R/wide66.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/wide66.json --kernels $R/exp2 --variant 'gn_flat*' --mode hot -q --json $OUT/39d_wide66.json > /dev/null 2>&1; echo "wide66 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/flat63.json --problem r00_n186_c7631_hw1_g1 --kernels $R/exp2 --variant 'gn_flat*' --mode hot -q --json $OUT/39d_flat63_r00.json > /dev/null 2>&1; echo "r00 rc=$? $((SECONDS-S)) s"
gzip $OUT/39d_wide66.json $OUT/39d_flat63_r00.json
ls -la $OUT
