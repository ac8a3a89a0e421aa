# gpu-log run 46, call c (any card): one subgroup per group past gn_sgroup's 1024 elements
# (x_sg*, exp/sgroup_big_exp.json: gn_sgroup.comp with 12-24 vec4 or 48-64 scalar slots) beside
# every gn_* on midm464 (drawn for it: gen_shapes.py 464 400 --elements 2e6 16e6, the first 16 with
# 1024 < M <= 3072) and low85 (stored shapes of 40 MB and more below 85 % of copy); stage times and
# the driver's pipeline statistics of the builds that had low85.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run46/call46c.sh
H=results/h100/run46; D=$OUT/46c; mkdir -p $D
nvidia-smi --query-gpu=name --format=csv,noheader
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $H/low85.json $H/midm464.json --kernels $H/exp --variant 'gn_*,x_sg*' --mode hot -q --json $D/46c_mid.json > $D/46c_mid.txt 2>&1; echo "mid rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $H/low85.json --kernels $H/exp --variant 'gn_onchip2_128,gn_onchip2_m4_256,gn_onchip2_m4_256l2,gn_sgroup_v4_8,gn_sgroup_16,gn_onchip2_v4_256,gn_onchip2_v4_128,gn_team_*,x_sg*,gn_fused_rp_t4,gn_fused_rp_sg4' --mode hot --stage-times --pipeline-stats -q --json $D/46c_stages.json > $D/46c_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/46c.tar 46c && rm -r $D
