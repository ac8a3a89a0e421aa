# gpu-log run 34, call c: per-stage times (--stage-times: a timestamp after every stage, which
# drains the pipeline) of the 5T builds on the held-out shapes of few large groups where
# PyTorch was faster hot in 34b (s05, s07, s13, b06), and on sd15_unet_320x64x64_b1 (gn_fused1_v4)
set -x
R=results/h200/run34
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/small44.json $R/held43.json --problem s05_n2_c58_hw4923_g2,s07_n5_c562_hw155_g1,s13_n12_c67_hw1514_g1,b06_n2_c147_hw6834_g1 --variant 'gn_fused*' --mode hot --stage-times --json $OUT/34c_stages.json > $OUT/34c_stages.txt 2>&1; echo "stages rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 30 .gpuhost/gnbench run configs/models.json --problem sd15_unet_320x64x64_b1 --variant 'gn_fused*' --mode hot --stage-times --json $OUT/34c_stages_sd15.json > $OUT/34c_stages_sd15.txt 2>&1; echo "sd15 rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT 60 .gpuhost/gnbench run $R/small44.json $R/held43.json --problem s05_n2_c58_hw4923_g2,s07_n5_c562_hw155_g1,s13_n12_c67_hw1514_g1,b06_n2_c147_hw6834_g1,s09_n22_c1615_hw2_g85,s04_n1_c1415_hw186_g1415 --variant 'gn_*' --mode hot --json $OUT/34c_nostages.json > $OUT/34c_nostages.txt 2>&1; echo "nostages rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
ls -la $OUT
