// Gather / scatter style ops.
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

namespace {
// Negative indices count from the end (as in torch).
mx::array wrap_indices(const mx::array& idx, int dim, StreamOrDevice s) {
  if (!mx::issubdtype(idx.dtype(), mx::integer)) {
    throw ExecutionError("indices must be integers");
  }
  if (mx::issubdtype(idx.dtype(), mx::unsignedinteger)) return idx;
  if (std::optional<mx::array> origin = unsigned_origin(idx, s)) return *origin;
  return mx::where(mx::less(idx, mx::array(0, idx.dtype()), s),
                   mx::add(idx, mx::array(dim, idx.dtype()), s), idx, s);
}
}  // namespace

void exec_take(const TakeNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "take");
  st.set_tensor(n.out, mx::take(x, wrap_indices(st.tensor(n.indices), x.shape(axis), s), axis, s));
}

void exec_take_along_axis(const TakeAlongAxisNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "take_along_axis");
  st.set_tensor(
      n.out, mx::take_along_axis(x, wrap_indices(st.tensor(n.indices), x.shape(axis), s), axis, s));
}

void exec_index(const IndexNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  size_t k = n.indices.size();
  if (k == 0 || k > x.ndim()) {
    throw ExecutionError("index: " + std::to_string(k) + " index tensors for a " +
                         std::to_string(x.ndim()) + "-D input");
  }
  std::vector<mx::array> idx;
  std::vector<int> axes;
  mx::Shape slice_sizes(x.shape());
  for (size_t i = 0; i < k; ++i) {
    idx.push_back(wrap_indices(st.tensor(n.indices[i]), x.shape(static_cast<int>(i)), s));
    axes.push_back(static_cast<int>(i));
    slice_sizes[i] = 1;
  }
  idx = mx::broadcast_arrays(idx, s);
  // gather gives broadcast(indices).shape + slice_sizes; drop the k unit axes.
  mx::array g = mx::gather(x, idx, axes, slice_sizes, s);
  int base = static_cast<int>(idx[0].ndim());
  std::vector<int> unit;
  for (size_t i = 0; i < k; ++i) unit.push_back(base + static_cast<int>(i));
  st.set_tensor(n.out, mx::squeeze(g, unit, s));
}

void exec_scatter_add(const ScatterAddNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "scatter_add");
  st.set_tensor(n.out, mx::scatter_add_axis(x, wrap_indices(st.tensor(n.indices), x.shape(axis), s),
                                            st.tensor(n.updates), axis, s));
}

void exec_scatter(const ScatterNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "scatter");
  st.set_tensor(n.out, mx::put_along_axis(x, wrap_indices(st.tensor(n.indices), x.shape(axis), s),
                                          st.tensor(n.updates), axis, s));
}

void exec_index_put(const IndexPutNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "index_put");
  const mx::array& indices = st.tensor(n.indices);
  if (indices.ndim() != 1) throw ExecutionError("index_put: indices must be 1-D");
  // MLX's scatter takes updates shaped indices + x's shape with 1 on `axis`.
  mx::array updates = mx::moveaxis(st.tensor(n.values), axis, 0, s);
  updates = mx::expand_dims(updates, axis + 1, s);
  st.set_tensor(n.out,
                mx::scatter(x, {wrap_indices(indices, x.shape(axis), s)}, updates, {axis}, s));
}

void exec_slice_update(const SliceUpdateNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& target = st.tensor(n.target);
  const mx::array& update = st.tensor(n.update);
  if (update.ndim() != target.ndim()) {
    throw ExecutionError("slice_update: update has " + std::to_string(update.ndim()) +
                         " dimensions, target " + std::to_string(target.ndim()));
  }
  int axis = normalize_axis(n.axis, target.ndim(), "slice_update");
  int64_t start = st.resolve(n.start);
  int64_t dim = target.shape(axis);
  if (start < 0) start += dim;
  if (start < 0 || start + update.shape(axis) > dim) {
    throw ExecutionError("slice_update: [" + std::to_string(start) + ", " +
                         std::to_string(start + update.shape(axis)) + ") outside size " +
                         std::to_string(dim));
  }
  mx::Shape lo(target.ndim(), 0), hi(target.shape());
  lo[axis] = static_cast<int32_t>(start);
  hi[axis] = static_cast<int32_t>(start + update.shape(axis));
  st.set_tensor(n.out, mx::slice_update(target, mx::astype(update, target.dtype(), s), lo, hi, s));
}

}  // namespace mlxd
