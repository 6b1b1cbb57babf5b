"""Graph passes over a `LoweredProgram` (IR nodes over logical slots), run by
the builder between lowering and numbering. Each pass rewrites the program in
place and keeps its meaning; `DEFAULT_PASSES` is the order the compiler uses."""

from .casts import collapse_casts, skip_index_casts
from .cse import eliminate_common_subexpressions
from .dead_code import remove_dead_code
from .join_products import join_sibling_products
from .noops import remove_noops
from .reinplace import write_buffers_in_place
from .views import collapse_views

# Collapsing first (it can leave identity transposes and same-dtype casts for
# no-op removal); CSE then sees the simplified forms, and leaves one slot for
# an input that products read (so their joining finds them as siblings); dead
# code last, after every pass that leaves unread results behind (the joined
# products' own weights).
DEFAULT_PASSES = (
    collapse_views,
    collapse_casts,
    skip_index_casts,
    remove_noops,
    eliminate_common_subexpressions,
    join_sibling_products,
    write_buffers_in_place,
    remove_dead_code,
)

__all__ = [
    "DEFAULT_PASSES",
    "collapse_casts",
    "collapse_views",
    "eliminate_common_subexpressions",
    "join_sibling_products",
    "remove_dead_code",
    "remove_noops",
    "skip_index_casts",
    "write_buffers_in_place",
]
