# gpu-log run 37, call c: the gn_flat builds (flattened features, groups of 65-16384 channels)
# beside every other gn_* and PyTorch, cold and hot: flat55.json and wide56.json (37b's sets,
# drawn before the builds were written), small54's r15 (spatial 1) and flat57.json
# (gen_shapes.py 57 24 --spatial 1 1 --channels 64 16384 --max-cpg 16384 --elements 50000
# 32000000, drawn after they were written).
set -x
R=results/h200/run37
python3 - <<'PY'
import json
s = json.load(open('results/h200/run37/small54.json'))
s['problems'] = [p for p in s['problems'] if p['name'].startswith('r15')]
json.dump(s, open('/tmp/small54_r15.json', 'w'))
PY
for set in flat55 wide56 flat57; do
  S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37c_${set}_torch.json $R/$set.json > /dev/null 2>&1; echo "torch $set rc=$? $((SECONDS-S)) s"
done
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/37c_r15_torch.json /tmp/small54_r15.json > /dev/null 2>&1; echo "torch r15 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 150 .gpuhost/gnbench run $R/flat57.json --variant 'gn_*' --mode both -q --json $OUT/37c_flat57.json > /dev/null 2>&1; echo "flat57 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 110 .gpuhost/gnbench run $R/flat55.json --variant 'gn_*' --mode both -q --json $OUT/37c_flat55.json > /dev/null 2>&1; echo "flat55 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/wide56.json --variant 'gn_*' --mode both -q --json $OUT/37c_wide56.json > /dev/null 2>&1; echo "wide56 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 20 .gpuhost/gnbench run /tmp/small54_r15.json --variant 'gn_*' --mode both -q --json $OUT/37c_r15.json > /dev/null 2>&1; echo "r15 rc=$? $((SECONDS-S)) s"
mkdir -p $OUT/t && mv $OUT/*_torch.json $OUT/t/ && tar -czf $OUT/37c_torch.tar.gz -C $OUT t && rm -rf $OUT/t
gzip $OUT/37c_*.json
ls -la $OUT
