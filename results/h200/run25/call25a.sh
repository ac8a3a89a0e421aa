# gpu-log run 25, call 1: the gn_gmajor family on the H200 (verification, timing where it applies)
set -x
G=.gpuhost/gnbench
mkdir -p $OUT
$G devices > $OUT/25a_devices.txt 2>&1
S=$SECONDS
$G run configs/verify.json --variant 'gn_gmajor*' --no-timing -q --json $OUT/25a_verify.json > $OUT/25a_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS
$G run configs/models.json --variant 'gn_gmajor*' --mode both -q --json $OUT/25a_gmajor.json > $OUT/25a_gmajor.txt 2>&1; echo "models rc=$? $((SECONDS-S)) s"
S=$SECONDS
$G run configs/models.json --problem 'svd_unet_320x72x128_f14,wav2vec2_gn_512x49999_b1' --variant 'gn_fused*' --mode both -q --json $OUT/25a_fused.json > $OUT/25a_fused.txt 2>&1; echo "fused rc=$? $((SECONDS-S)) s"
$G run --batch 1 --channels 32 --spatial 1 --groups 32 --variant 'gn_gmajor*,gn_sgroup_2' --mode hot --stage-times > $OUT/25a_floor.txt 2>&1
tail -5 $OUT/*.txt
