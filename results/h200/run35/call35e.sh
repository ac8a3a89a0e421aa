# gpu-log run 35, call e: the shipped gn_fused_rp2* with every gn_* cold and hot beside
# PyTorch on held43.json's batch-1-4 block (b*), standard.json, and the models.json shapes
# whose N*G and size admit gn_fused_rp2* (models_rp2.json).
set -x
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35e_held43_torch.json results/h200/run34/held43.json > $OUT/35e_torch.txt 2>&1; echo "torch held rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run34/held43.json --problem 'b*' --variant 'gn_*' --mode both -q --json $OUT/35e_held43b.json > $OUT/35e_held43b.txt 2>&1; echo "held43b rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35e_standard_torch.json configs/standard.json >> $OUT/35e_torch.txt 2>&1; echo "torch std rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/35e_standard.json > $OUT/35e_standard.txt 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35e_models_rp2_torch.json results/h200/run35/models_rp2.json >> $OUT/35e_torch.txt 2>&1; echo "torch models rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 100 .gpuhost/gnbench run results/h200/run35/models_rp2.json --variant 'gn_*' --mode both -q --json $OUT/35e_models_rp2.json > $OUT/35e_models_rp2.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
gzip $OUT/35e_held43b.json $OUT/35e_standard.json $OUT/35e_models_rp2.json
grep -h "^summary" $OUT/35e_*.txt
