// Reductions, scans, softmax.
#include "cpu_kernels.h"
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

void exec_var(const VarNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  st.set_tensor(n.out, mx::var(x, reduce_axes(n.axes, x.ndim(), "var"), n.keepdims, n.ddof, s));
}

void exec_std(const StdNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  st.set_tensor(n.out, mx::std(x, reduce_axes(n.axes, x.ndim(), "std"), n.keepdims, n.ddof, s));
}

void exec_arg_max(const ArgMaxNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  mx::array r = n.axis ? mx::argmax(x, normalize_axis(*n.axis, x.ndim(), "argmax"), n.keepdims, s)
                       : mx::argmax(x, n.keepdims, s);
  st.set_tensor(n.out, mx::astype(r, mx::int64, s));  // torch returns int64 indices
}

void exec_arg_min(const ArgMinNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  mx::array r = n.axis ? mx::argmin(x, normalize_axis(*n.axis, x.ndim(), "argmin"), n.keepdims, s)
                       : mx::argmin(x, n.keepdims, s);
  st.set_tensor(n.out, mx::astype(r, mx::int64, s));
}

void exec_cum_sum(const CumSumNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (x.ndim() == 0) {
    st.set_tensor(n.out, x);
    return;
  }
  st.set_tensor(n.out, mx::cumsum(x, normalize_axis(n.axis, x.ndim(), "cumsum"), n.reverse,
                                  /*inclusive=*/true, s));
}

void exec_log_sum_exp(const LogSumExpNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (x.ndim() == 0) {
    st.set_tensor(n.out, x);
    return;
  }
  st.set_tensor(n.out, mx::logsumexp(x, reduce_axes(n.axes, x.ndim(), "logsumexp"), n.keepdims, s));
}

void exec_cum_prod(const CumProdNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (x.ndim() == 0) {
    st.set_tensor(n.out, x);
    return;
  }
  st.set_tensor(n.out, mx::cumprod(x, normalize_axis(n.axis, x.ndim(), "cumprod"), n.reverse,
                                   /*inclusive=*/true, s));
}

void exec_sort(const SortNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (x.ndim() == 0) {
    if (n.values_out) st.set_tensor(*n.values_out, x);
    if (n.indices_out) st.set_tensor(*n.indices_out, mx::zeros({}, mx::uint32, s));
    return;
  }
  int axis = normalize_axis(n.axis, x.ndim(), "sort");
  mx::array order =
      n.descending && x.shape(axis) > 1 ? descending_order(x, axis, s) : mx::argsort(x, axis, s);
  if (n.values_out) st.set_tensor(*n.values_out, mx::take_along_axis(x, order, axis, s));
  if (n.indices_out) st.set_tensor(*n.indices_out, order);
}

void exec_softmax(const SoftmaxNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "softmax");
  // Over the last axis, a CPU plugin with our kernels vectorises it (cpu_kernels.h).
  if (SoftmaxKernel kernel = cpu_softmax();
      kernel != nullptr && axis == static_cast<int>(x.ndim()) - 1) {
    if (std::optional<mx::array> y = kernel(x, s)) {
      st.set_tensor(n.out, *y);
      return;
    }
  }
  st.set_tensor(n.out, mx::softmax(x, axis, /*precise=*/true, s));
}

void exec_log_softmax(const LogSoftmaxNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "log_softmax");
  st.set_tensor(n.out, mx::subtract(x, mx::logsumexp(x, axis, /*keepdims=*/true, s), s));
}

}  // namespace mlxd
