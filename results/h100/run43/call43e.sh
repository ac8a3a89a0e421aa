# gpu-log run 43, call e (session 33, on the machine call d had just used): the 12 models.json
# shapes call d's limit left out (flat_points_128_n65536 onwards), every gn_* cold and hot; then
# the standard set beside PyTorch's anchor. Run from the repository root as the `run` command:
# bash results/h100/run43/call43e.sh   (it calls .gpuhost/launch.sh itself)
P=flat_points_128_n65536,flat_embed_1280_b2,flat_odd_1000_b64,styletransfer_in_128x64x64_b4,cyclegan_in_256x64x64_b1,nnunet3d_in_320x5x6x5_b2,poolformer_s12_64x56x56_b64,poolformer_s12_320x14x14_b64,poolformer_s12_512x7x7_b128,ddpm_cifar_256x4x4_b128,iddpm64_1344x8x8_b64,iddpm64_576x16x16_b64
S=$SECONDS; timeout -s INT 200 bash .gpuhost/launch.sh .gpuhost/gnbench run configs/models.json --problem $P --variant 'gn_*' --mode both -q --json $OUT/43e_models_tail.json > $OUT/43e_models_tail.txt 2>&1; echo "tail rc=$? $((SECONDS-S))"
S=$SECONDS; bash .gpuhost/launch.sh python3 .gpuhost/torch_groupnorm_anchor.py $OUT/43e_std_torch.json configs/standard.json >/dev/null 2>&1; echo "torch rc=$? $((SECONDS-S))"
S=$SECONDS; timeout -s INT 200 bash .gpuhost/launch.sh .gpuhost/gnbench run configs/standard.json --variant 'gn_*' --mode both -q --json $OUT/43e_std.json > $OUT/43e_std.txt 2>&1; echo "std rc=$? $((SECONDS-S))"
gzip $OUT/*.json
# Call 43f, right after (hot only, a second sample of every gn_* for the split-build decision):
# timeout -s INT 290 bash .gpuhost/launch.sh .gpuhost/gnbench run configs/models.json --variant 'gn_*' --mode hot -q --json $OUT/43a_models_hot.json > $OUT/43a_models_hot.txt 2>&1
