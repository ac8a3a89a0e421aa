# gpu-log run 36, call c: where the time goes on the few-large-group shapes still at or
# below PyTorch (weak11.json: b1.json's r06, r08, r16, r21-r24 and few51.json's r06, r07,
# r09, r20 as f*): the row-piece and gn_fused2 builds hot with --stage-times, then without
# (the stage timestamps drain the pipeline); models.json's batch-1 shapes of <= 64 MB
# (models_b1.json, which 36a's timeout cut) every gn_* cold and hot beside PyTorch.
set -x
R=results/h200/run36
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/weak11.json --variant 'gn_fused_rp*,gn_fused2*,gn_fused1*' --mode hot --stage-times -q --json $OUT/36c_weak_stages.json > /dev/null 2>&1; echo "weak stages rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/36c_models_b1_torch.json $R/models_b1.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 120 .gpuhost/gnbench run $R/models_b1.json --variant 'gn_*' --mode both -q --json $OUT/36c_models_b1.json > /dev/null 2>&1; echo "models b1 rc=$? $((SECONDS-S)) s"
gzip $OUT/36c_weak_stages.json $OUT/36c_models_b1.json
