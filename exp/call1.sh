L="bash .gpuhost/launch.sh .gpuhost/gnbench"
O="--kernels exp --mode hot --timeout 1 --min-time 0.1 --max-noise 0.01 -q"
$L run -N 32 -C 256 --spatial 3136 -G 32 --variant gn_onchip2_v4_1024,xc_1024,xc_896,xc_896_dy1,xc_896_m,xc_896_lm,xc_1024_lm,xc_896_lm_b32,xc_896_lm_nodw,xb_nodw,xb_b32,gn_fused_v4 $O --pipeline-stats --json $OUT/r256.json > $OUT/r256.txt 2>&1
$L run -N 8 -C 640 --spatial 1024 -G 32 --variant gn_onchip2_v4_1024,xc_1024,xc_896,xc_896_dy1,xc_896_m,xc_896_lm,xc_1024_lm,xc_896_lm_b32,xb_b32 $O --json $OUT/u640.json > $OUT/u640.txt 2>&1
$L run -N 32 -C 256 --spatial 3136 -G 32 --variant xc_896_lm,xc_896_m,gn_onchip2_v4_1024,xc_896 $O --json $OUT/r256b.json > $OUT/r256b.txt 2>&1
cat $OUT/*.txt | grep -v "^$"
