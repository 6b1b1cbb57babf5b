// Reductions, scans, softmax.
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

#define MLXD_REDUCE(fn, Node, mlx_fn, name)                                      \
  void fn(const Node& n, ExecutionState& st, StreamOrDevice s) {                 \
    const mx::array& x = st.tensor(n.x);                                         \
    if (x.ndim() == 0) {                                                         \
      st.set_tensor(n.out, mlx_fn(x, n.keepdims, s));                            \
      return;                                                                    \
    }                                                                            \
    st.set_tensor(n.out, mlx_fn(x, reduce_axes(n.axes, x.ndim(), name), n.keepdims, s)); \
  }

MLXD_REDUCE(exec_sum, SumNode, mx::sum, "sum")
MLXD_REDUCE(exec_mean, MeanNode, mx::mean, "mean")
MLXD_REDUCE(exec_max, MaxNode, mx::max, "max")
MLXD_REDUCE(exec_min, MinNode, mx::min, "min")
MLXD_REDUCE(exec_prod, ProdNode, mx::prod, "prod")
MLXD_REDUCE(exec_any, AnyNode, mx::any, "any")
MLXD_REDUCE(exec_all, AllNode, mx::all, "all")
#undef MLXD_REDUCE

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

void exec_softmax(const SoftmaxNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  st.set_tensor(n.out,
                mx::softmax(x, normalize_axis(n.axis, x.ndim(), "softmax"), /*precise=*/true, s));
}

void exec_log_softmax(const LogSoftmaxNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "log_softmax");
  st.set_tensor(n.out, mx::subtract(x, mx::logsumexp(x, axis, /*keepdims=*/true, s), s));
}

}  // namespace mlxd
