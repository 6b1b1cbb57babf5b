"""The host bindings: where the host library is and how it loads (`_native`), the C
functions of the host and delegate libraries (`c_api`), and the backend registry
(`backends`). With `mlx_delegate.runtime` (the ExecuTorch runtime API) the runtime layer:
it imports the formats, never the compiler. Importing it loads nothing: the host library
loads on first use."""
