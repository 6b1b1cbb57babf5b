// Matrix products with matrix-level gather: the expert layers of
// mixture-of-experts models, whose weights are read in place, one expert
// matrix per row of the index, instead of being copied per token.
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

namespace {

// MLX indexes the batch with unsigned 32-bit indices; expert ids arrive as
// int64 from PyTorch (never negative: they come out of a top-k).
std::optional<mx::array> gather_indices(const std::optional<Tid>& tid, ExecutionState& st,
                                        StreamOrDevice s) {
  if (!tid) return std::nullopt;
  const mx::array& indices = st.tensor(*tid);
  if (!mx::issubdtype(indices.dtype(), mx::integer)) {
    throw ExecutionError("gather matmul: indices must be integers");
  }
  return mx::astype(indices, mx::uint32, s);
}

// MLX 0.32's CPU gather_mm multiplies float32 only ("[GatherMM::eval]
// Currently only supports float32"); its GPU kernels take half precision. On
// the CPU, half-precision experts are widened whole for each call (once per
// expert, not per token as a gather-then-bmm would).
bool cpu_needs_float32(const mx::array& a, StreamOrDevice s) {
  return a.dtype() != mx::float32 && mx::to_stream(s).device.type == mx::Device::DeviceType::cpu;
}

}  // namespace

void exec_gather_mm(const GatherMMNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& a = st.tensor(n.a);
  const mx::array& b = st.tensor(n.b);
  auto lhs = gather_indices(n.lhs_indices, st, s);
  auto rhs = gather_indices(n.rhs_indices, st, s);
  if (cpu_needs_float32(a, s)) {
    // Products in float32, rounded once to the operands' dtype.
    mx::array product = mx::gather_mm(mx::astype(a, mx::float32, s), mx::astype(b, mx::float32, s),
                                      lhs, rhs, n.sorted_indices, s);
    st.set_tensor(n.out, mx::astype(product, a.dtype(), s));
    return;
  }
  st.set_tensor(n.out, mx::gather_mm(a, b, lhs, rhs, n.sorted_indices, s));
}

// The weight stays packed, as in exec_quantized_linear: MLX dequantizes each
// expert's matrix group by group inside the product.
void exec_gather_qmm(const GatherQMMNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(
      n.out, mx::gather_qmm(st.tensor(n.x), st.tensor(n.w), st.tensor(n.scales),
                            st.tensor(n.biases), gather_indices(n.lhs_indices, st, s),
                            gather_indices(n.rhs_indices, st, s), n.transpose, n.group_size, n.bits,
                            "affine", std::nullopt, n.sorted_indices, s));
}

}  // namespace mlxd
