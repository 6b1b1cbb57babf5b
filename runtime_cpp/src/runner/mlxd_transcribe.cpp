// mlxd-transcribe: greedy Whisper token ids from a .pte of `python -m
// mlx_delegate.asr export` through ExecuTorch's Module API, without Python or
// torch (the GPU machine runs it).
//
//   mlxd-transcribe MODEL.pte --features FEATURES.bin --prompt-ids "SOT LANG TASK NOTS"
//                   [--max-new-tokens N] [--device D] [--data FILE.ptd] [--warmup N]
//                   [--audio-seconds S]
//
// FEATURES.bin (mlx_delegate/formats/tensor_bin.py) holds one float32 tensor of log-mel
// windows, (windows, mels, 3000) or (mels, 3000): the caller computes them
// (mlx_delegate/asr/audio.py), as it tokenizes. Per window: one `encode` call,
// which leaves the cross-attention state in the delegate, then `decode` calls
// from the prompt until the end of text. Prints "ids: ..." (all windows'
// tokens, the end of text left out, as `asr transcribe --ids` does), then the
// timings and, given --audio-seconds, the real-time factor.
// Exit status: 0 on success, 1 on a failed load or run, 2 on a usage error.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "mlx_delegate/delegate_c_api.h"
#include "runner_common.h"
#include "tensor_bin.h"

namespace et = executorch::runtime;
namespace ext = executorch::extension;
using mlxd::runner::fail;

namespace {

constexpr const char* kUsage =
    "usage: mlxd-transcribe MODEL.pte --features FEATURES.bin --prompt-ids \"ID ...\"\n"
    "                       [--max-new-tokens N] [--device D] [--data FILE.ptd]\n"
    "                       [--warmup N] [--audio-seconds S] [--ignore-eos]\n"
    "\n"
    "Greedy token ids of each 30 s window of log-mel features (a float32 tensor\n"
    "(windows, mels, 3000) or (mels, 3000) in mlx_delegate.formats.tensor_bin's format),\n"
    "from a .pte of `python -m mlx_delegate.asr export`. --warmup N transcribes\n"
    "the first window N times untimed first; --audio-seconds gives the audio's\n"
    "length for the real-time factor; --ignore-eos decodes --max-new-tokens a\n"
    "window whatever comes (benchmarks).\n";

struct Options {
  std::string model;
  std::string data;
  std::string features;
  std::vector<int64_t> prompt;
  std::string device;
  int max_new_tokens = 448;
  int warmup = 0;
  double audio_seconds = 0.0;
  bool ignore_eos = false;
};

const mlxd::runner::Usage usage("mlxd-transcribe", kUsage);

std::string data_beside(const std::string& model) {
  std::filesystem::path data(model);
  data.replace_extension(".ptd");
  return std::filesystem::exists(data) ? data.string() : "";
}

Options parse_args(int argc, char** argv) {
  Options o;
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
    } else if (a == "--features") {
      o.features = value("--features");
    } else if (a == "--max-new-tokens") {
      o.max_new_tokens = static_cast<int>(usage.number(a, value("--max-new-tokens"), 1, 1e6));
    } else if (a == "--device") {
      o.device = value("--device");
    } else if (a == "--data") {
      o.data = value("--data");
    } else if (a == "--warmup") {
      o.warmup = static_cast<int>(usage.number(a, value("--warmup"), 0, 1000));
    } else if (a == "--ignore-eos") {
      o.ignore_eos = true;
    } else if (a == "--audio-seconds") {
      o.audio_seconds = usage.number(a, value("--audio-seconds"), 0, 1e9);
    } else if (!a.empty() && a[0] == '-') {
      usage.error("unknown option " + a);
    } else if (o.model.empty()) {
      o.model = a;
    } else {
      usage.error("more than one model given ('" + o.model + "', '" + a + "')");
    }
  }
  if (o.model.empty()) usage.error("no model given");
  if (o.features.empty()) usage.error("--features is required");
  if (o.prompt.empty()) usage.error("--prompt-ids is required");
  if (o.data.empty()) o.data = data_beside(o.model);
  return o;
}

int64_t constant_int(ext::Module& module, const std::string& name) {
  auto result = module.execute(name);
  if (!result.ok()) throw std::runtime_error(fail("reading " + name, result.error()));
  if (result.get().empty() || !result.get()[0].isInt()) {
    throw std::runtime_error(name + " does not return an int (not a Whisper program?)");
  }
  return result.get()[0].toInt();
}

// The log-mel windows of the features file, each (mels, 3000) float32.
struct Windows {
  int64_t mels = 0, frames = 0;
  std::vector<std::vector<float>> windows;
};

Windows read_windows(const std::string& path, int64_t mels) {
  auto tensors = mlxd::runner::read_tensor_file(path);
  if (tensors.size() != 1) throw std::runtime_error(path + ": expected one tensor of features");
  const auto& t = tensors[0];
  size_t rank = t.shape.size();
  if (t.dtype != mlxd::DType::Float32 || rank < 2 || rank > 3 || t.shape[rank - 2] != mels ||
      t.shape[rank - 1] != 3000) {
    throw std::runtime_error(path + ": " + mlxd::runner::describe(t) +
                             ", expected float32 (windows, " + std::to_string(mels) + ", 3000)");
  }
  Windows w{mels, 3000, {}};
  int64_t count = rank == 3 ? t.shape[0] : 1;
  size_t per = static_cast<size_t>(mels * 3000);
  const float* values = reinterpret_cast<const float*>(t.data.data());
  for (int64_t i = 0; i < count; ++i)
    w.windows.emplace_back(values + i * per, values + (i + 1) * per);
  if (w.windows.empty()) throw std::runtime_error(path + ": no windows");
  return w;
}

class Program {
 public:
  explicit Program(const Options& o)
      : module_(o.data.empty() ? ext::Module(o.model, ext::Module::LoadMode::Mmap)
                               : ext::Module(o.model, o.data, ext::Module::LoadMode::Mmap)) {
    et::Error err = module_.load();
    if (err != et::Error::Ok) throw std::runtime_error(fail("loading " + o.model, err));
    mlxd::runner::load_method(module_, "encode", o.device, o.model);
    mlxd::runner::load_method(module_, "decode", o.device, o.model);
    mels_ = constant_int(module_, "get_num_mel_bins");
    max_target_ = constant_int(module_, "get_max_target_positions");
    eos_ = constant_int(module_, "get_eos_id");
  }

  int64_t mels() const { return mels_; }
  int64_t max_target() const { return max_target_; }
  int64_t eos() const { return eos_; }

  // Writes the window's cross-attention state into the delegate.
  void encode(std::vector<float>& window) {
    auto features = ext::from_blob(window.data(), {1, static_cast<int>(mels_), 3000},
                                   executorch::aten::ScalarType::Float);
    auto result = module_.execute("encode", {et::EValue(*features)});
    if (!result.ok()) throw std::runtime_error(fail("running encode", result.error()));
  }

  // The greedy next token after `tokens` written at position `pos`.
  int64_t decode(std::vector<int64_t> tokens, int64_t pos, bool first) {
    auto sizes = std::vector<executorch::aten::SizesType>{
        1, static_cast<executorch::aten::SizesType>(tokens.size())};
    auto ids = ext::from_blob(tokens.data(), sizes, executorch::aten::ScalarType::Long);
    auto position = ext::make_tensor_ptr(std::vector<int64_t>{pos});
    auto is_first = ext::make_tensor_ptr(std::vector<int64_t>{first ? 1 : 0});
    auto result =
        module_.execute("decode", {et::EValue(*ids), et::EValue(*position), et::EValue(*is_first)});
    if (!result.ok()) throw std::runtime_error(fail("running decode", result.error()));
    return result.get().at(0).toTensor().const_data_ptr<int64_t>()[0];
  }

 private:
  ext::Module module_;
  int64_t mels_ = 0, max_target_ = 0, eos_ = -1;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Timings {
  double encode_s = 0.0, decode_s = 0.0;
  int64_t tokens = 0;
};

// One window: encode, then greedy decoding from the prompt to the end of text.
std::vector<int64_t> transcribe_window(Program& program, const Options& o,
                                       std::vector<float>& window, Timings& t) {
  auto start = std::chrono::steady_clock::now();
  program.encode(window);
  t.encode_s += seconds_since(start);
  int64_t budget = std::min<int64_t>(o.max_new_tokens,
                                     program.max_target() - static_cast<int64_t>(o.prompt.size()));
  std::vector<int64_t> ids;
  start = std::chrono::steady_clock::now();
  int64_t token = program.decode(o.prompt, 0, true);
  int64_t pos = static_cast<int64_t>(o.prompt.size());
  for (int64_t produced = 1;; ++produced, ++pos) {
    ++t.tokens;
    if (token == program.eos() && !o.ignore_eos) break;
    ids.push_back(token);
    if (produced >= budget || pos >= program.max_target()) break;
    token = program.decode({token}, pos, false);
  }
  t.decode_s += seconds_since(start);
  return ids;
}

int run(const Options& o) {
  et::runtime_init();
  if (mlxd_delegate_registered() != 1) {
    std::fprintf(stderr, "mlxd-transcribe: the MLX delegate backend is not registered\n");
    return 1;
  }
  auto load_start = std::chrono::steady_clock::now();
  Program program(o);
  double load_s = seconds_since(load_start);
  if (static_cast<int64_t>(o.prompt.size()) >= program.max_target()) {
    throw std::runtime_error("the prompt fills the decoder's positions");
  }
  Windows w = read_windows(o.features, program.mels());
  Timings untimed;
  for (int i = 0; i < o.warmup; ++i) transcribe_window(program, o, w.windows[0], untimed);

  Timings t;
  std::fputs("ids:", stdout);
  for (auto& window : w.windows) {
    for (int64_t id : transcribe_window(program, o, window, t)) {
      std::printf(" %lld", static_cast<long long>(id));
    }
    std::fflush(stdout);
  }
  double total = t.encode_s + t.decode_s;
  std::printf("\nload: %.1f ms\n", load_s * 1e3);
  std::printf("windows: %zu, encode: %.1f ms\n", w.windows.size(), t.encode_s * 1e3);
  std::printf("decode: %lld tokens, %.1f ms, %.1f tokens/s\n", static_cast<long long>(t.tokens),
              t.decode_s * 1e3, t.decode_s > 0 ? t.tokens / t.decode_s : 0.0);
  if (o.audio_seconds > 0) {
    std::printf("real-time factor: %.4f (%.3f s for %.2f s of audio)\n", total / o.audio_seconds,
                total, o.audio_seconds);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlxd-transcribe: %s\n", e.what());
    return 1;
  }
}
