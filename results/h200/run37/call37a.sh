# gpu-log run 37, call a: (1) standard.json every gn_* cold and hot beside PyTorch (first since
# session 21's kernels); (2) the partials store of gn_onchip2.comp moved after grad_input: its
# builds hot on ab13.json (run 36b's tiny7 + six models.json shapes they win), old kernels
# (HEAD~1 of dfd2315, carried as kernels_old/) and new, twice; (3) held-out gen53.json
# (gen_shapes.py 53 30, drawn this session) and small54.json (gen_shapes.py 54 20 --elements
# 100000 2000000) every gn_* cold and hot beside PyTorch.
set -x
R=results/h200/run37
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37a_standard_torch.json configs/standard.json > /dev/null 2>&1; echo "torch std rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 90 .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/37a_standard.json > /dev/null 2>&1; echo "standard rc=$? $((SECONDS-S)) s"
V='gn_onchip2_256,gn_onchip2_128,gn_onchip2_128x24,gn_onchip2_256x24,gn_onchip2_v4_256,gn_onchip2_v4_128,gn_onchip2_v4_256x8,gn_onchip2_v4_256x8d2,gn_onchip2_v4_128x10d6,gn_onchip2_v4_128x13d4,gn_onchip2_m4_256,gn_onchip2_m4_128,gn_onchip2_m4_256x8,gn_onchip2_m4_192x8d2'
for rep in 1 2; do
  for k in kernels_old new; do
    if [ $k = new ]; then E=""; else E="GNBENCH_KERNELS=$R/$k"; fi
    S=$SECONDS; env $E timeout -s INT 40 .gpuhost/gnbench run $R/ab13.json --variant "$V" --mode hot -q --json $OUT/37a_ab_${k}_$rep.json > /dev/null 2>&1; echo "$k $rep rc=$? $((SECONDS-S)) s"
  done
done
for set in gen53 small54; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37a_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; timeout -s INT 160 .gpuhost/gnbench run $R/gen53.json --variant 'gn_*' --mode both -q --json $OUT/37a_gen53.json > /dev/null 2>&1; echo "gen53 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 80 .gpuhost/gnbench run $R/small54.json --variant 'gn_*' --mode both -q --json $OUT/37a_small54.json > /dev/null 2>&1; echo "small54 rc=$? $((SECONDS-S)) s"
mkdir -p $OUT/ab && mv $OUT/37a_ab_*.json $OUT/ab/ && tar -czf $OUT/37a_ab.tar.gz -C $OUT ab && rm -rf $OUT/ab
gzip $OUT/37a_standard.json $OUT/37a_gen53.json $OUT/37a_small54.json
ls -la $OUT
