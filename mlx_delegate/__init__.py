"""mlx-delegate: compile PyTorch models into an MLX op-graph run by ExecuTorch.

from mlx_delegate.partitioner import MLXPartitioner
import mlx_delegate.runtime  # registers the MLXDelegateBackend runtime backend
"""
