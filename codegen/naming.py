"""Naming rules as data: case conversions and per-language keyword tables."""

from __future__ import annotations

import keyword
import re

# flatc appends "_" to a C++ keyword used as a name; we must use the same
# accessor names as its generated header.
CPP_KEYWORDS = frozenset(
    """alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t
    char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue
    co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit
    export extern false float for friend goto if inline int long mutable namespace new noexcept
    not not_eq nullptr operator or or_eq private protected public register reinterpret_cast
    requires return short signed sizeof static static_assert static_cast struct switch template
    this thread_local throw true try typedef typeid typename union unsigned using virtual void
    volatile wchar_t while xor xor_eq""".split()
)
PYTHON_KEYWORDS = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist)


def cpp_name(name: str) -> str:
    return f"{name}_" if name in CPP_KEYWORDS else name


def snake_case(name: str) -> str:
    """`ScaledDotProductAttention` -> `scaled_dot_product_attention`, `ArgMax` -> `arg_max`."""
    name = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", name)
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return name.lower()


def upper_snake_case(name: str) -> str:
    return snake_case(name).upper()


def schema_stem(path: str) -> str:
    """`schema/schema.fbs` -> `schema`: the name outputs of a schema are named after."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return name[: -len(".fbs")] if name.endswith(".fbs") else name
