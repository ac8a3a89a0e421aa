# Run 47's calls c and d swap shader versions on the device: this writes them from git history
# into old/, new/ and new2/ (untracked; they travel with the working tree). Run it from the
# repository root before `call47c.sh` or `call47d.sh`, and delete the three folders after.
set -euo pipefail
H=results/h100/run47
mkdir -p $H/old $H/new $H/new2
for f in gn_combine.glsl gn_piece_merge.glsl gn_apply_merge.comp; do
  git show 4f37a2c:kernels/glsl/$f > $H/old/$f   # the loops before session 37
done
for f in gn_combine.glsl gn_piece_merge.glsl; do
  git show 9cf76a2:kernels/glsl/$f > $H/new/$f   # call c: batches of 4 in both merges
done
for f in gn_combine.glsl gn_apply_merge.comp; do
  git show fc5069f:kernels/glsl/$f > $H/new2/$f  # call d: as kept
done
