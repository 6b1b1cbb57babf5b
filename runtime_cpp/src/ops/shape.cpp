// Shape and layout ops.
#include <numeric>

#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

void exec_reshape(const ReshapeNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out, mx::reshape(st.tensor(n.x), resolve_shape(n.shape, st), s));
}

namespace {
bool swaps_last_two(const std::vector<int>& perm) {
  int rank = static_cast<int>(perm.size());
  if (rank < 2 || perm[rank - 2] != rank - 1 || perm[rank - 1] != rank - 2) return false;
  for (int axis = 0; axis < rank - 2; ++axis) {
    if (perm[axis] != axis) return false;
  }
  return true;
}
}  // namespace

void exec_transpose(const TransposeNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (n.perm.empty()) {
    st.set_tensor(n.out, mx::transpose(x, s));
    return;
  }
  std::vector<int> perm;
  for (int32_t p : n.perm) perm.push_back(normalize_axis(p, x.ndim(), "transpose"));
  if (st.slot_class(n.x) == SlotClass::constant && swaps_last_two(perm)) {
    st.set_tensor(n.out, st.transposed_constant(n.x, s));  // made once, not each call
    return;
  }
  st.set_tensor(n.out, mx::transpose(x, perm, s));
}

void exec_expand_dims(const ExpandDimsNode& n, ExecutionState& st, StreamOrDevice s) {
  std::vector<int> axes(n.axes.begin(), n.axes.end());
  st.set_tensor(n.out, mx::expand_dims(st.tensor(n.x), axes, s));
}

void exec_squeeze(const SqueezeNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  // Like torch: only axes of size 1 are removed; others are left alone.
  std::vector<int> axes;
  if (n.axes.empty()) {
    for (int i = 0; i < static_cast<int>(x.ndim()); ++i) {
      if (x.shape(i) == 1) axes.push_back(i);
    }
  } else {
    for (int32_t a : n.axes) {
      int ax = normalize_axis(a, x.ndim(), "squeeze");
      if (x.shape(ax) == 1) axes.push_back(ax);
    }
  }
  st.set_tensor(n.out, axes.empty() ? x : mx::squeeze(x, axes, s));
}

void exec_broadcast_to(const BroadcastToNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  mx::Shape shape = resolve_shape(n.shape, st);
  // -1 keeps the input's size (torch.expand).
  int offset = static_cast<int>(shape.size()) - static_cast<int>(x.ndim());
  for (int i = 0; i < static_cast<int>(shape.size()); ++i) {
    if (shape[i] == -1) {
      if (i < offset) throw ExecutionError("broadcast_to: -1 for a new leading dimension");
      shape[i] = x.shape(i - offset);
    }
  }
  st.set_tensor(n.out, mx::broadcast_to(x, shape, s));
}

void exec_slice(const SliceNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "slice");
  int64_t dim = x.shape(axis);
  if (n.step <= 0) throw ExecutionError("slice: step must be positive");
  auto clamp = [&](int64_t v) {
    if (v < 0) v += dim;
    return std::min<int64_t>(std::max<int64_t>(v, 0), dim);
  };
  int64_t start = n.start ? clamp(st.resolve(*n.start)) : 0;
  int64_t stop = n.stop ? clamp(st.resolve(*n.stop)) : dim;
  if (stop < start) stop = start;
  mx::Shape lo(x.ndim(), 0), hi(x.shape()), strides(x.ndim(), 1);
  lo[axis] = static_cast<int32_t>(start);
  hi[axis] = static_cast<int32_t>(stop);
  strides[axis] = n.step;
  st.set_tensor(n.out, mx::slice(x, lo, hi, strides, s));
}

void exec_select(const SelectNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "select");
  int64_t dim = x.shape(axis);
  int64_t index = st.resolve(n.index);
  if (index < -dim || index >= dim) {
    throw ExecutionError("select: index " + std::to_string(index) + " out of range for size " +
                         std::to_string(dim));
  }
  if (index < 0) index += dim;
  st.set_tensor(n.out, mx::take(x, static_cast<int>(index), axis, s));
}

static std::vector<mx::array> gather_inputs(const std::vector<Tid>& ids, const ExecutionState& st) {
  std::vector<mx::array> out;
  out.reserve(ids.size());
  for (const auto& t : ids) out.push_back(st.tensor(t));
  if (out.empty()) throw ExecutionError("no input tensors");
  return out;
}

void exec_concatenate(const ConcatenateNode& n, ExecutionState& st, StreamOrDevice s) {
  auto xs = gather_inputs(n.inputs, st);
  int axis = normalize_axis(n.axis, xs[0].ndim(), "concatenate");
  st.set_tensor(n.out, mx::concatenate(xs, axis, s));
}

void exec_stack(const StackNode& n, ExecutionState& st, StreamOrDevice s) {
  auto xs = gather_inputs(n.inputs, st);
  int axis = normalize_axis(n.axis, xs[0].ndim() + 1, "stack");
  st.set_tensor(n.out, mx::stack(xs, axis, s));
}

void exec_split(const SplitNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  int axis = normalize_axis(n.axis, x.ndim(), "split");
  if (n.outs.empty()) throw ExecutionError("split: no outputs");
  std::vector<mx::array> parts;
  if (n.sizes.empty()) {
    if (x.shape(axis) % static_cast<int>(n.outs.size()) != 0) {
      throw ExecutionError("split: size " + std::to_string(x.shape(axis)) +
                           " is not divisible into " + std::to_string(n.outs.size()) + " parts");
    }
    parts = mx::split(x, static_cast<int>(n.outs.size()), axis, s);
  } else {
    if (n.sizes.size() != n.outs.size()) {
      throw ExecutionError("split: " + std::to_string(n.sizes.size()) + " sizes for " +
                           std::to_string(n.outs.size()) + " outputs");
    }
    mx::Shape cuts;
    int64_t total = 0;
    for (size_t i = 0; i < n.sizes.size(); ++i) {
      if (n.sizes[i] < 0) throw ExecutionError("split: negative size");
      total += n.sizes[i];
      if (i + 1 < n.sizes.size()) cuts.push_back(static_cast<int32_t>(total));
    }
    if (total != x.shape(axis)) {
      throw ExecutionError("split: sizes add up to " + std::to_string(total) + ", the axis has " +
                           std::to_string(x.shape(axis)));
    }
    parts = mx::split(x, cuts, axis, s);
  }
  for (size_t i = 0; i < n.outs.size(); ++i) st.set_tensor(n.outs[i], parts[i]);
}

void exec_tile(const TileNode& n, ExecutionState& st, StreamOrDevice s) {
  std::vector<int> reps(n.reps.begin(), n.reps.end());
  st.set_tensor(n.out, mx::tile(st.tensor(n.x), reps, s));
}

void exec_flip(const FlipNode& n, ExecutionState& st, StreamOrDevice s) {
  mx::array y = st.tensor(n.x);
  for (int32_t a : n.axes) {
    int axis = normalize_axis(a, y.ndim(), "flip");
    int dim = y.shape(axis);
    if (dim <= 1) continue;
    mx::array idx = mx::arange(dim - 1, -1, -1, s);
    y = mx::take(y, idx, axis, s);
  }
  st.set_tensor(n.out, y);
}

void exec_roll(const RollNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (n.axes.empty()) {
    if (n.shifts.size() != 1) throw ExecutionError("roll: without axes, exactly one shift");
    st.set_tensor(n.out, mx::roll(x, n.shifts[0], s));
    return;
  }
  if (n.shifts.size() != n.axes.size()) throw ExecutionError("roll: one shift per axis");
  mx::Shape shifts(n.shifts.begin(), n.shifts.end());
  std::vector<int> axes;
  for (int32_t a : n.axes) axes.push_back(normalize_axis(a, x.ndim(), "roll"));
  st.set_tensor(n.out, mx::roll(x, shifts, axes, s));
}

void exec_pad(const PadNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& x = st.tensor(n.x);
  if (n.pad.size() % 2 != 0 || n.pad.size() / 2 > x.ndim()) {
    throw ExecutionError("pad: " + std::to_string(n.pad.size()) + " pad entries for a " +
                         std::to_string(x.ndim()) + "-D input");
  }
  mx::array y = x;
  std::vector<std::pair<int, int>> widths(x.ndim(), {0, 0});
  for (size_t i = 0; i < n.pad.size() / 2; ++i) {
    int lo = n.pad[2 * i], hi = n.pad[2 * i + 1];
    // Negative padding crops.
    if (lo < 0 || hi < 0) {
      int dim = y.shape(static_cast<int>(i));
      mx::Shape a(y.ndim(), 0), b(y.shape());
      a[i] = lo < 0 ? -lo : 0;
      b[i] = hi < 0 ? dim + hi : dim;
      if (b[i] < a[i]) throw ExecutionError("pad: cropping more than the dimension");
      y = mx::slice(y, a, b, s);
    }
    widths[i] = {std::max(lo, 0), std::max(hi, 0)};
  }
  st.set_tensor(n.out, mx::pad(y, widths, mx::array(n.value, x.dtype()), "constant", s));
}

void exec_tril(const TrilNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out, mx::tril(st.tensor(n.x), n.k, s));
}

void exec_triu(const TriuNode& n, ExecutionState& st, StreamOrDevice s) {
  st.set_tensor(n.out, mx::triu(st.tensor(n.x), n.k, s));
}

}  // namespace mlxd
