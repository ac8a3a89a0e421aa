# gpu-log run 25, call f: gn_gmajor_sg with ROUNDS 2 (registers per round bounded): every models.json shape it applies to, beside PyTorch and the small shapes' other families; pipeline statistics
set -x
G=.gpuhost/gnbench
S=$SECONDS; $G run configs/verify.json --variant 'gn_gmajor*' --no-timing -q --json $OUT/25f_verify.json > $OUT/25f_verify.txt 2>&1; echo "verify rc=$? $((SECONDS-S)) s"
S=$SECONDS; python3 .gpuhost/torch_groupnorm_anchor.py $OUT/25f_models_torch.json configs/models.json > $OUT/25f_torch.txt 2>&1; echo "torch rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --variant 'gn_gmajor*' --mode both -q --pipeline-stats --json $OUT/25f_gmajor.json > $OUT/25f_gmajor.txt 2>&1; echo "gmajor rc=$? $((SECONDS-S)) s"
S=$SECONDS; $G run configs/models.json --problem 'retinanet_fpn_p7_256x7x11_b2,nnunet3d_in_320x5x6x5_b2,flat_embed_1280_b2,flat_resnet50_pool_2048_b256,maskrcnn_fpn_p5_256x25x42_b2' --variant 'gn_gmajor*,gn_sgroup*,gn_onchip2*' --mode both -q --json $OUT/25f_small.json > $OUT/25f_small.txt 2>&1; echo "small rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
grep -h "PASS\|FAIL" $OUT/25f_gmajor.txt | awk '{print $1, $4, $5, "cold", $10, "hot", $12}'
