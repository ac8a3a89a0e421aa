# gpu-log run 44: whichever card comes. On an H200, call b (the targets); otherwise call a.
# Run from the repository root: bash results/h100/run44/call44.sh
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh ;;
  *) bash .gpuhost/launch.sh bash results/h100/run44/call44a.sh ;;
esac
