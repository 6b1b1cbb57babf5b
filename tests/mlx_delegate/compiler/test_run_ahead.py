"""The next call a program predicts (mlx_delegate/compiler/run_ahead.py): asked for by
input name through a compile spec, resolved to the delegate's positions."""

from __future__ import annotations

import pytest

from mlx_delegate.formats.ir import schema as ir
from mlx_delegate.compiler.run_ahead import RunAhead

DECODE = RunAhead(fed=(("tokens", 0),), advanced=("input_pos",))
INPUTS = ["tokens", "input_pos", "temperature", "top_p", "uniform"]


def test_the_compile_spec_carries_it_whole():
    assert RunAhead.from_compile_specs([DECODE.compile_spec()]) == DECODE
    assert RunAhead.from_compile_specs([]) is None


def test_names_resolve_to_the_delegates_positions():
    table = DECODE.resolve(["temperature", *INPUTS[:2]], num_outputs=1)
    assert table == ir.RunAhead(fed_inputs=[1], fed_from_outputs=[0], advanced_inputs=[2])


def test_a_delegate_without_every_named_input_predicts_nothing():
    """A method lowered in parts: no part's next call is the method's."""
    assert DECODE.resolve(["tokens", "temperature"], num_outputs=1) is None


def test_an_output_the_delegate_lacks_is_an_error():
    with pytest.raises(ValueError, match="fed from output 2, the delegate has 1"):
        RunAhead(fed=(("tokens", 2),)).resolve(INPUTS, num_outputs=1)
