"""Op tests of the vision and NN ops: batch, group and instance norm (and
batch norm folded into a convolution), convolutions (3-D, transposed),
pooling, adaptive pooling, upsampling, pixel shuffle, and attention with
(B, L, D) inputs and broadcast masks."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from .op_spec import BATCH, C, M, T, Cases, bf16, f16, f32, u8

CASES = Cases()  # this module's op tests

NORM_TOL = {f32: (1e-4, 1e-4), f16: (2e-2, 2e-2), bf16: (8e-2, 8e-2)}
CONV_TOL = {f32: (1e-3, 1e-3), f16: (3e-2, 3e-2), bf16: (1e-1, 1e-1)}
POOL_TOL = {f32: (1e-5, 1e-5), f16: (1e-2, 1e-2), bf16: (3e-2, 3e-2)}
BATCH0 = {0: {0: BATCH}}


def with_stats(module: nn.Module) -> nn.Module:
    """`module` in eval mode with random running statistics and affine
    parameters in its batch norms (fresh ones are 0/1 and hide mistakes)."""
    with torch.no_grad():
        for m in module.modules():
            if isinstance(m, nn.modules.batchnorm._NormBase) and m.running_mean is not None:
                m.running_mean.uniform_(-1, 1)
                m.running_var.uniform_(0.5, 2)
            if isinstance(m, nn.modules.batchnorm._NormBase) and m.affine:
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-1, 1)
    return module.eval()


# ---- batch norm -----------------------------------------------------------------------


def _bn_functional(x, mean, var, weight, bias):
    return F.batch_norm(x, mean, var, weight, bias, training=False, eps=1e-3)


CASES.add(
    "batch_norm",
    [
        M("2d_module", lambda: with_stats(nn.BatchNorm2d(3)), T((2, 3, 4, 5))),
        M("1d_no_affine", lambda: with_stats(nn.BatchNorm1d(4, affine=False)), T((3, 4))),
        M("1d_sequence", lambda: with_stats(nn.BatchNorm1d(3)), T((2, 3, 6))),
        M("3d_float16", lambda: with_stats(nn.BatchNorm3d(2)).half(), T((1, 2, 3, 3, 3), f16)),
        M("2d_bfloat16", lambda: with_stats(nn.BatchNorm2d(3)).to(bf16), T((2, 3, 4, 4), bf16)),
        M("dynamic_batch", lambda: with_stats(nn.BatchNorm2d(3)), T((2, 3, 4, 4)), dynamic=BATCH0),
        # statistics given at run time: lowered op by op
        C(
            "functional_input_stats",
            _bn_functional,
            T((2, 3, 4)),
            T((3,)),
            T((3,), f32, 0.5, 2),
            T((3,)),
            T((3,)),
        ),
    ],
    tolerances=NORM_TOL,
)


class _ConvThenConvOut(nn.Module):
    """The convolution's output is used twice: no fold."""

    def __init__(self):
        super().__init__()
        self.conv, self.bn = nn.Conv2d(2, 3, 3), nn.BatchNorm2d(3)

    def forward(self, x):
        y = self.conv(x)
        return self.bn(y), y


def _conv_bn(conv: nn.Module, bn: nn.Module, dtype=f32):
    return lambda: with_stats(nn.Sequential(conv, bn)).to(dtype)


CASES.add(
    "conv_batch_norm",
    [
        M("conv2d", _conv_bn(nn.Conv2d(3, 4, 3, padding=1), nn.BatchNorm2d(4)), T((2, 3, 5, 5))),
        M(
            "conv1d_no_bias",
            _conv_bn(nn.Conv1d(2, 4, 3, bias=False), nn.BatchNorm1d(4)),
            T((2, 2, 7)),
        ),
        M(
            "conv3d_float16",
            _conv_bn(nn.Conv3d(2, 3, 2), nn.BatchNorm3d(3), f16),
            T((1, 2, 4, 4, 4), f16),
        ),
        M(
            "transposed_groups",
            _conv_bn(nn.ConvTranspose2d(4, 6, 3, stride=2, groups=2), nn.BatchNorm2d(6)),
            T((1, 4, 3, 3)),
        ),
        M(
            "depthwise_dynamic",
            _conv_bn(nn.Conv2d(3, 3, 3, groups=3), nn.BatchNorm2d(3, affine=False)),
            T((2, 3, 6, 6)),
            dynamic=BATCH0,
        ),
        M("conv_output_used_twice", lambda: with_stats(_ConvThenConvOut()), T((1, 2, 5, 5))),
        C(
            "statistics_are_inputs",
            lambda x, w, m, v: _bn_functional(F.conv2d(x, w), m, v, None, None),
            T((1, 2, 5, 5)),
            T((3, 2, 3, 3)),
            T((3,)),
            T((3,), f32, 0.5, 2),
        ),
    ],
    tolerances=CONV_TOL,
)


# ---- group and instance norm ----------------------------------------------------------

CASES.add(
    "native_group_norm",
    [
        M("affine", lambda: with_stats(nn.GroupNorm(2, 4)), T((2, 4, 3, 3))),
        M("no_affine_1d", lambda: nn.GroupNorm(3, 6, affine=False), T((2, 6, 5))),
        M("channels_only", lambda: with_stats(nn.GroupNorm(2, 6)), T((3, 6))),
        C(
            "statistics_outputs",
            lambda x: torch.ops.aten.native_group_norm(x, None, None, 2, 4, 9, 2, 1e-5),
            T((2, 4, 3, 3)),
        ),
        M("float16", lambda: with_stats(nn.GroupNorm(2, 4)).half(), T((2, 4, 3, 3), f16)),
        M(
            "bfloat16_dynamic",
            lambda: with_stats(nn.GroupNorm(4, 4)).to(bf16),
            T((2, 4, 3, 3), bf16),
            dynamic=BATCH0,
        ),
    ],
    tolerances=NORM_TOL,
)

CASES.add(
    "instance_norm",
    [
        M("2d", lambda: nn.InstanceNorm2d(3), T((2, 3, 4, 5))),
        M("2d_affine", lambda: with_stats(nn.InstanceNorm2d(3, affine=True)), T((2, 3, 4, 4))),
        C("functional_1d", lambda x: F.instance_norm(x, eps=1e-3), T((2, 3, 6))),
        M(
            "running_stats",
            lambda: with_stats(nn.InstanceNorm2d(3, track_running_stats=True)),
            T((2, 3, 4, 4)),
        ),
        M("float16", lambda: nn.InstanceNorm2d(3).half(), T((2, 3, 4, 4), f16)),
        M("dynamic_batch", lambda: nn.InstanceNorm1d(4), T((2, 4, 6)), dynamic=BATCH0),
    ],
    tolerances=NORM_TOL,
)


# ---- convolution: 3-D and transposed ----------------------------------------------------

CASES.add(
    "conv3d",
    [
        C("bias", F.conv3d, T((1, 2, 4, 4, 4)), T((3, 2, 2, 2, 2)), T((3,))),
        C(
            "stride_padding",
            lambda x, w: F.conv3d(x, w, stride=(2, 1, 1), padding=1),
            T((1, 2, 5, 4, 4)),
            T((2, 2, 3, 3, 3)),
        ),
        C(
            "dilation_groups",
            lambda x, w: F.conv3d(x, w, dilation=2, groups=2),
            T((1, 4, 5, 5, 5)),
            T((2, 2, 2, 2, 2)),
        ),
        M("module_float16", lambda: nn.Conv3d(2, 3, 2).half(), T((1, 2, 3, 4, 4), f16)),
        M(
            "dynamic_batch",
            lambda: nn.Conv3d(2, 2, 3, padding=1),
            T((2, 2, 3, 3, 3)),
            dynamic=BATCH0,
        ),
    ],
    tolerances=CONV_TOL,
)

CASES.add(
    "conv_transpose1d",
    [
        C("bias", F.conv_transpose1d, T((2, 3, 5)), T((3, 4, 3)), T((4,))),
        C(
            "stride_padding_output_padding",
            lambda x, w: F.conv_transpose1d(x, w, stride=3, padding=2, output_padding=1),
            T((1, 2, 6)),
            T((2, 3, 4)),
        ),
        C(
            "groups_dilation",
            lambda x, w: F.conv_transpose1d(x, w, groups=2, dilation=2),
            T((1, 4, 5)),
            T((4, 3, 3)),
        ),
        M(
            "module_float16",
            lambda: nn.ConvTranspose1d(2, 3, 3, stride=2).half(),
            T((1, 2, 4), f16),
        ),
        M(
            "dynamic_batch",
            lambda: nn.ConvTranspose1d(2, 3, 2, stride=2),
            T((2, 2, 5)),
            dynamic=BATCH0,
        ),
    ],
    tolerances=CONV_TOL,
)

CASES.add(
    "conv_transpose2d",
    [
        C("bias", F.conv_transpose2d, T((1, 3, 4, 4)), T((3, 2, 3, 3)), T((2,))),
        C(
            "stride_padding_output_padding",
            lambda x, w: F.conv_transpose2d(
                x, w, stride=(2, 3), padding=(1, 0), output_padding=(1, 2)
            ),
            T((2, 2, 3, 4)),
            T((2, 3, 3, 3)),
        ),
        C(
            "groups_dilation",
            lambda x, w: F.conv_transpose2d(x, w, stride=2, groups=2, dilation=(2, 1)),
            T((1, 4, 3, 3)),
            T((4, 1, 2, 3)),
        ),
        C(
            "large_padding",
            lambda x, w: F.conv_transpose2d(x, w, padding=2),
            T((1, 2, 5, 5)),
            T((2, 2, 3, 3)),
        ),
        M(
            "module_float16",
            lambda: nn.ConvTranspose2d(2, 4, 4, stride=2, padding=1).half(),
            T((1, 2, 3, 3), f16),
        ),
        M(
            "module_bfloat16",
            lambda: nn.ConvTranspose2d(2, 2, 2, stride=2).to(bf16),
            T((1, 2, 3, 3), bf16),
        ),
        M(
            "dynamic_batch",
            lambda: nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1),
            T((2, 3, 4, 4)),
            dynamic=BATCH0,
        ),
    ],
    tolerances=CONV_TOL,
)

CASES.add(
    "conv_transpose3d",
    [
        C("bias", F.conv_transpose3d, T((1, 2, 3, 3, 3)), T((2, 3, 2, 2, 2)), T((3,))),
        C(
            "stride_padding_output_padding",
            lambda x, w: F.conv_transpose3d(x, w, stride=2, padding=1, output_padding=(1, 0, 1)),
            T((1, 2, 3, 2, 3)),
            T((2, 2, 3, 3, 3)),
        ),
        C(
            "groups",
            lambda x, w: F.conv_transpose3d(x, w, groups=2),
            T((1, 4, 2, 2, 2)),
            T((4, 1, 2, 2, 2)),
        ),
        M(
            "module_float16",
            lambda: nn.ConvTranspose3d(2, 2, 2, stride=2).half(),
            T((1, 2, 2, 2, 2), f16),
        ),
    ],
    tolerances=CONV_TOL,
)


# ---- pooling ----------------------------------------------------------------------------


def _indices(pool, **kw):
    """Both outputs of a pooling op called with return_indices=True."""
    return lambda x: pool(x, return_indices=True, **kw)


CASES.add(
    "max_pool1d",
    [
        C("kernel2", lambda x: F.max_pool1d(x, 2), T((2, 3, 8))),
        C(
            "stride_padding_ceil",
            lambda x: F.max_pool1d(x, 3, 2, padding=1, ceil_mode=True),
            T((2, 3, 8)),
        ),
        C(
            "indices_dilation",
            _indices(F.max_pool1d, kernel_size=2, dilation=2),
            T((1, 2, 9), distinct=True),
        ),
        C("float16", lambda x: F.max_pool1d(x, 3), T((2, 3, 9), f16)),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "max_pool2d",
    [
        C("kernel2", lambda x: F.max_pool2d(x, 2), T((2, 3, 6, 6))),
        C("stride_padding", lambda x: F.max_pool2d(x, 3, stride=2, padding=1), T((1, 2, 7, 6))),
        C(
            "dilation_ceil",
            lambda x: F.max_pool2d(x, 2, stride=2, dilation=(2, 1), ceil_mode=True),
            T((1, 2, 7, 7)),
        ),
        C("unbatched", lambda x: F.max_pool2d(x, (2, 3)), T((3, 6, 6))),
        C("float16", lambda x: F.max_pool2d(x, 2), T((2, 2, 4, 6), f16)),
        C("bfloat16", lambda x: F.max_pool2d(x, 3, 1, 1), T((1, 2, 5, 5), bf16)),
        M("module_dynamic", lambda: nn.MaxPool2d(2), T((2, 3, 4, 4)), dynamic=BATCH0),
        M(
            "kernel_longer_than_input_ceil",
            lambda: nn.MaxPool2d(5, ceil_mode=True),
            T((1, 4, 3, 2)),
        ),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "max_pool2d_with_indices",
    [
        C("indices", _indices(F.max_pool2d, kernel_size=2), T((2, 2, 4, 6), distinct=True)),
        C(
            "indices_padding_ceil",
            _indices(F.max_pool2d, kernel_size=3, stride=2, padding=1, ceil_mode=True),
            T((1, 2, 6, 6), distinct=True),
        ),
        C(
            "only_indices",
            lambda x: F.max_pool2d(x, 2, return_indices=True)[1],
            T((1, 3, 4, 4), distinct=True),
        ),
        C(
            "indices_float16_dilation",
            _indices(F.max_pool2d, kernel_size=2, dilation=2),
            T((1, 2, 6, 5), f16, distinct=True),
        ),
        C(
            "dynamic_batch",
            _indices(F.max_pool2d, kernel_size=2),
            T((2, 2, 4, 4), distinct=True),
            dynamic=BATCH0,
        ),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "max_pool3d",
    [
        C("kernel2", lambda x: F.max_pool3d(x, 2), T((1, 2, 4, 4, 4))),
        C(
            "stride_padding_ceil",
            lambda x: F.max_pool3d(x, 3, 2, 1, ceil_mode=True),
            T((1, 2, 5, 4, 6)),
        ),
        C(
            "indices",
            _indices(F.max_pool3d, kernel_size=(1, 2, 2)),
            T((1, 2, 2, 4, 4), distinct=True),
        ),
        C("float16", lambda x: F.max_pool3d(x, 2), T((1, 2, 4, 4, 4), f16)),
        M("module_dynamic", lambda: nn.MaxPool3d(2), T((2, 1, 4, 4, 4)), dynamic=BATCH0),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "avg_pool1d",
    [
        C("kernel2", lambda x: F.avg_pool1d(x, 2), T((2, 3, 8))),
        C(
            "padding_exclude_pad",
            lambda x: F.avg_pool1d(x, 3, 2, 1, count_include_pad=False),
            T((2, 3, 8)),
        ),
        C("ceil_mode", lambda x: F.avg_pool1d(x, 3, 2, 1, ceil_mode=True), T((1, 2, 8))),
        C("float16", lambda x: F.avg_pool1d(x, 3), T((2, 3, 9), f16)),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "avg_pool2d",
    [
        C("kernel2", lambda x: F.avg_pool2d(x, 2), T((2, 3, 6, 6))),
        C("padding_include_pad", lambda x: F.avg_pool2d(x, 3, 2, 1), T((1, 2, 7, 6))),
        C(
            "padding_exclude_pad_ceil",
            lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
            T((1, 2, 6, 7)),
        ),
        C("ceil_include_pad", lambda x: F.avg_pool2d(x, 2, 2, 1, ceil_mode=True), T((1, 2, 6, 7))),
        C(
            "divisor_override",
            lambda x: F.avg_pool2d(x, (2, 3), divisor_override=4),
            T((1, 2, 4, 6)),
        ),
        C("float16", lambda x: F.avg_pool2d(x, 2), T((2, 2, 4, 6), f16)),
        C("bfloat16", lambda x: F.avg_pool2d(x, 3, 1, 1), T((1, 2, 5, 5), bf16)),
        M("module_dynamic", lambda: nn.AvgPool2d(2), T((2, 3, 4, 4)), dynamic=BATCH0),
        # EfficientNet's head over a 2x2 map: ceil mode makes one window
        M(
            "kernel_longer_than_input_ceil",
            lambda: nn.AvgPool2d(7, ceil_mode=True),
            T((1, 8, 2, 2)),
        ),
    ],
    tolerances=POOL_TOL,
)

# (PyTorch's CPU avg_pool3d has no float16 or bfloat16 kernel to compare with.)
CASES.add(
    "avg_pool3d",
    [
        C("kernel2", lambda x: F.avg_pool3d(x, 2), T((1, 2, 4, 4, 4))),
        C(
            "padding_exclude_pad_ceil",
            lambda x: F.avg_pool3d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
            T((1, 2, 5, 4, 6)),
        ),
        C("divisor_override", lambda x: F.avg_pool3d(x, 2, divisor_override=3), T((1, 1, 4, 4, 4))),
        C(
            "ceil_include_pad",
            lambda x: F.avg_pool3d(x, 2, 2, 1, ceil_mode=True),
            T((1, 1, 3, 4, 5)),
        ),
        M("module_dynamic", lambda: nn.AvgPool3d(2), T((2, 1, 4, 4, 4)), dynamic=BATCH0),
    ],
    tolerances=POOL_TOL,
)


# ---- adaptive pooling ----------------------------------------------------------------------

CASES.add(
    "adaptive_avg_pool1d",
    [
        C("divides", lambda x: F.adaptive_avg_pool1d(x, 4), T((2, 3, 8))),
        C("to_one", lambda x: F.adaptive_avg_pool1d(x.transpose(1, 2), 1).flatten(1), T((1, 8, 6))),
        C("overlapping", lambda x: F.adaptive_avg_pool1d(x, 3), T((2, 3, 7))),
        C("float16", lambda x: F.adaptive_avg_pool1d(x, 5), T((2, 3, 8), f16)),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "adaptive_avg_pool2d",
    [
        C("divides", lambda x: F.adaptive_avg_pool2d(x, 2), T((2, 3, 8, 6))),
        C("global", lambda x: F.adaptive_avg_pool2d(x, 1), T((2, 3, 5, 7))),
        C("overlapping", lambda x: F.adaptive_avg_pool2d(x, (3, 4)), T((1, 2, 7, 10))),
        C("mixed_unbatched", lambda x: F.adaptive_avg_pool2d(x, (2, 3)), T((3, 8, 7))),
        C("float16", lambda x: F.adaptive_avg_pool2d(x, 3), T((1, 2, 7, 7), f16)),
        M("module_dynamic", lambda: nn.AdaptiveAvgPool2d((3, 3)), T((2, 3, 5, 6)), dynamic=BATCH0),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "adaptive_avg_pool3d",
    [
        C("divides", lambda x: F.adaptive_avg_pool3d(x, 2), T((1, 2, 4, 4, 6))),
        C("overlapping", lambda x: F.adaptive_avg_pool3d(x, (2, 3, 3)), T((1, 2, 5, 4, 7))),
        C("bfloat16", lambda x: F.adaptive_avg_pool3d(x, (3, 1, 2)), T((1, 2, 5, 3, 4), bf16)),
        M("module_dynamic", lambda: nn.AdaptiveAvgPool3d(3), T((2, 1, 5, 5, 5)), dynamic=BATCH0),
    ],
    tolerances=POOL_TOL,
)


# Adaptive max pooling is rewritten before decomposition (mlx_delegate/compiler/passes/adaptive_max_pool.py):
# divisible sizes into max_pool*_with_indices, others into an op of ours.
CASES.add(
    "adaptive_max_pool1d",
    [
        C("divides", lambda x: F.adaptive_max_pool1d(x, 4), T((2, 3, 8))),
        C(
            "overlapping_indices",
            lambda x: F.adaptive_max_pool1d(x, 3, return_indices=True),
            T((2, 3, 7), distinct=True),
        ),
        C("float16", lambda x: F.adaptive_max_pool1d(x, 5), T((2, 3, 8), f16)),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "adaptive_max_pool2d",
    [
        C(
            "divides_indices",
            lambda x: F.adaptive_max_pool2d(x, 2, return_indices=True),
            T((2, 3, 8, 6), distinct=True),
        ),
        C("global", lambda x: F.adaptive_max_pool2d(x, 1), T((2, 3, 5, 7))),
        C("overlapping", lambda x: F.adaptive_max_pool2d(x, (3, 4)), T((1, 2, 7, 10))),
        C(
            "overlapping_indices_unbatched",
            lambda x: F.adaptive_max_pool2d(x, (3, 2), return_indices=True),
            T((2, 7, 5), distinct=True),
        ),
        C("bfloat16", lambda x: F.adaptive_max_pool2d(x, 3), T((1, 2, 7, 7), bf16)),
        # (a Lambda: nn modules name their input `input`, which the rewrite pass's copy renames)
        C(
            "dynamic_batch",
            lambda x: F.adaptive_max_pool2d(x, (3, 3)),
            T((2, 3, 5, 6)),
            dynamic=BATCH0,
        ),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "adaptive_max_pool3d",
    [
        C("divides", lambda x: F.adaptive_max_pool3d(x, 2), T((1, 2, 4, 4, 6))),
        C(
            "overlapping_indices",
            lambda x: F.adaptive_max_pool3d(x, (2, 3, 3), return_indices=True),
            T((1, 2, 5, 4, 7), distinct=True),
        ),
        C(
            "dynamic_batch_indices",
            lambda x: F.adaptive_max_pool3d(x, 3, return_indices=True),
            T((2, 1, 5, 5, 5), distinct=True),
            dynamic=BATCH0,
        ),
    ],
    tolerances=POOL_TOL,
)


# ---- upsampling ---------------------------------------------------------------------------


def _resize(**kw):
    return lambda x: F.interpolate(x, **kw)


CASES.add(
    "upsample_nearest2d",
    [
        C("scale2", _resize(scale_factor=2), T((2, 3, 4, 5))),
        C("size", _resize(size=(7, 3)), T((1, 2, 4, 5))),
        C("fractional_scales", _resize(scale_factor=(1.5, 0.7)), T((1, 2, 4, 6))),
        C("uint8", _resize(scale_factor=3), T((1, 3, 2, 3), u8, 0, 255)),
        C("float16", _resize(size=(6, 6)), T((1, 2, 4, 4), f16)),
        M("module_dynamic", lambda: nn.Upsample(scale_factor=2), T((2, 3, 3, 3)), dynamic=BATCH0),
        # upsample_nearest2d.default: an output size, and scales that (given) set the index
        C("default_size", lambda x: torch.ops.aten.upsample_nearest2d(x, [7, 3]), T((1, 2, 4, 5))),
        C(
            "default_scales",
            lambda x: torch.ops.aten.upsample_nearest2d(x, [5, 9], 1.5, 2.0),
            T((2, 3, 4, 5)),
        ),
        C(
            "default_one_scale_uint8",
            lambda x: torch.ops.aten.upsample_nearest2d(x, [8, 6], None, 1.7),
            T((1, 2, 4, 4), u8, 0, 255),
        ),
    ],
)

CASES.add(
    "upsample_bilinear2d",
    [
        C("scale2", _resize(scale_factor=2, mode="bilinear"), T((2, 3, 4, 5))),
        C(
            "size_align_corners",
            _resize(size=(7, 3), mode="bilinear", align_corners=True),
            T((1, 2, 4, 5)),
        ),
        C("fractional_scales", _resize(scale_factor=(1.5, 0.6), mode="bilinear"), T((1, 2, 4, 6))),
        C(
            "downsample_align_corners",
            _resize(scale_factor=0.5, mode="bilinear", align_corners=True),
            T((1, 2, 6, 8)),
        ),
        C("float16", _resize(size=(6, 6), mode="bilinear"), T((1, 2, 4, 4), f16)),
        C(
            "bfloat16",
            _resize(scale_factor=2, mode="bilinear", align_corners=True),
            T((1, 2, 3, 3), bf16),
        ),
        M(
            "module_dynamic",
            lambda: nn.UpsamplingBilinear2d(scale_factor=2),
            T((2, 3, 3, 3)),
            dynamic=BATCH0,
        ),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "upsample_1d",
    [
        C("nearest_scale", _resize(scale_factor=2), T((2, 3, 5))),
        C("nearest_size", _resize(size=7), T((2, 3, 5))),
        C("linear_scale", _resize(scale_factor=2.5, mode="linear"), T((2, 3, 4))),
        C(
            "linear_size_align_corners",
            _resize(size=9, mode="linear", align_corners=True),
            T((2, 3, 4)),
        ),
        C("linear_float16", _resize(scale_factor=2, mode="linear"), T((1, 2, 5), f16)),
    ],
    tolerances=POOL_TOL,
)

CASES.add(
    "upsample_3d",
    [
        C("nearest_scale", _resize(scale_factor=2), T((1, 2, 2, 3, 3))),
        C("nearest_size", _resize(size=(3, 5, 4)), T((1, 2, 2, 3, 3))),
        C("trilinear_scale", _resize(scale_factor=2, mode="trilinear"), T((1, 2, 2, 3, 3))),
        C(
            "trilinear_size_align_corners",
            _resize(size=(3, 5, 4), mode="trilinear", align_corners=True),
            T((1, 2, 2, 3, 3)),
        ),
        M(
            "trilinear_dynamic",
            lambda: nn.Upsample(scale_factor=2, mode="trilinear"),
            T((2, 1, 2, 2, 3)),
            dynamic=BATCH0,
        ),
    ],
    tolerances=POOL_TOL,
)


# ---- pixel shuffle ------------------------------------------------------------------------

CASES.add(
    "pixel_shuffle",
    [
        C("factor2", lambda x: F.pixel_shuffle(x, 2), T((2, 8, 3, 3))),
        C("factor3_float16", lambda x: F.pixel_shuffle(x, 3), T((1, 9, 2, 2), f16)),
        C("unshuffle", lambda x: F.pixel_unshuffle(x, 2), T((2, 2, 4, 6))),
        M("module_dynamic", lambda: nn.PixelShuffle(2), T((2, 4, 3, 3)), dynamic=BATCH0),
        M("unshuffle_dynamic", lambda: nn.PixelUnshuffle(2), T((2, 1, 4, 4)), dynamic=BATCH0),
    ],
)


# ---- attention: (B, L, D) inputs and broadcast masks -------------------------------------

SDPA = F.scaled_dot_product_attention
ATTN_TOL = {f32: (1e-3, 1e-3), f16: (3e-2, 3e-2), bf16: (1e-1, 1e-1)}
Q3, KV3 = T((2, 4, 8)), T((2, 6, 8))
Q4, KV4 = T((2, 2, 4, 8)), T((2, 2, 6, 8))


def _bool_mask(q, k, v, m):
    return SDPA(q, k, v, attn_mask=m > -0.8)  # no row fully masked


def _additive_mask(q, k, v, m):
    return SDPA(q, k, v, attn_mask=m)


def _left_padded(q, k, v, m, masked_out=float("-inf")):
    """Batch row 1's first two queries see no key (left padding); PyTorch gives them 0."""
    sees = (m > -5.0) & (torch.arange(q.shape[-2]) >= 2)[:, None] | (torch.arange(q.shape[0]) == 0)[
        :, None, None, None
    ]
    mask = sees if masked_out is None else torch.where(sees, 0.0, masked_out).to(q.dtype)
    return SDPA(q, k, v, attn_mask=mask)


CASES.add(
    "scaled_dot_product_attention_masks",
    [
        C(
            "bool_mask_rows_seeing_no_key",
            lambda q, k, v, m: _left_padded(q, k, v, m, None),
            Q4,
            KV4,
            KV4,
            T((1, 1, 4, 6)),
        ),
        C("additive_mask_rows_seeing_no_key", _left_padded, Q4, KV4, KV4, T((1, 1, 4, 6))),
        C(
            "additive_mask_rows_seeing_no_key_float16",
            _left_padded,
            T((2, 2, 4, 8), f16),
            T((2, 2, 6, 8), f16),
            T((2, 2, 6, 8), f16),
            T((1, 1, 4, 6), f16),
        ),
        C("rank3", SDPA, Q3, KV3, KV3),
        C(
            "rank3_causal",
            lambda q, k, v: SDPA(q, k, v, is_causal=True),
            Q3,
            T((2, 4, 8)),
            T((2, 4, 8)),
        ),
        C("rank3_batched_mask", _additive_mask, Q3, KV3, KV3, T((2, 4, 6))),
        C("rank3_bool_mask_2d", _bool_mask, Q3, KV3, KV3, T((4, 6))),
        C("rank3_float16", SDPA, T((2, 4, 8), f16), T((2, 6, 8), f16), T((2, 6, 8), f16)),
        C(
            "rank3_dynamic_batch",
            SDPA,
            Q3,
            KV3,
            KV3,
            dynamic={0: {0: BATCH}, 1: {0: BATCH}, 2: {0: BATCH}},
        ),
        C("bool_mask_batch_1_l_s", _bool_mask, Q4, KV4, KV4, T((2, 1, 4, 6))),
        C("additive_mask_1_h_l_s", _additive_mask, Q4, KV4, KV4, T((1, 2, 4, 6))),
        C(
            "additive_mask_full_gqa",
            lambda q, k, v, m: SDPA(q, k, v, attn_mask=m, enable_gqa=True),
            T((2, 4, 4, 8)),
            KV4,
            KV4,
            T((2, 4, 4, 6)),
        ),
        C(
            "bool_mask_row_broadcast_bfloat16",
            _bool_mask,
            T((1, 2, 4, 8), bf16),
            T((1, 2, 6, 8), bf16),
            T((1, 2, 6, 8), bf16),
            T((1, 1, 1, 6)),
        ),
    ],
    tolerances=ATTN_TOL,
)
