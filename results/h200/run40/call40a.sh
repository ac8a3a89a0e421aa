# gpu-log run 40, call a (session 25). (1) flat67.json, a held-out set drawn this session
# before any timing (gen_shapes.py 67 16 --spatial 1 1 --channels 257 16384 --min-cpg 257
# --max-cpg 16384 --batch 1 1000 --elements 200000 30000000): every shipped gn_* beside
# PyTorch, hot and cold (also the first held-out check of run 39g's gn_flat_512x16).
# (2) exp/gn_flatap.json: gn_flat's statistics alone (STATS_ONLY, no per-element stores), then
# grad_input and the dw/db partials in one re-read of x and grad_out (gn_dwdb_split APPLY),
# hot, on flat67 and run 39's wide66.json (G = 1-3 of 4-16k channels at batch 100-500, where
# three shapes were 0.92-0.95x of PyTorch).
set -x
R=results/h200/run40
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/40a_flat67_torch.json $R/flat67.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/flat67.json --variant 'gn_*' --mode both -q --json $OUT/40a_flat67.json > /dev/null 2>&1; echo "flat67 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run $R/flat67.json --kernels $R/exp --variant 'gn_flatap*' --mode hot -q --json $OUT/40a_flat67_ap.json > /dev/null 2>&1; echo "flat67 ap rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run39/wide66.json --kernels $R/exp --variant 'gn_flat*' --mode hot -q --json $OUT/40a_wide66.json > /dev/null 2>&1; echo "wide66 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
