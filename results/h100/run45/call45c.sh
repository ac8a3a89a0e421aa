# gpu-log run 45, call c (any card): where the few-group builds spend their time. The weak
# shapes of 45b (fewg452 r02 r03 r04 r08 r11 r12 r15, fewg86 r01 r02) hot with --stage-times:
# the shipped gn_fused_rp* builds, and x_rp2* (results/h100/run45/exp/rp_skip_exp.json: the
# same builds whose merging apply skips the grad_weight blocks, _nodw, or the per-block group
# merge, _nomerge; those fail verification and are timed only to split the stage's time).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45c.sh
H=results/h100/run45; X="--kernels $H/exp"
nvidia-smi --query-gpu=name --format=csv,noheader
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $H/fewg452.json $X --problem 'r02*,r03*,r04*,r08*,r11*,r12*,r15*' --variant 'x_rp2*,gn_fused_rp*' --mode hot --stage-times -q --json $OUT/45c_fewg452_stages.json > $OUT/45c_fewg452_stages.txt 2>&1; echo "452 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run results/h100/run44/fewg86.json $X --problem 'r01*,r02*' --variant 'x_rp2*,gn_fused_rp*' --mode hot --stage-times -q --json $OUT/45c_fewg86_stages.json > $OUT/45c_fewg86_stages.txt 2>&1; echo "86 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
