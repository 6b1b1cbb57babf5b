"""Schema text -> syntax tree (codegen.syntax), and include resolution.

Lark parses with the LALR parser and its contextual lexer; a Transformer builds
the frozen syntax nodes. Doc comments (`///`) are not grammar tokens: a small
scanner over the text maps each run of doc comments to the position of the
token that follows it, which is how flatc attaches them too.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Optional, Sequence

import lark
from lark import Token, Transformer, v_args

from . import syntax as s
from .diagnostics import SchemaError
from .model import Location

GRAMMAR_PATH = Path(__file__).resolve().parent / "grammar.lark"
CACHE_VERSION = "1"  # bump when the parser options below change

# Lark terminal names, as a person would write them in a schema.
TOKEN_SPELLING = {
    "SEMICOLON": "';'",
    "COLON": "':'",
    "COMMA": "','",
    "DOT": "'.'",
    "EQUAL": "'='",
    "LPAR": "'('",
    "RPAR": "')'",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LSQB": "'['",
    "RSQB": "']'",
    "IDENT": "identifier",
    "SIGNED_IDENT": "signed identifier",
    "NUMBER": "number",
    "STRING": "string constant",
    "$END": "end of file",
}


@lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    """The schema parser, its LALR tables cached on disk between runs: every
    command line run would otherwise spend most of its parsing time building
    them. The cache is keyed on the grammar text and written atomically, so
    concurrent runs never read a half-written file."""
    grammar = GRAMMAR_PATH.read_text()
    key = hashlib.sha256((grammar + lark.__version__ + CACHE_VERSION).encode()).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"codegen-fbs-parser-{os.getuid()}-{key}.lark"
    try:
        with cache.open("rb") as f:
            return lark.Lark.load(f)
    except Exception:  # missing, stale or unreadable: rebuild it
        pass
    parser = _build_lark(grammar)
    try:
        with tempfile.NamedTemporaryFile("wb", dir=cache.parent, delete=False) as f:
            parser.save(f)
        os.replace(f.name, cache)
    except OSError:
        pass  # a read-only temp folder only costs speed
    return parser


def _build_lark(grammar: str) -> lark.Lark:
    # strict: shift/reduce conflicts and colliding terminals fail loudly at
    # construction (it needs the `interegular` package, a pinned dependency).
    return lark.Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        strict=True,
        propagate_positions=True,
        maybe_placeholders=True,
    )


def _spell(terminal: str) -> str:
    if terminal in TOKEN_SPELLING:
        return TOKEN_SPELLING[terminal]
    return f"'{terminal.lower()}'"  # keywords: TABLE -> 'table'


# ---------------------------------------------------------------- doc comments


@dataclass(frozen=True)
class DocComment:
    lines: tuple[str, ...]
    start: int  # offset of its first `///`


def scan_doc_comments(text: str, file: str, at_start: bool = True) -> dict[int, DocComment]:
    """Map the offset of each token preceded by `///` lines to those lines.

    Text after `///` keeps everything but one leading space. As in flatc, a
    doc comment needs a line break between it and the token before it (one
    inside a block comment does not count); at the start of the file none is
    needed, unless the file starts with a byte order mark (at_start false)."""
    docs: dict[int, DocComment] = {}
    pending: list[str] = []
    start = 0
    seen_newline = at_start
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            seen_newline = seen_newline or c == "\n"
            i += 1
        elif text.startswith("///", i):
            if not seen_newline:
                raise SchemaError.at(
                    _location(text, file, i),
                    "a documentation comment (///) must be on a line of its own",
                )
            end = _comment_end(text, i)
            if not pending:
                start = i
            body = _printable(text[i + 3 : end])
            pending.append(body[1:] if body.startswith(" ") else body)
            i = end
        elif text.startswith("//", i):
            i = _comment_end(text, i)
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            i = n if close < 0 else close + 2  # the parser reports it unterminated
        else:
            if pending:
                docs[i] = DocComment(tuple(pending), start)
                pending = []
            seen_newline = False
            i = _skip_token(text, i)
    return docs


def _comment_end(text: str, i: int) -> int:
    """End of a `//` comment: flatc ends it at a line feed or a carriage return."""
    match = re.compile(r"[\r\n]").search(text, i)
    return match.start() if match else len(text)


def _printable(text: str) -> str:
    """Bytes that are not UTF-8 (kept as surrogate escapes) shown as U+FFFD."""
    return re.sub(r"[\udc80-\udcff]", "\ufffd", text)


def _skip_token(text: str, i: int) -> int:
    if text[i] in "\"'":
        quote, j = text[i], i + 1
        while j < len(text) and text[j] not in quote + "\n":
            j += 2 if text[j] == "\\" else 1
        return j + 1
    if text[i].isalnum() or text[i] == "_":
        j = i
        while j < len(text) and (text[j].isalnum() or text[j] in "_."):
            j += 1
        return j
    return i + 1


def _location(text: str, file: str, offset: int) -> Location:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(file, line, column)


# ---------------------------------------------------------------- transformer


SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    '"': '"',
    "'": "'",
    "\\": "\\",
    "/": "/",
}
HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def _unquote(token: Token, location: Location) -> str:
    return _decode_string(token, location)[0]


def _decode_string(token: Token, location: Location) -> tuple[str, bool]:
    """A string constant's value and whether it is plain (no escapes, only
    printable ASCII), decoding escapes as flatc does: `\\xNN` is one byte,
    `\\uNNNN` a code point (surrogates only as a high-low pair), and the bytes
    must be UTF-8."""
    body = token[1:-1]
    out = bytearray()
    plain = True
    high: Optional[int] = None  # a high surrogate waiting for its low half
    i = 0
    while i < len(body):
        c = body[i]
        if c < " ":
            raise SchemaError.at(location, f"illegal character {c!r} in string constant")
        if c != "\\":
            if high is not None:
                raise SchemaError.at(location, "illegal Unicode sequence (unpaired high surrogate)")
            plain = plain and " " <= c <= "~"
            out += c.encode("utf-8", "surrogateescape")
            i += 1
            continue
        plain = False
        e = body[i + 1]
        if high is not None and e != "u":
            raise SchemaError.at(location, "illegal Unicode sequence (unpaired high surrogate)")
        if e in SIMPLE_ESCAPES:
            out += SIMPLE_ESCAPES[e].encode()
            i += 2
        elif e in "xu":
            width = 2 if e == "x" else 4
            digits = body[i + 2 : i + 2 + width]
            if len(digits) != width or not set(digits) <= HEX_DIGITS:
                raise SchemaError.at(location, f"invalid escape sequence in string: \\{e}{digits}")
            value = int(digits, 16)
            i += 2 + width
            if e == "x":
                out.append(value)
            elif 0xD800 <= value <= 0xDBFF:
                if high is not None:
                    raise SchemaError.at(
                        location, "illegal Unicode sequence (multiple high surrogates)"
                    )
                high = value
            elif 0xDC00 <= value <= 0xDFFF:
                if high is None:
                    raise SchemaError.at(
                        location, "illegal Unicode sequence (unpaired low surrogate)"
                    )
                out += chr(0x10000 + ((high & 0x3FF) << 10) + (value & 0x3FF)).encode()
                high = None
            else:
                out += chr(value).encode()
        else:
            raise SchemaError.at(location, f"unknown escape sequence in string: \\{e}")
    if high is not None:
        raise SchemaError.at(location, "illegal Unicode sequence (unpaired high surrogate)")
    try:
        return out.decode("utf-8"), plain
    except UnicodeDecodeError:
        raise SchemaError.at(location, "illegal UTF-8 sequence in string constant") from None


class _ToSyntax(Transformer):
    """Builds codegen.syntax nodes; namespaces are attached afterwards."""

    def __init__(self, file: str, docs: dict[int, DocComment]):
        super().__init__()
        self.file = file
        self.docs = docs

    def _loc(self, token: Token) -> Location:
        return Location(self.file, token.line, token.column)

    def _meta_loc(self, meta) -> Location:
        return Location(self.file, meta.line, meta.column)

    def _doc(self, meta) -> tuple[str, ...]:
        doc = self.docs.get(meta.start_pos)
        return doc.lines if doc else ()

    def _span(self, meta) -> s.Span:
        """From the doc comment before the construct, if any, to its end."""
        doc = self.docs.get(meta.start_pos)
        return s.Span(doc.start if doc else meta.start_pos, meta.end_pos)

    def _name(self, token: Token) -> s.Name:
        return s.Name(str(token), self._loc(token))

    # -- small pieces

    def start(self, items):
        return tuple(items)

    @v_args(meta=True)
    def dotted_name(self, meta, parts):
        return s.Name(".".join(parts), self._meta_loc(meta))

    @v_args(meta=True)
    def named_type(self, meta, children):
        return s.NamedType(children[0], self._meta_loc(meta))

    @v_args(meta=True)
    def vector_type(self, meta, children):
        return s.VectorType(children[0], self._meta_loc(meta))

    @v_args(meta=True)
    def array_type(self, meta, children):
        element, length = children
        return s.ArrayType(
            element, s.Literal("number", str(length), self._loc(length)), self._meta_loc(meta)
        )

    def number_value(self, children):
        token = children[0]
        return s.Literal("number", str(token), self._loc(token))

    def string_value(self, children):
        token = children[0]
        loc = self._loc(token)
        text, plain = _decode_string(token, loc)
        return s.Literal("string", text, loc, plain=plain)

    def function_value(self, children):
        function, argument = children
        loc = self._loc(function)
        return s.Literal("function", str(function)[:-1], loc, argument=argument)

    def ident_value(self, children):
        token = children[0]
        return s.Literal("ident", str(token), self._loc(token))

    @v_args(meta=True)
    def empty_vector_value(self, meta, children):
        return s.Literal("empty_vector", "[]", self._meta_loc(meta))

    def metadata(self, children):
        return tuple(a for a in children if a is not None)

    def attribute(self, children):
        name, value = children
        text = _unquote(name, self._loc(name)) if name.type == "STRING" else str(name)
        return s.AttributeSyntax(text, value, self._loc(name))

    def attribute_value(self, children):
        token = children[0]
        loc = self._loc(token)
        if token.type == "STRING":
            return s.Literal("string", _unquote(token, loc), loc)
        return s.Literal("number", str(token), loc)

    def _literal(self, token: Optional[Token]) -> Optional[s.Literal]:
        if token is None:
            return None
        return s.Literal("number", str(token), self._loc(token))

    # -- statements

    def include(self, children):
        keyword, path = children
        return s.Include(_unquote(path, self._loc(path)), self._loc(keyword))

    def native_include(self, children):
        keyword, path = children
        return s.NativeInclude(_unquote(path, self._loc(path)), self._loc(keyword))

    def namespace_decl(self, children):
        keyword, name = children
        parts = tuple(name.text.split(".")) if name is not None else ()
        return s.NamespaceDecl(parts, self._loc(keyword))

    def attribute_decl(self, children):
        keyword, name = children
        loc = self._loc(name)
        text = _unquote(name, loc) if name.type == "STRING" else str(name)
        return s.AttributeDecl(text, loc)

    def root_decl(self, children):
        keyword, name = children
        return s.RootType(name, (), name.location)

    def file_identifier_decl(self, children):
        keyword, value = children
        loc = self._loc(value)
        return s.FileIdentifier(_unquote(value, loc), loc)

    def file_extension_decl(self, children):
        keyword, value = children
        loc = self._loc(value)
        return s.FileExtension(_unquote(value, loc), loc)

    @v_args(meta=True)
    def json_object(self, meta, children):
        return s.JsonObject(self._meta_loc(meta))

    def json_pair(self, children):
        return None

    def json_value(self, children):
        return None

    # -- declarations

    def _declaration(self, cls, meta, keyword, name, attributes, **rest):
        return cls(
            name=self._name(name),
            namespace=(),
            attributes=attributes,
            doc=self._doc(meta),
            location=self._loc(name),
            file=self.file,
            span=self._span(meta),
            **rest,
        )

    @v_args(meta=True)
    def table_decl(self, meta, children):
        keyword, name, attributes, *fields = children
        return self._declaration(
            s.TableSyntax, meta, keyword, name, attributes, fields=tuple(fields)
        )

    @v_args(meta=True)
    def struct_decl(self, meta, children):
        keyword, name, attributes, *fields = children
        return self._declaration(
            s.StructSyntax, meta, keyword, name, attributes, fields=tuple(fields)
        )

    @v_args(meta=True)
    def field(self, meta, children):
        name, type_, default, attributes = children
        return s.FieldSyntax(
            self._name(name), type_, default, attributes, self._doc(meta), self._loc(name)
        )

    @v_args(meta=True)
    def enum_decl(self, meta, children):
        keyword, name, underlying, attributes, *values = children
        return self._declaration(
            s.EnumSyntax,
            meta,
            keyword,
            name,
            attributes,
            underlying=underlying,
            values=tuple(v for v in values if v is not None),
        )

    @v_args(meta=True)
    def enum_value(self, meta, children):
        name, value, attributes = children
        return s.EnumValueSyntax(
            self._name(name), self._literal(value), attributes, self._doc(meta), self._loc(name)
        )

    @v_args(meta=True)
    def union_decl(self, meta, children):
        keyword, name, attributes, *members = children
        return self._declaration(
            s.UnionSyntax,
            meta,
            keyword,
            name,
            attributes,
            members=tuple(m for m in members if m is not None),
        )

    @v_args(meta=True)
    def union_member(self, meta, children):
        alias, type_, value, attributes = children
        return s.UnionMemberSyntax(
            self._name(alias) if alias is not None else None,
            type_,
            self._literal(value),
            attributes,
            self._doc(meta),
            self._meta_loc(meta),
            self._span(meta),
        )

    @v_args(meta=True)
    def rpc_decl(self, meta, children):
        keyword, name, attributes, *methods = children
        return self._declaration(
            s.RpcServiceSyntax, meta, keyword, name, attributes, methods=tuple(methods)
        )

    @v_args(meta=True)
    def rpc_method(self, meta, children):
        name, request, response, attributes = children
        return s.RpcMethodSyntax(
            self._name(name), request, response, attributes, self._doc(meta), self._loc(name)
        )


# ---------------------------------------------------------------- one file


def parse_text(text: str, file: str, root: bool = False) -> s.SchemaFile:
    """Parse one schema's text; raises SchemaError for syntax errors.

    As in flatc, a byte order mark at the start is skipped, and the text of an
    included file ends at its first NUL character (a root schema with one is
    refused as binary)."""
    if "\0" in text and root:
        raise SchemaError.at(
            _location(text, file, text.index("\0")),
            "a schema must not contain a NUL byte (flatc takes it for a binary file)",
        )
    text = text.split("\0", 1)[0]
    bom = text.startswith("\ufeff")
    if bom:
        text = " " + text[1:]  # same columns, one blank for the parser
    docs = scan_doc_comments(text, file, at_start=not bom)
    if not _has_tokens(text):
        # flatc refuses a schema without a single declaration ("input file is empty").
        raise SchemaError.at(Location(file, 1, 1), "schema file is empty")
    try:
        tree = _lark().parse(text)
    except lark.UnexpectedInput as error:
        raise _syntax_error(error, text, file) from None
    try:
        statements = _ToSyntax(file, docs).transform(tree)
    except lark.exceptions.VisitError as error:
        # Lark wraps what a transformer callback raises (bad string escapes).
        if isinstance(error.orig_exc, SchemaError):
            raise error.orig_exc from None
        if isinstance(error.orig_exc, RecursionError):
            raise SchemaError.at(Location(file, 1, 1), "the schema is nested too deeply") from None
        raise
    except RecursionError:
        raise SchemaError.at(Location(file, 1, 1), "the schema is nested too deeply") from None
    statements = _attach_namespaces(statements)
    _check_includes_first(statements)
    return s.SchemaFile(file, statements)


def _has_tokens(text: str) -> bool:
    """Whether anything but whitespace and comments is in the text."""
    without_blocks = re.sub(r"/\*.*?(\*/|\Z)", " ", text, flags=re.S)
    return bool(re.sub(r"//[^\n\r]*", " ", without_blocks).strip())


def _syntax_error(error: lark.UnexpectedInput, text: str, file: str) -> SchemaError:
    if isinstance(error, lark.UnexpectedCharacters):
        offset = error.pos_in_stream
        location = _location(text, file, offset)
        if text.startswith("/*", offset):
            return SchemaError.at(location, "unterminated block comment: end of file in comment")
        if text[offset] in "\"'":
            return SchemaError.at(location, "unterminated string constant")
        return SchemaError.at(location, f"unexpected character {_describe(text[offset])}")
    if isinstance(error, lark.UnexpectedToken):
        token = error.token
        # The parser's own view of what it accepts here (the lexer's set can lag
        # a token behind, after a value of JSON data for one).
        accepted = (
            error.interactive_parser.accepts() if error.interactive_parser else error.expected
        )
        expected = ", ".join(sorted(_spell(t) for t in accepted or error.expected))
        if token.type == "$END":
            return SchemaError.at(
                _end_location(text, file), f"unexpected end of file, expected {expected}"
            )
        location = Location(file, token.line, token.column)
        return SchemaError.at(location, f"unexpected {token.value!r}, expected {expected}")
    return SchemaError.at(_end_location(text, file), "unexpected end of file")


def _end_location(text: str, file: str) -> Location:
    """Where a diagnostic about the end of the file points: just after its last
    character that is not a blank, so that the line shown is not empty."""
    return _location(text, file, len(text.rstrip()))


def _describe(c: str) -> str:
    if "\udc80" <= c <= "\udcff":
        return f"byte 0x{ord(c) - 0xDC00:02x} (not UTF-8)"
    if c.isprintable():
        return repr(c)
    return f"code {ord(c)}"


def _attach_namespaces(statements: tuple) -> tuple:
    """Give every declaration and root_type the namespace in effect where it appears."""
    namespace: tuple[str, ...] = ()
    out = []
    for statement in statements:
        if statement is None:
            continue
        if isinstance(statement, s.NamespaceDecl):
            namespace = statement.parts
        elif isinstance(statement, (s.DeclarationSyntax, s.RootType)):
            statement = replace(statement, namespace=namespace)
        out.append(statement)
    return tuple(out)


def _check_includes_first(statements: tuple) -> None:
    """flatc reads `include` and `native_include` only before everything else."""
    seen_other = False
    for statement in statements:
        if isinstance(statement, (s.Include, s.NativeInclude)):
            if seen_other:
                keyword = "include" if isinstance(statement, s.Include) else "native_include"
                raise SchemaError.at(
                    statement.location, f"{keyword} must come before all other declarations"
                )
        else:
            seen_other = True


# ---------------------------------------------------------------- includes


def parse_schema(
    path: str | Path, include_dirs: Sequence[str | Path] = (), root_text: Optional[str] = None
) -> s.SchemaSyntax:
    """Parse the root schema and, depth first, every file it includes, once each.

    An include is looked up in the including file's folder, then in each of
    include_dirs in order, then (as flatc does) in the root schema's folder.
    An include cycle is cut where it closes, as flatc's include guard does: a
    file already being parsed is not entered again. `root_text`, when given,
    is read as the root schema's text instead of the file's (a schema about to
    be written)."""
    root = str(path)
    loader = _IncludeLoader([Path(d) for d in include_dirs] + [Path(root).parent], root_text)
    loader.load(Path(root), root, stack=[], via=None)
    return s.SchemaSyntax(root, tuple(loader.ordered))


class _IncludeLoader:
    """Files are told apart as flatc tells them apart: by file name (without
    its folder) and content, so two copies of a file are one file."""

    def __init__(self, include_dirs: list[Path], root_text: Optional[str] = None):
        self.include_dirs = include_dirs
        self.root_text = root_text
        self.ordered: list[s.SchemaFile] = []  # post-order: includes first
        self.done: set[tuple[str, str]] = set()

    def load(
        self, path: Path, display: str, stack: list[tuple[str, str]], via: Optional[s.Include]
    ) -> None:
        try:
            # Bytes that are not UTF-8 are kept as surrogate escapes: flatc
            # allows them in comments and refuses them anywhere else.
            if via is None and self.root_text is not None:
                text = self.root_text
            else:
                text = path.read_bytes().decode("utf-8", "surrogateescape")
        except OSError as error:
            where = via.location if via else None
            raise SchemaError.at(where, f"cannot read schema {display}: {error}") from None
        key = (path.name, text)
        if key in stack or key in self.done:
            return
        parsed = parse_text(text, display, root=via is None)
        stack.append(key)
        for include in parsed.includes:
            found = self.find(include, path.parent)
            self.load(found, os.path.normpath(found), stack, include)
        stack.pop()
        self.done.add(key)
        self.ordered.append(parsed)

    def find(self, include: s.Include, including_dir: Path) -> Path:
        folders = list(dict.fromkeys([including_dir, *self.include_dirs]))
        for folder in folders:
            candidate = folder / include.path
            if candidate.is_file():
                return candidate
        searched = ", ".join(str(d) for d in folders)
        raise SchemaError.at(
            include.location, f"cannot find included file {include.path!r} (searched {searched})"
        )
