# gpu-log run 37, call f (run as the `run` command itself on the machine call e left warm,
# about a minute later): call e's gnbench step stopped at its timeout and its file did not
# come back, so flat58.json again, hot only, the spatial-1 families, beside call e's PyTorch
# figures (37e_flat58_torch.json).
timeout -s INT 170 bash .gpuhost/launch.sh .gpuhost/gnbench run results/h200/run37/flat58.json --variant 'gn_flat*,gn_sgroup*,gn_gmajor*,gn_team*,gn_fused_rp_t1,gn_fused2' --mode hot -q --json $OUT/37f_flat58_hot.json > /dev/null 2>&1; echo rc=$?; ls -la $OUT; gzip $OUT/*.json
