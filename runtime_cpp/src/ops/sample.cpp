// The next token of a language model, sampled inside the program so that only
// its id crosses back to the host.
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

namespace {

// Top-p: the smallest set of the most likely tokens whose probability reaches
// top_p, one of them picked by inverse CDF at `uniform` (SampleNode's doc).
mx::array top_p_token(const mx::array& logits, const mx::array& temperature, const mx::array& top_p,
                      const mx::array& uniform, StreamOrDevice s) {
  mx::array t = mx::maximum(temperature, mx::array(1e-5f), s);
  mx::array probs = mx::softmax(mx::divide(logits, t, s), -1, /*precise=*/true, s);
  mx::array order = descending_order(probs, 1, s);
  mx::array sorted = mx::take_along_axis(probs, order, -1, s);
  mx::array before = mx::subtract(mx::cumsum(sorted, -1, false, true, s), sorted, s);
  mx::array kept = mx::where(mx::less(before, top_p, s), sorted, mx::array(0.0f), s);
  mx::array cumulative = mx::cumsum(kept, -1, false, true, s);
  int vocab = logits.shape(-1);
  mx::array total = mx::slice(cumulative, {0, vocab - 1}, {1, vocab}, s);  // (1, 1)
  mx::array threshold = mx::multiply(mx::reshape(uniform, {1, 1}, s), total, s);
  mx::array rank = mx::sum(mx::less_equal(cumulative, threshold, s), -1, /*keepdims=*/true, s);
  rank = mx::minimum(mx::astype(rank, mx::uint32, s), mx::array(vocab - 1, mx::uint32), s);
  return mx::reshape(mx::take_along_axis(order, rank, -1, s), {1}, s);
}

}  // namespace

void exec_sample(const SampleNode& n, ExecutionState& st, StreamOrDevice s) {
  const mx::array& logits = st.tensor(n.logits);
  if (logits.ndim() != 2 || logits.shape(0) != 1) {
    throw ExecutionError("sample: logits must be (1, vocabulary)");
  }
  mx::array x = mx::astype(logits, mx::float32, s);
  // The temperature is a program input, already in host memory: read where
  // it is, it waits for nothing. A greedy step then runs no sort
  // of the vocabulary, which took 1.1 to 2.3 ms of a 1B model's 3 to 4 ms
  // decode step on an H100 when both samplers ran and one was picked.
  float temperature = host_scalar<float>(st.tensor(n.temperature), "sample");
  auto operand = [&](Tid t) { return mx::astype(st.tensor(t), mx::float32, s); };
  mx::array token = temperature <= 0.0f ? mx::argmax(x, -1, /*keepdims=*/false, s)
                                        : top_p_token(x, operand(n.temperature), operand(n.top_p),
                                                      operand(n.uniform), s);
  st.set_tensor(n.out, mx::astype(token, mx::int64, s));
}

}  // namespace mlxd
