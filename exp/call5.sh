L="bash .gpuhost/launch.sh .gpuhost/gnbench"
$L run configs/standard.json --problem resnet50gn_256x56x56 --variant gn_fused_v4 --mode hot --min-time 3 -q | grep -E "copy|gn_fused_v4"
$L run configs/standard.json --mode both --timeout 1 --min-time 0.1 --max-noise 0.01 -q --json $OUT/h200.json --csv $OUT/h200.csv --md $OUT/h200.md > $OUT/h200.txt 2>&1; echo std rc=$?
python3 .gpuhost/torch_groupnorm_anchor.py $OUT/torch.json > $OUT/torch.txt 2>&1; echo torch rc=$?
gzip $OUT/h200.json
head -2 $OUT/h200.txt; grep -E "note:" $OUT/h200.txt; grep -E "resnet50gn_256.*gn_onchip2_v4_(896|1024)" $OUT/h200.txt; grep copy $OUT/torch.txt
