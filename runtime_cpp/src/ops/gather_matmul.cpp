// Matrix products with matrix-level gather: the expert layers of
// mixture-of-experts models, whose weights are read in place, one expert
// matrix per row of the index, instead of being copied per token.
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

namespace {

// MLX indexes the batch with unsigned 32-bit indices. Expert ids come out of a
// top-k (never negative): as MLX's own uint32 positions where the compiler
// skipped PyTorch's int64 cast (passes/lowered/casts.py), else as int64.
std::optional<mx::array> gather_indices(const std::optional<Tid>& tid, ExecutionState& st,
                                        StreamOrDevice s) {
  if (!tid) return std::nullopt;
  const mx::array& indices = st.tensor(*tid);
  if (!mx::issubdtype(indices.dtype(), mx::integer)) {
    throw ExecutionError("gather matmul: indices must be integers");
  }
  if (std::optional<mx::array> origin = unsigned_origin(indices, s)) return *origin;
  return mx::astype(indices, mx::uint32, s);
}

// MLX 0.32's CPU gather_mm multiplies float32 only ("[GatherMM::eval]
// Currently only supports float32"): on the CPU, half-precision experts are
// widened whole for each call (once per expert, not per token as a
// gather-then-bmm would).
mx::array widened_gather_mm(const mx::array& a, const mx::array& b, std::optional<mx::array> lhs,
                            std::optional<mx::array> rhs, bool sorted, StreamOrDevice s) {
  bool widen = widens_on_cpu(a, s);
  mx::array product =
      mx::gather_mm(widened(a, widen, s), widened(b, widen, s), lhs, rhs, sorted, s);
  return narrowed(product, a.dtype(), widen, s);
}

// From this many (token, expert) rows on, the rows are sorted by expert before
// the product and put back after: consecutive rows then share their expert's
// matrix. On an H100 (MLX 0.32.4, bf16, 128 experts of 2048 x 768) the sorted
// kernel overtakes the row-by-row one between 512 rows (0.63 ms against 0.80
// with the sorts) and 1024 (1.10 against 0.83), and is 3.7 times faster at
// 4096 rows (a 512-token prefill, top-8); on this CPU, where each row is one
// sgemm, it is 2.2 times faster at 1024 rows (the expert's matrix stays in
// cache). Decode steps, a few rows, are not sorted.
constexpr int64_t kSortFromRows = 1024;

// The compiler's two forms of the experts (mlx_delegate/compiler/ops/experts.py),
// nothing gathered on the left: a row-matrix of `a` per index (a (S, M, K), rhs
// (S,)), or a token's row-matrix for each of its k experts (a (T, 1, M, K), rhs
// (T, k)). Either as a row-matrix per index, when there are enough to sort.
std::optional<std::pair<mx::array, mx::array>> rows_to_sort(const mx::array& a,
                                                            const std::optional<mx::array>& lhs,
                                                            const std::optional<mx::array>& rhs,
                                                            bool sorted, StreamOrDevice s) {
  if (sorted || lhs || !rhs || rhs->size() < static_cast<size_t>(kSortFromRows)) {
    return std::nullopt;
  }
  if (rhs->ndim() == 1 && a.ndim() == 3 && a.shape(0) == rhs->shape(0)) {
    return std::pair{a, *rhs};
  }
  if (rhs->ndim() == 2 && a.ndim() == 4 && a.shape(0) == rhs->shape(0) && a.shape(1) == 1) {
    int rows = static_cast<int>(rhs->size());
    mx::array each = mx::broadcast_to(a, {a.shape(0), rhs->shape(1), a.shape(2), a.shape(3)}, s);
    return std::pair{mx::reshape(each, {rows, a.shape(2), a.shape(3)}, s),
                     mx::reshape(*rhs, {rows}, s)};
  }
  return std::nullopt;
}

// gather_mm, its rows sorted by expert first when there are enough to sort.
mx::array gather_product(const mx::array& a, const mx::array& b, std::optional<mx::array> lhs,
                         std::optional<mx::array> rhs, bool sorted, StreamOrDevice s) {
  auto sortable = rows_to_sort(a, lhs, rhs, sorted, s);
  if (!sortable) return widened_gather_mm(a, b, lhs, rhs, sorted, s);
  auto& [rows, experts] = *sortable;
  mx::array order = mx::argsort(experts, 0, s);
  mx::array product = widened_gather_mm(mx::take(rows, order, 0, s), b, std::nullopt,
                                        mx::take(experts, order, 0, s), /*sorted=*/true, s);
  product = mx::take(product, mx::argsort(order, 0, s), 0, s);
  // in the shape of the unsorted product: (T, k, M, N) for the broadcast form
  mx::Shape shape = rhs->shape();
  shape.insert(shape.end(), product.shape().end() - 2, product.shape().end());
  return mx::reshape(product, shape, s);
}

// A prompt's experts on CUDA: MLX's gather_qmm there runs a product per (token,
// expert) row, a matrix tile for one row each. Dequantized, the stack takes
// gather_mm over rows sorted by expert: 3.28 against 7.88 ms a layer for 4096
// rows (a 512-token prompt, top 8) of Qwen3-30B-A3B's experts in int4 on an
// H200 (bench/gpu_moe_prompt.py), waiting for the device a layer behind.
// Without a wait, every layer's dequantized stacks (1.2 GB there) live until
// the device has run the whole prompt: the step asks for one. Decode steps stay
// packed.
bool dequantizes_first(const GatherQMMNode& n, const mx::array& x,
                       const std::optional<mx::array>& lhs, const std::optional<mx::array>& rhs,
                       StreamOrDevice s) {
  return !n.sorted_indices && !lhs && rhs && rhs->size() >= static_cast<size_t>(kSortFromRows) &&
         dequantizes_on_cuda(n.mode, n.transpose, x, s);
}

}  // namespace

void exec_gather_mm(const GatherMMNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out,
                gather_product(st.tensor(n.a), st.tensor(n.b), gather_indices(n.lhs_indices, st, s),
                               gather_indices(n.rhs_indices, st, s), n.sorted_indices, s));
}

// The weight stays packed, as in exec_quantized_linear: MLX dequantizes each
// expert's matrix group by group inside the product (except a prompt's on
// CUDA, above).
void exec_gather_qmm(const GatherQMMNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  auto lhs = gather_indices(n.lhs_indices, st, s);
  auto rhs = gather_indices(n.rhs_indices, st, s);
  if (dequantizes_first(n, x, lhs, rhs, s)) {
    mx::array weights = dequantized_weight(n, x, st, s, "gather_qmm");
    st.set_tensor(n.out, gather_product(x, mx::swapaxes(weights, -1, -2, s), lhs, rhs, false, s));
    return;
  }
  bool widen = widens_on_cpu(x, s);
  QuantizedScales q = quantized_scales(n.mode, n.scales, n.biases, st, widen, s, "gather_qmm");
  mx::array product =
      mx::gather_qmm(widened(x, widen, s), st.tensor(n.w), q.scales, q.biases, lhs, rhs,
                     n.transpose, n.group_size, n.bits, q.mode, std::nullopt, n.sorted_indices, s);
  st.set_tensor(n.out, narrowed(product, x.dtype(), widen, s));
}

}  // namespace mlxd
