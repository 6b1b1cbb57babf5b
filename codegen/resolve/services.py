"""rpc_service declarations: their methods and the tables they exchange.

Input: a service's declaration; `Names` for its request and response types.
Output: a model.RpcService, or a located error.
"""

from __future__ import annotations

from .. import model as m
from .. import syntax as s
from ..diagnostics import SchemaError
from ..model import Location
from .attributes import declaration_fields, model_attributes
from .names import Entry, Names
from .types import unknown_type


def build_service(entry: Entry, names: Names) -> m.RpcService:
    decl: s.RpcServiceSyntax = entry.syntax
    methods = []
    seen: dict[str, Location] = {}
    for method in decl.methods:
        if method.name.text in seen:
            raise SchemaError.at(
                method.name.location, f"rpc method '{method.name.text}' already exists"
            )
        seen[method.name.text] = method.name.location
        request = rpc_table(method.request, names)
        response = rpc_table(method.response, names)
        methods.append(
            m.RpcMethod(
                name=method.name.text,
                request=request,
                response=response,
                attributes=model_attributes(method.attributes),
                doc=method.doc,
                location=method.name.location,
            )
        )
    return m.RpcService(**declaration_fields(decl), methods=tuple(methods))


def rpc_table(name: s.Name, names: Names) -> str:
    """flatc wants a table, and takes what it does not know yet for one (even
    a struct declared later). The name is never a scalar: `int` is a table
    called int."""
    entry = names.bound_entry(name)
    if entry is None:
        raise unknown_type(name)
    syntax = names.usable(entry).syntax
    pending = names.binding(name).pending
    if not isinstance(syntax, s.TableSyntax) and not (
        isinstance(syntax, s.StructSyntax) and pending
    ):
        raise SchemaError.at(name.location, "rpc request and response types must be tables")
    return entry.qualified
