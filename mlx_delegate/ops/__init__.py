"""Op handlers, one module per family; importing this package registers them."""

from . import (
    creation,
    elementwise,
    indexing,
    nn,
    patterns,
    pooling,
    reductions,
    shape,
    values,
)  # noqa: F401
