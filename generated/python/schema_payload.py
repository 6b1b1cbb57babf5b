# generated from schema/schema.fbs by templates/ir/payload.py.j2, do not edit
"""The delegate payload's header (`PayloadHeader` in the schema): its layout as a
`struct` format, magic and alignment, and the id of the delegate backend that
receives it. The parser is mlx_delegate/compiler/serialization.py."""

import struct

BACKEND_ID = "MLXDelegateBackend"
MAGIC = b"MLX0"
ALIGNMENT = 16
HEADER = struct.Struct("<I4sQQ")
HEADER_SIZE = 24
FIELDS = ("zero", "magic", "data_offset", "data_size")
