"""The command-line tools of `python -m mlx_delegate`: the demo, the inspector and the
MLX JIT's precompiled header. The top layer: nothing imports it but the command
dispatcher."""
