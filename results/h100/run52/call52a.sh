# gpu-log run 52, call a (any card). Three sets drawn for this call, never timed before:
# tiny503 (gen_shapes.py 503 12 --elements 256 8192 --batch 1 8 --channels 4 256 --spatial 1 256:
# problems of at most 100 KB, so a cold sample's extra time is not the data's), small504
# (gen_shapes.py 504 32 --elements 20000 2000000 --batch 1 32) and mix505 (gen_shapes.py 505 24).
# On an H200 first: models.json and standard.json with --variant best and the H200 table beside
# PyTorch (the targets). Then tiny503: every gn_* cold and hot with --stage-times and
# --pipeline-stats (each stage's binary size beside its cold - hot difference). Then small504
# (and on other cards mix505) as a user of the shipped table runs them, beside PyTorch, and
# small504 with every gn_* hot (table source), as far as the deadline allows.
# Run from the repository root: [DEADLINE=seconds] bash results/h100/run52/call52a.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
H=results/h100/run52; D=$OUT/52a; mkdir -p $D; END=${DEADLINE:-380}
run() { bash .gpuhost/launch.sh "$@"; }
# step LIMIT NAME ARGS...: gnbench run ARGS with at most LIMIT s, none past END; output in NAME.txt
step() {
  local lim=$1 name=$2; shift 2; local left=$((END - SECONDS)); [ $left -lt $lim ] && lim=$left
  [ $lim -lt 15 ] && { echo "$name skipped (deadline)"; return; }
  local S=$SECONDS; run timeout -s INT $lim .gpuhost/gnbench run "$@" -q --json $D/52a_$name.json > $D/52a_$name.txt 2>&1
  echo "$name rc=$? $((SECONDS-S)) s"
}
torch() { local S=$SECONDS; run python3 .gpuhost/torch_groupnorm_anchor.py $D/52a_$1_torch.json $2 > /dev/null 2>&1; echo "torch $1 rc=$? $((SECONDS-S)) s"; }
case "$gpu" in *H200*) T=results/h200/h200.table.json; sets="small504" ;;
  *) T=results/h100/h100.table.json; sets="small504 mix505" ;; esac
case "$gpu" in
  *H200*)
    for c in standard models; do
      torch $c configs/$c.json
      step 200 ${c}_best configs/$c.json --variant best --table $T --mode both
    done ;;
esac
step 80 tiny503_all $H/tiny503.json --variant 'gn_*' --mode both --stage-times --pipeline-stats
for s in $sets; do
  torch $s $H/$s.json
  step 60 ${s}_best $H/$s.json --variant best --table $T --mode both
done
step 110 small504_all $H/small504.json --variant 'gn_*' --mode hot
grep -h summary $D/*.txt
gzip $D/*.json; tar -C $OUT -cf $OUT/52a.tar 52a && rm -r $D
