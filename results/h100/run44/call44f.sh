# gpu-log run 44: whichever card comes. On an H200, call b (the targets); otherwise call e.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=400 TL=40 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh ;;
  *) bash .gpuhost/launch.sh bash results/h100/run44/call44e.sh ;;
esac
