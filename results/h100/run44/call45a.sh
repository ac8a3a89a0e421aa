# gpu-log run 45, call a: whichever card comes. On an H200, call 44b (the targets:
# models.json beside PyTorch); on an H100, call 44k again (re-times the split join as committed
# in c0969ae and repeats its dump diff and trials).
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); echo "card: $gpu"
case "$gpu" in
  *H200*) T=450 TL=50 bash .gpuhost/launch.sh bash results/h100/run44/call44b.sh ;;
  *) bash .gpuhost/launch.sh bash results/h100/run44/call44k.sh ;;
esac
