# gpu-log run 34, call g: with gn_fused_rp_t1/_t2/_t4/_t8 in the build set (the when of commit
# after 4d1383c: groups of more than 1024 elements), standard.json and models.json's shapes in
# their bands (models_tband.json), every gn_* cold and hot beside PyTorch's anchor
set -x
R=results/h200/run34
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/34g_standard_torch.json configs/standard.json > $OUT/34g_torch.txt 2>&1; echo "torch std rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 130 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/34g_standard.json > $OUT/34g_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/34g_models_tband_torch.json $R/models_tband.json >> $OUT/34g_torch.txt 2>&1; echo "torch tband rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 80 .gpuhost/gnbench run $R/models_tband.json --variant 'gn_*' --mode both -q --json $OUT/34g_models_tband.json > $OUT/34g_models_tband.txt 2>&1; echo "tband rc=$? $((SECONDS-S)) s"
gzip $OUT/34g_standard.json $OUT/34g_models_tband.json
grep -h "^summary" $OUT/*.txt
ls -la $OUT
