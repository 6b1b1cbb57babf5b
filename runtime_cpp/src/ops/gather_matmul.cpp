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

}  // namespace

void exec_gather_mm(const GatherMMNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out, mx::gather_mm(st.tensor(n.a), st.tensor(n.b),
                                     gather_indices(n.lhs_indices, st, s),
                                     gather_indices(n.rhs_indices, st, s), n.sorted_indices, s));
}

// The weight stays packed, as in exec_quantized_linear: MLX dequantizes each
// expert's matrix group by group inside the product.
void exec_gather_qmm(const GatherQMMNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out,
                mx::gather_qmm(st.tensor(n.x), st.tensor(n.w), st.tensor(n.scales),
                               st.tensor(n.biases), gather_indices(n.lhs_indices, st, s),
                               gather_indices(n.rhs_indices, st, s), n.transpose, n.group_size,
                               n.bits, "affine", std::nullopt, n.sorted_indices, s));
}

}  // namespace mlxd
