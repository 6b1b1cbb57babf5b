"""The third-party lines our commands drop, and nothing else (mlx_delegate/_quiet.py).

The lines as the libraries print them; the commands' stderr is checked end to end in
test_main.py (`python -m mlx_delegate inspect`) and llm/test_generate.py (`llm export`)."""

from __future__ import annotations

import logging
import warnings

import pytest

from mlx_delegate import _quiet

TORCHAO_LINES = [
    "Failed to load /venv/lib/python3.11/site-packages/torchao/_C_mxfp8.cpython-310-x86_64"
    "-linux-gnu.so: Could not load this library: /venv/lib/python3.11/site-packages/torchao"
    "/_C_mxfp8.cpython-310-x86_64-linux-gnu.so",
    "Failed to load /venv/lib/python3.11/site-packages/torchao/_C_cutlass_90a.abi3.so: Could "
    "not load this library: /venv/lib/python3.11/site-packages/torchao/_C_cutlass_90a.abi3.so",
]
PYTREE_FORMAT = (
    "%s is an Enum subclass and is now natively supported by torch.compile as an opaque value "
    "type. Calling register_constant() on Enum subclasses is deprecated and will be an error in "
    "a future release."
)
LEAF_SPEC = (
    "`isinstance(treespec, LeafSpec)` is deprecated, use `isinstance(treespec, TreeSpec) and "
    "treespec.is_leaf()` instead."
)
RAW_SYMINT = (
    "Raw SymInt value (s27) passed as argument to Graph.create_node(op='call_function', "
    "target=<function _make_node_sizes_strides.<locals>.sizes_strides_user at 0x7ff67e5887c0>). "
    "Use create_*_node() helpers for tensor metadata queries or materialize_symints() for "
    "general symbolic expressions."
)


class Collect(logging.Handler):
    def __init__(self):
        super().__init__()
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


@pytest.fixture
def shown_on():
    """shown_on(logger, *records) -> the messages that reach a handler of `logger`."""
    _quiet.install()
    attached = []

    def shown(name: str, *records: tuple) -> list[str]:
        collect = Collect()
        logging.getLogger(name).addHandler(collect)
        attached.append((name, collect))
        for record in records:
            logging.getLogger(name).warning(*record)
        return collect.messages

    yield shown
    for name, collect in attached:
        logging.getLogger(name).removeHandler(collect)


def test_torchao_failing_to_load_its_cuda_kernels_is_dropped(shown_on):
    other = "Failed to load /venv/site-packages/torchao/_C_cpu_kernels.so: undefined symbol"
    unrelated = "Skipping import of cpp extensions due to incompatible torch version."
    shown = shown_on("torchao", *[(line,) for line in TORCHAO_LINES], (other,), (unrelated,))
    assert shown == [other, unrelated]


def test_pytree_enum_deprecation_is_dropped(shown_on):
    unrelated = "some other pytree warning about %s"
    shown = shown_on(
        "torch.utils._pytree",
        (PYTREE_FORMAT, "<enum 'KernelPreference'>"),
        (PYTREE_FORMAT, "<enum 'ScaleCalculationMode'>"),
        (unrelated, "<enum 'KernelPreference'>"),
    )
    assert shown == ["some other pytree warning about <enum 'KernelPreference'>"]


def test_the_same_message_on_another_logger_is_shown(shown_on):
    shown = shown_on("torchao.quantization", (TORCHAO_LINES[0],))
    assert shown == [TORCHAO_LINES[0]]


def shown_warnings(*warns: tuple) -> list[str]:
    """The messages of the warnings that come through, each given as warn_explicit's
    (message, category, module)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # beneath _quiet's filters, which go in front
        _quiet.install()
        for message, category, module in warns:
            warnings.warn_explicit(message, category, f"{module}.py", 1, module=module)
    return [str(w.message) for w in caught]


def test_torch_export_deprecations_are_dropped_and_others_shown():
    unrelated = "`foo` is deprecated, use `bar` instead."
    shown = shown_warnings(
        (LEAF_SPEC, FutureWarning, "copyreg"),
        (LEAF_SPEC, FutureWarning, "executorch.exir.program._program"),
        (RAW_SYMINT, UserWarning, "torch.fx.proxy"),
        (unrelated, FutureWarning, "copyreg"),
        (LEAF_SPEC, DeprecationWarning, "copyreg"),  # another category
        (RAW_SYMINT, UserWarning, "mlx_delegate.compiler.passes.lowered"),  # raised by our code
    )
    assert shown == [unrelated, LEAF_SPEC, RAW_SYMINT]


def test_install_twice_adds_nothing():
    _quiet.install()
    log_filters = [list(logging.getLogger(line.logger).filters) for line in _quiet.LOG_LINES]
    warning_filters = list(warnings.filters)
    _quiet.install()
    assert [logging.getLogger(line.logger).filters for line in _quiet.LOG_LINES] == log_filters
    assert warnings.filters == warning_filters
