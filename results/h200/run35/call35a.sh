# gpu-log run 35, call a: the two-dispatch gn_fused_rp2* builds (gn_apply_rpmerge.comp) on
# held-out shapes of few large groups drawn for this run: few51.json (gen_shapes.py 51 24
# --batch 1 16 --elements 200000 30000000 --groups 1 64) every gn_* cold and hot beside
# PyTorch, and mid52.json (52 12 --batch 1 64 ... --groups 65 256) with exp/gn_xrp2.json (the
# same builds allowed up to N*G 256) to find where two dispatches stop paying.
set -x
R=results/h200/run35
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35a_few51_torch.json $R/few51.json > $OUT/35a_torch.txt 2>&1; echo "torch few rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 230 .gpuhost/gnbench run $R/few51.json --variant 'gn_*' --mode both -q --json $OUT/35a_few51.json > $OUT/35a_few51.txt 2>&1; echo "few51 rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/35a_mid52_torch.json $R/mid52.json >> $OUT/35a_torch.txt 2>&1; echo "torch mid rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/mid52.json --kernels $R/exp --variant 'gn_*' --mode both -q --json $OUT/35a_mid52.json > $OUT/35a_mid52.txt 2>&1; echo "mid52 rc=$? $((SECONDS-S)) s"
gzip $OUT/35a_few51.json $OUT/35a_mid52.json
grep -h "^summary" $OUT/35a_*.txt
ls -la $OUT
