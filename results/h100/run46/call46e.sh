# gpu-log run 46, call e (any card): gn_sgroup.comp's ENTRY_WORKGROUP (one workgroup per group,
# channel sums from shared memory; x_sgw*, exp/sgroup_wg_exp.json as changed for 46e: workgroups of 64-256, 4-32 slots) and x_sg_v4_12w32 beside every
# gn_* on low85, midm464 and short465 (drawn for it: gen_shapes.py 465 600 --spatial 4 400
# --elements 2e6 30e6, the first 16 with CPG > 1 and 256 < M <= 3072; drawn for 46d).
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run46/call46e.sh
H=results/h100/run46; D=$OUT/46e; mkdir -p $D
nvidia-smi --query-gpu=name --format=csv,noheader
S=$SECONDS; timeout -s INT 250 .gpuhost/gnbench run $H/low85.json $H/midm464.json $H/short465.json --kernels $H/exp --variant 'gn_*,x_sgw*,x_sg_v4_12w32' --mode hot -q --json $D/46e_mid.json > $D/46e_mid.txt 2>&1; echo "mid rc=$? $((SECONDS-S)) s"
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/46e.tar 46e && rm -r $D
