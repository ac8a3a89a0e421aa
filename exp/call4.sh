L="bash .gpuhost/launch.sh .gpuhost/gnbench"
$L run configs/standard.json --mode both --timeout 1 --min-time 0.1 --max-noise 0.01 -q --json $OUT/h200.json --csv $OUT/h200.csv --md $OUT/h200.md > $OUT/h200.txt 2>&1; echo std rc=$?
python3 .gpuhost/torch_groupnorm_anchor.py $OUT/torch.json > $OUT/torch.txt 2>&1; echo torch rc=$?
$L run configs/numerics_standard.json --no-timing -q --json $OUT/numstd.json > $OUT/numstd.txt 2>&1; echo numstd rc=$?
gzip $OUT/h200.json $OUT/numstd.json
grep -cE " PASS " $OUT/numstd.txt; grep -E " (FAIL|ERROR|XPASS) " $OUT/numstd.txt | head; grep -c XFAIL $OUT/numstd.txt
grep -E "resnet50gn_256|copy" $OUT/h200.txt | head -30
