"""The collectives a program runs across processes, as torch custom ops:
`mlx_delegate::all_sum` and `mlx_delegate::all_gather`, lowered to AllSumNode
and AllGatherNode (mlx_delegate/compiler/ops/collectives.py), which the plugin runs
through MLX's distributed layer on its process's group.

Each takes the size of the group the program is made for: all_gather's
output shape depends on it, and the plugin refuses to run a program in a
group of another size. Eagerly a process is a group of one (both return x),
so a tensor-parallel model runs across ranks only as a program."""

from __future__ import annotations

import torch


def _eager_group(group_size: int, op: str) -> None:
    if group_size != 1:
        raise ValueError(
            f"{op} over {group_size} processes runs in the program only; "
            "eagerly a process is a group of one"
        )


@torch.library.custom_op("mlx_delegate::all_sum", mutates_args=())
def all_sum(x: torch.Tensor, group_size: int) -> torch.Tensor:
    """The elementwise sum of `x` over the group's `group_size` processes."""
    _eager_group(group_size, "all_sum")
    return x.clone()


@all_sum.register_fake
def _(x: torch.Tensor, group_size: int) -> torch.Tensor:
    return torch.empty_like(x)


@torch.library.custom_op("mlx_delegate::all_gather", mutates_args=())
def all_gather(x: torch.Tensor, group_size: int) -> torch.Tensor:
    """`x` of the group's `group_size` processes concatenated along axis 0."""
    _eager_group(group_size, "all_gather")
    return x.clone()


@all_gather.register_fake
def _(x: torch.Tensor, group_size: int) -> torch.Tensor:
    return x.new_empty((x.shape[0] * group_size, *x.shape[1:]))
