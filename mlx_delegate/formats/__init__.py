"""The formats mlx-delegate reads and writes: the generated IR modules (from
schema/schema.fbs), the `.bin` tensor file of `mlxd-run` and ExecuTorch's external data
file. The lowest layer above the package's private helpers: it imports none of the others."""
