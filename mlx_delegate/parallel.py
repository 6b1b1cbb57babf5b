"""Tensor parallelism: the MLPs of a model split over a group of devices.

`split_mlps(model, ways)` replaces every MLP of `model` (projections into the
hidden units, an elementwise function of them, one projection out: llama's
gate, up and down) by a `SplitMLP` of `ways` copies of it. Copy k keeps the
k-th slice of the hidden units: those rows of the projections in, those
columns of the projection out (column- then row-parallel). The MLP's output
is the sum of the copies' outputs.

Export the split model with `MLXPartitioner(device="gpu:0,gpu:1")`: the
compiler places the ops of copy k on device k of the group. The copies live
in a module list named `device_shards`, and the module path export records
on every node (`nn_module_stack`) says which copy a node belongs to. The sum,
and everything outside the MLPs, runs on the group's first device.
"""

from __future__ import annotations

import copy
import re
from typing import Iterable, Optional

import torch
from torch import nn
from torch.fx import Node

SHARDS = "device_shards"  # the module list whose k-th entry runs on device k
_SHARD_PATH = re.compile(rf"(?:^|\.){SHARDS}\.(\d+)(?=\.|$)")

# The projections of the MLPs `split_mlps` recognises: (in, out) child names.
KNOWN_PROJECTIONS = (
    (("gate", "up"), "down"),
    (("gate_proj", "up_proj"), "down_proj"),
    (("w1", "w3"), "w2"),
    (("up",), "down"),
    (("fc1",), "fc2"),
)

MAX_DEVICES = 256  # the IR's Instruction.device is a ubyte


class SplitMLP(nn.Module):
    """An MLP as the sum of copies of it, each on a slice of the hidden units."""

    def __init__(self, shards: Iterable[nn.Module]):
        super().__init__()
        setattr(self, SHARDS, nn.ModuleList(shards))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shards = getattr(self, SHARDS)
        out = shards[0](x)
        for shard in shards[1:]:
            out = out + shard(x)
        return out


def split_mlps(
    model: nn.Module,
    ways: int,
    *,
    projections: Optional[tuple[tuple[str, ...], str]] = None,
) -> int:
    """Splits, in place, every MLP of `model` into `ways` parts; returns how
    many MLPs were split. An MLP is a module with `nn.Linear` children named
    as in `projections` (the in-projections' names, the out-projection's
    name), or as one of `KNOWN_PROJECTIONS` when it is not given, and no
    other parameters: a transformer block holding its MLP's projections
    directly (and its attention's) is not one, since each part would then
    run the whole block."""
    if not 2 <= ways <= MAX_DEVICES:
        raise ValueError(f"ways={ways}: a split takes 2 to {MAX_DEVICES} devices")
    choices = (projections,) if projections else KNOWN_PROJECTIONS
    split_already = [name for name, m in model.named_modules() if isinstance(m, SplitMLP)]
    targets = [
        (name, module, names)
        for name, module in model.named_modules()
        if not any(name == s or name.startswith(f"{s}.") for s in split_already)
        for names in [_projections_of(module, choices)]
        if names is not None
    ]
    for name, module, (ins, out) in targets:
        if not name:
            raise ValueError("the model is an MLP itself: pass the module that holds it")
        split = SplitMLP(_shard(module, ins, out, part, ways) for part in range(ways))
        _replace(model, name, split)
    return len(targets)


def device_of(node: Node) -> int:
    """The device of its program's device group that `node` runs on: k inside
    the k-th part of a split MLP, else 0."""
    device = 0
    for entry in (node.meta.get("nn_module_stack") or {}).values():
        path = entry[0] if isinstance(entry, tuple) else str(entry)
        for match in _SHARD_PATH.finditer(path):
            device = int(match.group(1))  # the innermost part wins
    return device


def _projections_of(module: nn.Module, choices) -> Optional[tuple[tuple[str, ...], str]]:
    for ins, out in choices:
        layers = [getattr(module, n, None) for n in (*ins, out)]
        if not all(isinstance(layer, nn.Linear) for layer in layers):
            continue
        hidden = layers[-1].in_features
        owners = {name.rpartition(".")[0] for name, _ in module.named_parameters()}
        if all(layer.out_features == hidden for layer in layers[:-1]) and owners <= {*ins, out}:
            return ins, out
    return None


def _shard(module: nn.Module, ins: tuple[str, ...], out: str, part: int, ways: int) -> nn.Module:
    """A copy of `module` keeping the `part`-th of `ways` slices of its hidden units."""
    shard = copy.deepcopy(module)
    hidden = getattr(module, out).in_features
    rows = torch.tensor_split(torch.arange(hidden), ways)[part]
    if len(rows) == 0:
        raise ValueError(f"cannot split {hidden} hidden units {ways} ways")
    first, last = int(rows[0]), int(rows[-1]) + 1
    for name in ins:
        layer = getattr(shard, name)
        layer.weight = nn.Parameter(layer.weight.detach()[first:last].clone())
        if layer.bias is not None:
            layer.bias = nn.Parameter(layer.bias.detach()[first:last].clone())
        layer.out_features = last - first
    layer = getattr(shard, out)
    layer.weight = nn.Parameter(layer.weight.detach()[:, first:last].clone())
    layer.in_features = last - first
    if layer.bias is not None and part > 0:
        layer.register_parameter("bias", None)  # added once, by the first part
    return shard


def _replace(model: nn.Module, name: str, module: nn.Module) -> None:
    parent_name, _, child = name.rpartition(".")
    parent = model.get_submodule(parent_name) if parent_name else model
    setattr(parent, child, module)
