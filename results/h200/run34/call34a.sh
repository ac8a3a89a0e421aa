# gpu-log run 34, call a: the run-33f kit as it was (results/h200/run33/call33f.sh: A/B, hot, of
# the gn_occ2 twins, gn_sgroup_v4 at other workgroup sizes and the masked 10-16-slot twins), its
# output files named 34a_ instead of 33f_
sed 's/33f_/34a_/g' results/h200/run33/call33f.sh | bash
