# gpu-log run 45, call f (any card): gn_fused_rp2*'s merging apply without grad_weight blocks
# (45f: the tail redone after 45e: each (n, g, j) block loads its chunk's records with its x and grad_out and leaves its share (rstd * B, A); batch 1 writes grad_weight directly, no count.)
# Run from the repository root: bash .gpuhost/launch.sh bash results/h100/run45/call45f.sh
P=45f exec bash results/h100/run45/call45d.sh
