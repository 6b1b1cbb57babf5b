"""Op tests of control flow: `torch.cond` (both branches taken across the
configurations, nested, with parameters and several results) and
`while_loop` (counted, data-dependent, permuting its state, with a
loop-invariant input), `scan` (several carries and outputs, reversed, with an
additional input) and `map`."""

from __future__ import annotations

import torch
from torch import nn
from torch._higher_order_ops.map import map as torch_map
from torch._higher_order_ops.scan import scan
from torch._higher_order_ops.while_loop import while_loop

from .op_spec import C, LONG, M, T, Cases, f32, i64

CASES = Cases()  # this module's op tests

POSITIVE = T((3, 4), f32, 0.5, 2.0)
NEGATIVE = T((3, 4), f32, -2.0, -0.5)


def _sum_is_positive(x, y):
    return torch.cond(x.sum() > 0, lambda a, b: a + b * 2, lambda a, b: (a - b).abs(), (x, y))


def _two_results(x, y):
    """Both branches produce two results; the else branch copies an operand (export refuses aliasing)."""
    return torch.cond(
        x.mean() > 0,
        lambda a, b: (a * b, a.exp()),
        lambda a, b: (b.clone(), a.sin()),
        (x, y),
    )


def _nested(x, y):
    inner = lambda a, b: torch.cond(b.sum() > 0, lambda p, q: p * q, lambda p, q: p - q, (a, b))
    return torch.cond(x.sum() > 0, inner, lambda a, b: a + b, (x, y))


def _between_temps(x, y):
    """Temps live across the cond (`kept`) and feed it (`doubled`): their slots
    must not be shared with the branches' temps."""
    kept, doubled = x.exp(), y * 2
    (chosen,) = torch.cond(
        doubled.sum() > 0, lambda a, b: (a * b + 1,), lambda a, b: (a - b.sin(),), (x, doubled)
    )
    return chosen * kept + doubled


class _LinearBranches(nn.Module):
    """Branches that use parameters (lifted into the cond's operands)."""

    def __init__(self):
        super().__init__()
        self.up = nn.Linear(4, 4)
        self.down = nn.Linear(4, 4)

    def forward(self, x):
        return torch.cond(x.sum() > 0, lambda a: self.up(a).relu(), lambda a: self.down(a), (x,))


CASES.add(
    "cond",
    [
        C("then", _sum_is_positive, POSITIVE, T((3, 4))),
        C("else", _sum_is_positive, NEGATIVE, T((3, 4))),
        C("two_results_then", _two_results, POSITIVE, T((3, 4))),
        C("two_results_else", _two_results, NEGATIVE, T((3, 4))),
        C("nested_then_then", _nested, POSITIVE, T((3, 4), f32, 0.5, 2.0)),
        C("nested_then_else", _nested, POSITIVE, T((3, 4), f32, -2.0, -0.5)),
        C("nested_else", _nested, NEGATIVE, T((3, 4))),
        C("temps_around_then", _between_temps, T((3, 4)), POSITIVE),
        C("temps_around_else", _between_temps, T((3, 4)), NEGATIVE),
        M("parameters_then", _LinearBranches, POSITIVE),
        M("parameters_else", _LinearBranches, NEGATIVE),
    ],
)


def _counted(x):
    """Doubles `x` three times, counting in an int64 state tensor."""
    start = torch.zeros((), dtype=torch.int64)
    return while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2), (start, x))


def _until_large(x):
    """A trip count that depends on the data: doubles until the sum passes 100."""
    (result,) = while_loop(lambda a: a.abs().sum() < 100, lambda a: (a * 2,), (x,))
    return result


def _swapping(x, y, n):
    """The body permutes its state: (a, b) -> (b, a + b), `n` times."""
    return while_loop(
        lambda i, a, b: i < n.sum(), lambda i, a, b: (i + 1, b.clone(), a + b), (n * 0, x, y)
    )


def _with_invariant(x, step):
    """The body reads a tensor from outside the loop (an additional input)."""
    start = torch.zeros((), dtype=torch.int64)
    return while_loop(lambda i, a: i < 4, lambda i, a: (i + 1, a + step), (start, x))


CASES.add(
    "while_loop",
    [
        C("counted", _counted, T((3, 4))),
        C("until_large", _until_large, T((3, 4), f32, 0.5, 2.0)),
        C("swapping_0", _swapping, T((2, 3)), T((2, 3)), T((), i64, values=0)),
        C("swapping_5", _swapping, T((2, 3)), T((2, 3)), T((), i64, values=5)),
        C("invariant_input", _with_invariant, T((3, 4)), T((4,))),
    ],
)


def _cumulative_sum(xs):
    """The running sum of the rows of `xs`: the final sum and every partial one."""

    def combine(total, x):
        total = total + x
        return total, total.clone()

    return scan(combine, torch.zeros_like(xs[0]), xs)


def _two_carries(xs, ys):
    """Two carries of different shapes read two xs; two per-step outputs, one of
    them a 0-d tensor (stacked to 1-D)."""

    def combine(carry, x):
        (a, b), (xa, xb) = carry, x
        return (a + xa, b * xb.sigmoid()), (a * 2, (b + xb).sum())

    return scan(combine, (torch.zeros_like(xs[0]), torch.ones_like(ys[0])), (xs, ys))


def _reverse(xs):
    """From the last row to the first: each step sees the sum of the later rows."""

    def combine(total, x):
        return total + x, total * x

    return scan(combine, torch.zeros_like(xs[0]), xs, reverse=True)


def _scan_closure(xs, weight):
    """The combine function reads a tensor from outside (an additional input)."""

    def combine(h, x):
        h = torch.tanh(h @ weight + x)
        return h, h.clone()

    return scan(combine, torch.zeros_like(xs[0]), xs)


CASES.add(
    "scan",
    [
        C("cumulative_sum", _cumulative_sum, T((5, 3))),
        C("two_carries", _two_carries, T((4, 3)), T((4, 2))),
        C("reverse", _reverse, T((6, 2, 3))),
        C("additional_input", _scan_closure, T((5, 4)), T((4, 4))),
        # A dynamic length is refused: the scan runs outside the delegate.
        C(
            "dynamic_length_outside",
            _cumulative_sum,
            T((5, 3)),
            dynamic={0: {0: LONG}},
            fallback=("scan",),
        ),
    ],
)


def _map_elementwise(xs):
    return torch_map(lambda x: x.sin() * 2 + 1, xs)


def _map_closure(xs, y):
    """The mapped function reads `y` from outside (an additional input) and has two results."""
    return torch_map(lambda x: (x @ y, (x * x).sum(0)), xs)


CASES.add(
    "map",
    [
        C("elementwise", _map_elementwise, T((4, 3))),
        C("additional_input", _map_closure, T((3, 2, 4)), T((4, 5))),
        C(
            "dynamic_length_outside",
            _map_elementwise,
            T((4, 3)),
            dynamic={0: {0: LONG}},
            delegates=0,
            fallback=("map_impl",),
        ),
    ],
)
