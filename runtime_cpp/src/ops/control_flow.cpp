// Control flow: torch.cond and while_loop run sub-chains of the program on the
// same execution state (see CondNode and WhileNode in schema/schema.fbs).
#include "op_util.h"

namespace mlxd {

using namespace mlxd::ops;

namespace {

// The truth of a one-element predicate tensor. Reading it forces the lazy
// graph that computes it: the branch to run depends on the value.
bool truth(const mx::array& pred, const char* op) {
  if (pred.size() != 1) {
    throw ExecutionError(std::string(op) + ": the predicate has " + std::to_string(pred.size()) +
                         " elements, expected 1");
  }
  mx::array flag = mx::astype(mx::reshape(pred, {}), mx::bool_);
  mx::eval(flag);
  return flag.item<bool>();
}

}  // namespace

void exec_cond(const CondNode& n, ExecutionState& st, StreamOrDevice) {
  st.run_chain(truth(st.tensor(n.pred), "cond") ? n.then_chain : n.else_chain);
}

void exec_while(const WhileNode& n, ExecutionState& st, StreamOrDevice) {
  if (n.inits.size() != n.outs.size()) {
    throw ExecutionError("while: " + std::to_string(n.inits.size()) + " initial values for " +
                         std::to_string(n.outs.size()) + " state slots");
  }
  // Read every initial value before writing any state slot: an init may be
  // another state slot's slot.
  std::vector<mx::array> initial;
  for (Tid t : n.inits) initial.push_back(st.tensor(t));
  for (size_t i = 0; i < n.outs.size(); ++i) st.set_tensor(n.outs[i], initial[i]);
  while (true) {
    st.run_chain(n.cond_chain);
    // Evaluating the state with the predicate keeps each iteration's lazy
    // graph small instead of growing it across the whole loop.
    std::vector<mx::array> state;
    for (Tid t : n.outs) state.push_back(st.tensor(t));
    mx::eval(state);
    if (!truth(st.tensor(n.pred_out), "while")) break;
    st.run_chain(n.body_chain);
  }
}

}  // namespace mlxd
