L="bash .gpuhost/launch.sh .gpuhost/gnbench"
O="--kernels exp --mode hot --timeout 1 --min-time 0.1 --max-noise 0.01 -q"
$L run configs/standard.json --problem 'resnet50gn_256*,sd_unet_640*' --variant gn_fused_v4,gn_onchip2_v4_896,xs_dot,xs_nomask,xs_both $O --pipeline-stats --json $OUT/ab1.json > $OUT/ab1.txt 2>&1
$L run configs/standard.json --problem 'resnet50gn_256*' --variant xs_both,xs_nomask,xs_dot,gn_onchip2_v4_896 $O --json $OUT/ab2.json > $OUT/ab2.txt 2>&1
grep -hE "copy bandwidth|gn_onchip2|xs_|/ group" $OUT/ab1.txt $OUT/ab2.txt | grep -v "SKIP"
