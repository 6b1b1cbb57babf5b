"""MLX's affine quantization, as the IR's quantized ops carry it (schema.fbs's
QuantizedMatmulNode): the group sizes and bit widths its kernels take. Here,
apart from the compiler's handlers, so that the command lines can offer them
without importing the exporter."""

GROUP_SIZES = (32, 64, 128)  # MLX's affine group sizes
# MLX's affine bit widths, less 1 bit: its CPU kernels take it, its CUDA
# quantized_matmul not ("1-bit quantization is not supported", MLX 0.32.4 on an H100)
BITS = (2, 3, 4, 5, 6, 8)
