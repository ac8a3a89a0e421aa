# gpu-log run 44, call e: after 44d's bitwise-reproducibility failures of the large-part split
# builds (x_onchip2_*s on groups of hundreds of parts, whose parts gave up and were finished by
# the last one), the same builds with the give-up path's d = x - K made `precise`: verification
# (3 trials) and hot timing on the shapes that failed, then the shipped split build on its own.
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run44/call44e.sh
set -x
H=results/h100/run44; X="--kernels $H/exp"
S=$SECONDS; timeout -s INT ${T1:-150} .gpuhost/gnbench run $H/fewg86.json $X --problem 'r06*,r07*,r08*,r09*,r12*' --variant 'x_onchip2_*' --trials 3 --mode hot --timeout 0.2 -q --json $OUT/44e_repro.json > $OUT/44e_repro.txt 2>&1; echo "repro rc=$? $((SECONDS-S)) s"
S=$SECONDS; timeout -s INT ${T2:-60} .gpuhost/gnbench run results/h100/run43/held83.json $X --problem 'r08*' --variant 'x_onchip2_*' --trials 3 --mode hot --timeout 0.2 -q --json $OUT/44e_repro83.json > $OUT/44e_repro83.txt 2>&1; echo "repro83 rc=$? $((SECONDS-S)) s"
gzip $OUT/*.json
