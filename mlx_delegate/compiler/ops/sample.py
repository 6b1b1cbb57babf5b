"""The LLM sampler's custom op, `mlx_delegate::sample` (defined with its eager
meaning in mlx_delegate/llm/sampling.py), lowered to one SampleNode: the
plugin reads the temperature, an input already in host memory, and runs
either the argmax or the top-p sampler, never both."""

from __future__ import annotations

from torch.fx import Node

from ..builder import HandlerRegistry
from ..builder.emitter import Emitter
from ...formats.ir import schema as ir

HANDLERS = HandlerRegistry()

# Registered by name: the op exists once mlx_delegate.llm.sampling is imported,
# which building the model that calls it did; the compiler need not import it.
SAMPLE = "mlx_delegate::sample"


@HANDLERS.register([SAMPLE])
def sample(b: Emitter, node: Node) -> None:
    logits, temperature, top_p, uniform = node.args[:4]
    b.emit(
        ir.SampleNode(
            logits=b.tensor_slot(logits).tid,
            temperature=b.tensor_slot(temperature).tid,
            top_p=b.tensor_slot(top_p).tid,
            uniform=b.tensor_slot(uniform).tid,
            out=b.out(node).tid,
        )
    )
