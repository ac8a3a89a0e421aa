# gpu-log run 36, call e: gn_apply_rpmerge.comp's grad_weight blocks merge a pair or two of
# many tiles with the whole workgroup (merge_tiles) instead of one subgroup (36c: 7.5 us of
# r23's apply stage). b1.json every gn_* cold and hot beside PyTorch; then the gn_fused_rp2*
# builds on b1.json and few51.json with the kernels before the change (kernels_old:
# f1b9a09's, via GNBENCH_KERNELS) and after, same binary.
set -x
R=results/h200/run36
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/36e_b1_torch.json $R/b1.json > /dev/null 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 200 .gpuhost/gnbench run $R/b1.json --variant 'gn_*' --mode both -q --json $OUT/36e_b1.json > /dev/null 2>&1; echo "b1 rc=$? $((SECONDS-S)) s"
for k in kernels_old new; do
  if [ $k = new ]; then E=""; else E="GNBENCH_KERNELS=$R/$k"; fi
  S=$SECONDS; env $E timeout -s INT 60 .gpuhost/gnbench run $R/b1.json results/h200/run35/few51.json --variant 'gn_fused_rp2*' --mode both -q --json $OUT/36e_rp2_$k.json > /dev/null 2>&1; echo "rp2 $k rc=$? $((SECONDS-S)) s"
done
gzip $OUT/36e_b1.json $OUT/36e_rp2_*.json
