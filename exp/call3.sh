L="bash .gpuhost/launch.sh .gpuhost/gnbench"
O="--kernels exp --mode hot --timeout 1 --min-time 0.1 --max-noise 0.01 -q"
$L run configs/standard.json --problem 'resnet50gn_256*,sd_unet_640*,sd_unet_1280*' --variant gn_fused_v4,gn_onchip2_v4_1024,gn_onchip2_v4_896,xr_v4_1024,gn_onchip2_v4_512,xr_v4_512,gn_onchip2_512,xr_512,gn_onchip_v4_512x5,xc_896_dy1_m_b32 $O --pipeline-stats --json $OUT/ab.json > $OUT/ab.txt 2>&1
$L run configs/default.json configs/edge.json configs/numerics.json --no-timing -q --json $OUT/verify.json > $OUT/verify.txt 2>&1; echo verify rc=$?
grep -v "^$" $OUT/ab.txt | grep -v "SKIP\|^max err\|noise target"
grep -cE " PASS " $OUT/verify.txt; grep -E " (FAIL|ERROR|XFAIL|XPASS) " $OUT/verify.txt | awk '{print $1,$4,$5}'
