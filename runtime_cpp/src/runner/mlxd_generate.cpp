// mlxd-generate: generates tokens from a .pte of `python -m mlx_delegate.llm
// export` through ExecuTorch's Module API, without Python or torch, so a GPU
// machine needs no ExecuTorch Python.
//
//   mlxd-generate MODEL.pte --prompt-ids "1 72 9" [--max-new-tokens N]
//                 [--temperature T] [--top-p P] [--seed S] [--device D] [--ignore-eos]
//                 [--warmup N] [--tp N]
//
// Token ids in and out: pytorch-tokenizers' C++ library cannot be built here
// (its pip package ships headers and a Python extension, no sources), so the
// caller tokenizes. Prints "ids: ..." as tokens arrive, then the timings.
// Exit status: 0 on success, 1 on a failed load or run, 2 on a usage error.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "ranks.h"
#include "mlx_delegate/delegate_c_api.h"
#include "runner_common.h"

namespace et = executorch::runtime;
namespace ext = executorch::extension;
using mlxd::runner::fail;

namespace {

constexpr const char* kUsage =
    "usage: mlxd-generate MODEL.pte --prompt-ids \"ID ID ...\" [--max-new-tokens N]\n"
    "                     [--temperature T] [--top-p P] [--seed S] [--device D]\n"
    "                     [--ignore-eos] [--warmup N] [--prefill-chunk N] [--data FILE.ptd]\n"
    "                     [--tp N]\n"
    "\n"
    "Generates from a .pte of `python -m mlx_delegate.llm export` (sampling runs in\n"
    "the program; temperature 0 is greedy). Prints the new token ids as they come,\n"
    "then time to first token, prefill and decode tokens/s. --warmup N runs N short\n"
    "untimed generations first (kernels built, memory pooled). The weights come from\n"
    "--data, or from the MODEL.ptd beside MODEL.pte when there is one. The prompt\n"
    "goes in chunks of --prefill-chunk tokens (default 512; 0: all at once).\n"
    "--tp N runs a program exported with --tp N as N processes, one a device (ring\n"
    "on the CPU, NCCL on GPUs), each with its MODEL.rankR-of-N.ptd; a process that\n"
    "finds MLX_RANK (and MLX_WORLD_SIZE or MLX_HOSTFILE) set joins as that rank.\n"
    "Only rank 0 prints.\n";

struct Options {
  std::string model;
  std::string data;
  std::vector<int64_t> prompt;
  std::string device;
  int max_new_tokens = 64;
  float temperature = 0.0f;
  float top_p = 1.0f;
  uint64_t seed = 0;
  bool ignore_eos = false;
  int warmup = 0;
  int prefill_chunk = 512;
  int tp = 1;
};

const mlxd::runner::Usage usage("mlxd-generate", kUsage);

// The data file `llm export` writes beside MODEL.pte for rank `r`, or "" when
// there is none.
std::string data_beside(const std::string& model, mlxd::runner::Rank r) {
  std::string data = mlxd::runner::rank_data_path(model, r);
  return std::filesystem::exists(data) ? data : "";
}

Options parse_args(int argc, char** argv) {
  Options o;
  bool have_prompt = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](const char* flag) -> const char* {
      if (i + 1 >= argc) usage.error(std::string(flag) + " needs a value");
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else if (a == "--prompt-ids") {
      o.prompt = usage.ids(a, value("--prompt-ids"));
      have_prompt = true;
    } else if (a == "--max-new-tokens") {
      o.max_new_tokens = static_cast<int>(usage.number(a, value("--max-new-tokens"), 1, 1e6));
    } else if (a == "--temperature") {
      o.temperature = static_cast<float>(usage.number(a, value("--temperature"), 0, 100));
    } else if (a == "--top-p") {
      o.top_p = static_cast<float>(usage.number(a, value("--top-p"), 0, 1));
    } else if (a == "--seed") {
      o.seed = static_cast<uint64_t>(usage.number(a, value("--seed"), 0, 1e18));
    } else if (a == "--device") {
      o.device = value("--device");
    } else if (a == "--warmup") {
      o.warmup = static_cast<int>(usage.number(a, value("--warmup"), 0, 1000));
    } else if (a == "--prefill-chunk") {
      o.prefill_chunk = static_cast<int>(usage.number(a, value("--prefill-chunk"), 0, 1e7));
    } else if (a == "--tp") {
      o.tp = static_cast<int>(usage.number(a, value("--tp"), 1, 1 << 16));
    } else if (a == "--data") {
      o.data = value("--data");
    } else if (a == "--ignore-eos") {
      o.ignore_eos = true;
    } else if (!a.empty() && a[0] == '-') {
      usage.error("unknown option " + a);
    } else if (o.model.empty()) {
      o.model = a;
    } else {
      usage.error("more than one model given ('" + o.model + "', '" + a + "')");
    }
  }
  if (o.model.empty()) usage.error("no model given");
  if (!have_prompt) usage.error("--prompt-ids is required");
  return o;
}

// The values a constant method of the export returns (metadata).
std::vector<int64_t> constant_ints(ext::Module& module, const std::string& name) {
  auto result = module.execute(name);
  if (!result.ok()) throw std::runtime_error(fail("reading " + name, result.error()));
  std::vector<int64_t> values;
  for (const auto& v : result.get()) {
    if (!v.isInt()) throw std::runtime_error(name + " does not return ints");
    values.push_back(v.toInt());
  }
  if (values.empty()) throw std::runtime_error(name + " returns nothing");
  return values;
}

class Program {
 public:
  Program(const Options& o)
      : module_(o.data.empty() ? ext::Module(o.model, ext::Module::LoadMode::Mmap)
                               : ext::Module(o.model, o.data, ext::Module::LoadMode::Mmap)),
        options_(o) {
    et::Error err = module_.load();
    if (err != et::Error::Ok) throw std::runtime_error(fail("loading " + o.model, err));
    check_ranks(o);
    mlxd::runner::load_method(module_, "forward", o.device, o.model);
    max_seq_len_ = constant_ints(module_, "get_max_seq_len")[0];
    for (int64_t id : constant_ints(module_, "get_eos_ids")) {
      if (id >= 0) eos_.insert(id);
    }
  }

  int64_t max_seq_len() const { return max_seq_len_; }

  // A program exported for N ranks runs in a group of N processes only.
  void check_ranks(const Options& o) {
    auto names = module_.method_names();
    if (!names.ok() || names.get().count("get_tp_size") == 0) return;  // older: one rank
    int64_t ranks = constant_ints(module_, "get_tp_size")[0];
    auto joined = mlxd::runner::rank_of_environment();
    int64_t group = joined ? joined->ranks : 1;
    if (ranks != group) {
      throw std::runtime_error(o.model + " is a program for " + std::to_string(ranks) +
                               " ranks, this process is one of " + std::to_string(group) +
                               ": mlxd-generate --tp " + std::to_string(ranks));
    }
  }
  bool is_eos(int64_t id) const { return eos_.count(id) != 0; }

  // Runs `tokens` at cache position `pos`; returns the sampled next token.
  int64_t step(std::vector<int64_t> tokens, int64_t pos, float uniform) {
    auto sizes = std::vector<executorch::aten::SizesType>{
        1, static_cast<executorch::aten::SizesType>(tokens.size())};
    auto ids = ext::from_blob(tokens.data(), sizes, executorch::aten::ScalarType::Long);
    auto position = ext::make_tensor_ptr(std::vector<int64_t>{pos});
    auto temperature = ext::make_tensor_ptr(std::vector<float>{options_.temperature});
    auto top_p = ext::make_tensor_ptr(std::vector<float>{options_.top_p});
    auto u = ext::make_tensor_ptr(std::vector<float>{uniform});
    auto result =
        module_.execute("forward", {et::EValue(*ids), et::EValue(*position),
                                    et::EValue(*temperature), et::EValue(*top_p), et::EValue(*u)});
    if (!result.ok()) throw std::runtime_error(fail("running forward", result.error()));
    const auto& out = result.get().at(0).toTensor();
    return out.const_data_ptr<int64_t>()[0];
  }

 private:
  ext::Module module_;
  const Options& options_;
  int64_t max_seq_len_ = 0;
  std::set<int64_t> eos_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The prompt in chunks of --prefill-chunk tokens (all of it when 0), each call
// attending to the cache written so far: no chunk builds a prompt-square mask.
// The last chunk's sampled token is the first new one.
int64_t prefill(Program& program, const Options& o, float u) {
  size_t chunk = o.prefill_chunk > 0 ? static_cast<size_t>(o.prefill_chunk) : o.prompt.size();
  int64_t token = -1;
  for (size_t start = 0; start < o.prompt.size(); start += chunk) {
    size_t end = std::min(o.prompt.size(), start + chunk);
    std::vector<int64_t> part(o.prompt.begin() + start, o.prompt.begin() + end);
    token = program.step(part, static_cast<int64_t>(start), u);
  }
  return token;
}

int run(const Options& o) {
  et::runtime_init();
  if (mlxd_delegate_registered() != 1) {
    std::fprintf(stderr, "mlxd-generate: the MLX delegate backend is not registered\n");
    return 1;
  }
  auto load_start = std::chrono::steady_clock::now();
  Program program(o);
  double load_s = seconds_since(load_start);
  int64_t prompt_len = static_cast<int64_t>(o.prompt.size());
  if (prompt_len >= program.max_seq_len()) {
    throw std::runtime_error("the prompt (" + std::to_string(prompt_len) +
                             " tokens) fills the cache (" + std::to_string(program.max_seq_len()) +
                             ")");
  }
  int64_t budget = std::min<int64_t>(o.max_new_tokens, program.max_seq_len() - prompt_len);
  std::mt19937_64 rng(o.seed);
  std::uniform_real_distribution<float> distribution(0.0f, 1.0f);
  // Greedy decoding ignores the number; a constant lets the runtime predict
  // the next call and start it before this one returns (schema: RunAhead).
  auto uniform = [&](std::mt19937_64& r) { return o.temperature > 0 ? distribution(r) : 0.0f; };

  for (int i = 0; i < o.warmup; ++i) {
    int64_t token = prefill(program, o, uniform(rng));
    for (int64_t pos = prompt_len; pos < std::min<int64_t>(prompt_len + 3, program.max_seq_len());
         ++pos) {
      token = program.step({token}, pos, uniform(rng));
    }
  }
  rng.seed(o.seed);  // the timed generation samples as it would without warm-up

  std::fputs("ids:", stdout);
  auto start = std::chrono::steady_clock::now();
  int64_t token = prefill(program, o, uniform(rng));
  double first_token_s = seconds_since(start);
  double decode_s = 0.0;
  int64_t produced = 1, pos = prompt_len;
  for (;; ++produced, ++pos) {
    std::printf(" %lld", static_cast<long long>(token));
    std::fflush(stdout);
    if (produced == budget || (!o.ignore_eos && program.is_eos(token))) break;
    start = std::chrono::steady_clock::now();
    token = program.step({token}, pos, uniform(rng));
    decode_s += seconds_since(start);
  }
  std::printf("\nload: %.1f ms\n", load_s * 1e3);
  std::printf("time to first token: %.1f ms\n", first_token_s * 1e3);
  std::printf("prefill: %lld tokens, %.1f tokens/s\n", static_cast<long long>(prompt_len),
              prompt_len / first_token_s);
  std::printf("decode: %lld tokens, %.1f tokens/s\n", static_cast<long long>(produced - 1),
              produced > 1 ? (produced - 1) / decode_s : 0.0);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);
  try {
    auto joined = mlxd::runner::rank_of_environment();
    if (o.tp > 1 && !joined) {  // start the ranks, each runs this command
      return mlxd::runner::start_ranks(argv, o.tp, mlxd::runner::default_backend(o.device),
                                       "mlxd-generate");
    }
    mlxd::runner::Rank rank = joined.value_or(mlxd::runner::Rank{});
    mlxd::runner::quiet_unless_rank_zero(rank);
    if (joined && o.device == "gpu") o.device = "gpu:0";  // a GPU a rank
    if (o.data.empty()) o.data = data_beside(o.model, rank);
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlxd-generate: %s\n", e.what());
    return 1;
  }
}
