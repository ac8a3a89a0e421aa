# gpu-log run 45, call e (any card): gn_fused_rp2*'s merging apply without grad_weight blocks
# (45e: the same as 45d after the tail-holding blocks were moved to the front of the dispatch.)
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45e.sh
P=45e exec bash results/h100/run45/call45d.sh
