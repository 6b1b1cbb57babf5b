"""Op handlers, one module per family; importing this package registers them."""

from . import (
    creation,
    declared,
    elementwise,
    indexing,
    nn,
    patterns,
    pooling,
    reductions,
    shape,
    values,
)  # noqa: F401
