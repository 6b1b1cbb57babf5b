// mlxd-run: runs a .pte with the MLX delegate through ExecuTorch's Module
// API, without Python or torch.
//
//   mlxd-run MODEL.pte --inputs in.bin --outputs out.bin
//            [--device cpu|gpu|gpu:N] [--repeat N] [--warmup N]
//            [--method forward] [--data weights.ptd] [--quiet]
//   mlxd-run --batch JOBS.txt [--results RESULTS.txt] [--device ...] [--repeat N]
//            [--warmup N] [--method forward] [--threads N]
//
// Inputs and outputs use the .bin tensor format (tensor_bin.h, README.md).
// A batch runs many programs in one process (the plugins load once: CUDA's
// start-up is paid once, not per program), each exactly as a single run; a
// job line may name its own device, and --threads runs jobs concurrently
// (two programs on two devices from two threads).
// Exit status: 0 on success, 1 on a failed load or run (in a batch: any job
// failed), 2 on a usage error.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor.h>
#include <executorch/runtime/platform/runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "dtype_map.h"
#include "mlx_delegate/delegate_c_api.h"
#include "runner_common.h"
#include "tensor_bin.h"

namespace et = executorch::runtime;
namespace ext = executorch::extension;
using mlxd::DType;
using mlxd::runner::BinTensor;
using mlxd::runner::EntryKind;
using mlxd::runner::fail;

namespace {

constexpr const char* kUsage =
    "usage: mlxd-run MODEL.pte --inputs IN.bin --outputs OUT.bin\n"
    "                [--device cpu|gpu|gpu:N] [--repeat N] [--warmup N]\n"
    "                [--method NAME] [--data FILE.ptd] [--quiet]\n"
    "\n"
    "Runs MODEL.pte through ExecuTorch with the MLX delegate (MLXDelegateBackend).\n"
    "  --inputs IN.bin     program inputs (.bin tensor file, see runtime_cpp/README.md)\n"
    "  --outputs OUT.bin   where the outputs of the last run are written\n"
    "  --device D          device for the delegate (default: the compile spec, else the\n"
    "                      first GPU if a GPU backend loads, else cpu)\n"
    "  --repeat N          timed runs (default 1); the median latency is printed\n"
    "  --warmup N          untimed runs before them (default 0)\n"
    "  --method NAME       method to run (default forward)\n"
    "  --data FILE.ptd     external named data (weights saved outside the .pte)\n"
    "  --quiet             print nothing but errors\n"
    "\n"
    "   or: mlxd-run --batch JOBS.txt [--results RESULTS.txt] [--device D]\n"
    "                [--repeat N] [--warmup N] [--method NAME] [--threads N]\n"
    "\n"
    "Runs every job of JOBS.txt (one per line: MODEL.pte IN.bin OUT.bin [DEVICE];\n"
    "blank lines and lines starting with # are skipped) in this one process, as single\n"
    "runs with the options given (DEVICE, when given, instead of --device). --threads N\n"
    "runs up to N jobs at a time, each in its own thread (default 1: one after the\n"
    "other). A failed job does not stop the others. RESULTS.txt (default:\n"
    "stdout) gets one line per job as it ends, flushed at once (a crash keeps the\n"
    "lines of the jobs before it), tab-separated:\n"
    "  N <tab> ok <tab> LOAD_MS <tab> MEDIAN_RUN_MS        job N (from 0) ran\n"
    "  N <tab> error <tab> MESSAGE                         job N failed\n"
    "Before job N, stderr gets the line 'mlxd-run: job N: MODEL.pte', so the log\n"
    "lines that follow belong to that job.\n";

// One program to run: a single run's, or one line of a batch.
struct Job {
  std::string model;
  std::string inputs;
  std::string outputs;
  std::string device;  // a batch line's own device; empty: --device
};

struct Options {
  Job job;
  std::string batch;    // jobs file: batch mode
  std::string results;  // batch results file (empty: stdout)
  std::string device;
  std::string method = "forward";
  std::string data;
  int repeat = 1;
  int warmup = 0;
  int threads = 1;  // batch jobs run at a time
  bool quiet = false;
};

const mlxd::runner::Usage usage("mlxd-run", kUsage);

int parse_count(const std::string& flag, const char* text, int min) {
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < min || v > 1000000) {
    usage.error(flag + " takes an integer >= " + std::to_string(min) + ", got '" + text + "'");
  }
  return static_cast<int>(v);
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
    } else if (a == "--inputs") {
      o.job.inputs = value("--inputs");
    } else if (a == "--outputs") {
      o.job.outputs = value("--outputs");
    } else if (a == "--batch") {
      o.batch = value("--batch");
    } else if (a == "--results") {
      o.results = value("--results");
    } else if (a == "--device") {
      o.device = value("--device");
    } else if (a == "--method") {
      o.method = value("--method");
    } else if (a == "--data") {
      o.data = value("--data");
    } else if (a == "--repeat") {
      o.repeat = parse_count("--repeat", value("--repeat"), 1);
    } else if (a == "--warmup") {
      o.warmup = parse_count("--warmup", value("--warmup"), 0);
    } else if (a == "--threads") {
      o.threads = parse_count("--threads", value("--threads"), 1);
    } else if (a == "--quiet") {
      o.quiet = true;
    } else if (!a.empty() && a[0] == '-') {
      usage.error("unknown option " + a);
    } else if (o.job.model.empty()) {
      o.job.model = a;
    } else {
      usage.error("more than one model given ('" + o.job.model + "', '" + a + "')");
    }
  }
  if (!o.batch.empty()) {
    // The jobs file names each job's files; options that name one program's
    // files would be ambiguous.
    if (!o.job.model.empty() || !o.job.inputs.empty() || !o.job.outputs.empty() ||
        !o.data.empty()) {
      usage.error(
          "--batch takes no MODEL, --inputs, --outputs or --data (the jobs file names them)");
    }
    return o;
  }
  if (!o.results.empty()) usage.error("--results needs --batch");
  if (o.threads != 1) usage.error("--threads needs --batch");
  if (o.job.model.empty()) usage.error("no model given");
  if (o.job.inputs.empty()) usage.error("--inputs is required");
  if (o.job.outputs.empty()) usage.error("--outputs is required");
  return o;
}

// The EValue for one input, checked against the method's declared input.
et::EValue make_input(size_t index, BinTensor& t, const et::MethodMeta& meta,
                      std::vector<ext::TensorPtr>& keep) {
  auto tag = meta.input_tag(index);
  if (!tag.ok())
    throw std::runtime_error(fail("input " + std::to_string(index) + " tag", tag.error()));
  std::string where = "input " + std::to_string(index) + " (" + mlxd::runner::describe(t) + ")";
  switch (tag.get()) {
    case et::Tag::Tensor: {
      if (t.kind != EntryKind::tensor)
        throw std::runtime_error(where + ": the method expects a tensor");
      mlxd::delegate::ScalarType st;
      if (!mlxd::delegate::to_scalar_type(t.dtype, &st))
        throw std::runtime_error(where + ": bad dtype");
      auto info = meta.input_tensor_meta(index);
      if (info.ok() && info->scalar_type() != st) {
        DType want = DType::Float32;
        mlxd::delegate::to_ir_dtype(info->scalar_type(), &want);
        throw std::runtime_error(where + ": the method expects " + mlxd::dtype_name(want));
      }
      if (info.ok() && info->sizes().size() != t.shape.size()) {
        throw std::runtime_error(where + ": the method expects rank " +
                                 std::to_string(info->sizes().size()));
      }
      std::vector<executorch::aten::SizesType> sizes;
      for (int64_t d : t.shape) sizes.push_back(static_cast<executorch::aten::SizesType>(d));
      keep.push_back(ext::from_blob(t.data.data(), std::move(sizes), st));
      return et::EValue(*keep.back());
    }
    case et::Tag::Int: {
      if (t.dtype != DType::Int64 && t.dtype != DType::Int32) {
        throw std::runtime_error(where + ": the method expects an int");
      }
      int64_t v = 0;
      if (t.dtype == DType::Int64 && t.data.size() == 8) std::memcpy(&v, t.data.data(), 8);
      if (t.dtype == DType::Int32 && t.data.size() == 4) {
        int32_t w;
        std::memcpy(&w, t.data.data(), 4);
        v = w;
      }
      return et::EValue(v);
    }
    case et::Tag::Double: {
      if (t.dtype != DType::Float64 || t.data.size() != 8) {
        throw std::runtime_error(where + ": the method expects a float64 scalar");
      }
      double v;
      std::memcpy(&v, t.data.data(), 8);
      return et::EValue(v);
    }
    case et::Tag::Bool: {
      if (t.dtype != DType::Bool || t.data.size() != 1) {
        throw std::runtime_error(where + ": the method expects a bool scalar");
      }
      return et::EValue(t.data[0] != 0);
    }
    default:
      throw std::runtime_error(where + ": unsupported input kind (tag " +
                               std::to_string(static_cast<int>(tag.get())) + ")");
  }
}

BinTensor from_output(size_t index, const et::EValue& v) {
  BinTensor b;
  std::string where = "output " + std::to_string(index);
  if (v.isTensor()) {
    const auto& t = v.toTensor();
    if (!mlxd::delegate::to_ir_dtype(t.scalar_type(), &b.dtype)) {
      throw std::runtime_error(where + ": dtype " +
                               std::to_string(static_cast<int>(t.scalar_type())) +
                               " has no .bin code");
    }
    for (auto s : t.sizes()) b.shape.push_back(static_cast<int64_t>(s));
    const auto* p = static_cast<const uint8_t*>(t.const_data_ptr());
    b.data.assign(p, p + t.nbytes());
    return b;
  }
  b.kind = EntryKind::scalar;
  if (v.isInt()) {
    b.dtype = DType::Int64;
    int64_t x = v.toInt();
    b.data.resize(8);
    std::memcpy(b.data.data(), &x, 8);
  } else if (v.isDouble()) {
    b.dtype = DType::Float64;
    double x = v.toDouble();
    b.data.resize(8);
    std::memcpy(b.data.data(), &x, 8);
  } else if (v.isBool()) {
    b.dtype = DType::Bool;
    b.data.assign(1, v.toBool() ? 1 : 0);
  } else {
    throw std::runtime_error(where + ": not a tensor or a scalar (tag " +
                             std::to_string(static_cast<int>(v.tag)) + ")");
  }
  return b;
}

// What one run of a job measured, and its outputs.
struct JobReport {
  double load_ms = 0;
  std::vector<double> times_ms;  // the timed runs
  std::vector<BinTensor> outputs;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Loads the job's program and method, checks and binds its inputs, runs it
// (warm-up, then timed runs) and writes the outputs of the last run. Throws
// std::runtime_error with the reason on any failure. Single runs and batch
// jobs both come here.
JobReport run_job(const Job& job, const Options& o) {
  std::vector<BinTensor> inputs = mlxd::runner::read_tensor_file(job.inputs);

  std::unique_ptr<ext::Module> module;
  if (o.data.empty()) {
    module = std::make_unique<ext::Module>(job.model, ext::Module::LoadMode::Mmap);
  } else {
    module = std::make_unique<ext::Module>(job.model, o.data, ext::Module::LoadMode::Mmap);
  }
  et::Error err = module->load();
  if (err != et::Error::Ok) throw std::runtime_error(fail("loading " + job.model, err));

  JobReport report;
  auto t0 = std::chrono::steady_clock::now();
  mlxd::runner::load_method(*module, o.method, job.device.empty() ? o.device : job.device,
                            job.model);
  report.load_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  auto meta = module->method_meta(o.method);
  if (!meta.ok()) throw std::runtime_error(fail("method_meta", meta.error()));
  if (meta->num_inputs() != inputs.size()) {
    throw std::runtime_error(job.inputs + " holds " + std::to_string(inputs.size()) +
                             " inputs; method '" + o.method + "' takes " +
                             std::to_string(meta->num_inputs()));
  }
  std::vector<ext::TensorPtr> keep;
  std::vector<et::EValue> values;
  for (size_t i = 0; i < inputs.size(); ++i) {
    values.push_back(make_input(i, inputs[i], meta.get(), keep));
  }

  std::vector<et::EValue> outputs;
  for (int i = 0; i < o.warmup + o.repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto result = module->execute(o.method, values);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (!result.ok()) throw std::runtime_error(fail("running '" + o.method + "'", result.error()));
    if (i >= o.warmup) report.times_ms.push_back(ms);
    if (i + 1 == o.warmup + o.repeat) outputs = std::move(result.get());
  }

  for (size_t i = 0; i < outputs.size(); ++i) report.outputs.push_back(from_output(i, outputs[i]));
  mlxd::runner::write_tensor_file(job.outputs, report.outputs);
  return report;
}

void print_report(const Job& job, const Options& o, const JobReport& report) {
  const auto& times = report.times_ms;
  std::printf("model: %s (method %s, loaded in %.2f ms)\n", job.model.c_str(), o.method.c_str(),
              report.load_ms);
  for (size_t i = 0; i < report.outputs.size(); ++i) {
    std::printf("output %zu: %s\n", i, mlxd::runner::describe(report.outputs[i]).c_str());
  }
  std::printf("runs: %zu (warm-up %d); latency ms: median %.4f min %.4f max %.4f\n", times.size(),
              o.warmup, median(times), *std::min_element(times.begin(), times.end()),
              *std::max_element(times.begin(), times.end()));
  std::printf("wrote %zu output(s) to %s\n", report.outputs.size(), job.outputs.c_str());
}

// The jobs of a jobs file: "MODEL IN OUT [DEVICE]" per line, blank and # lines skipped.
std::vector<Job> read_jobs(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot open the jobs file");
  std::vector<Job> jobs;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream words(line);
    Job job;
    std::string extra;
    if (!(words >> job.model) || job.model[0] == '#') continue;
    if (!(words >> job.inputs >> job.outputs) || ((words >> job.device) && (words >> extra))) {
      throw std::runtime_error(path + ":" + std::to_string(number) +
                               ": expected 'MODEL.pte IN.bin OUT.bin [DEVICE]', got '" + line +
                               "'");
    }
    jobs.push_back(job);
  }
  return jobs;
}

// A message on one line of the results file.
std::string one_line(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  }
  return text;
}

int run_batch(const Options& o) {
  std::vector<Job> jobs = read_jobs(o.batch);
  FILE* results = stdout;
  if (!o.results.empty()) {
    results = std::fopen(o.results.c_str(), "w");
    if (!results) throw std::runtime_error(o.results + ": cannot open for writing");
  }
  // Workers take the next job number under the lock and write their lines
  // under it; the jobs themselves run unlocked, concurrently with --threads.
  std::mutex mu;
  size_t next = 0;
  size_t failed = 0;
  auto worker = [&]() {
    for (;;) {
      size_t n;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (next == jobs.size()) return;
        n = next++;
        std::fprintf(stderr, "mlxd-run: job %zu: %s\n", n, jobs[n].model.c_str());
      }
      std::string line;
      bool ok = false;
      try {
        JobReport report = run_job(jobs[n], o);
        char buf[96];
        std::snprintf(buf, sizeof buf, "%zu\tok\t%.4f\t%.4f\n", n, report.load_ms,
                      median(report.times_ms));
        line = buf;
        ok = true;
      } catch (const std::exception& e) {
        line = std::to_string(n) + "\terror\t" + one_line(e.what()) + "\n";
      }
      std::lock_guard<std::mutex> lock(mu);
      if (!ok) ++failed;
      std::fputs(line.c_str(), results);
      std::fflush(results);  // a later job that crashes the process keeps this line
    }
  };
  auto start = std::chrono::steady_clock::now();
  size_t n_threads = std::min(static_cast<size_t>(o.threads), std::max<size_t>(jobs.size(), 1));
  if (n_threads <= 1) {
    worker();
  } else {
    std::vector<std::thread> pool;
    for (size_t t = 0; t < n_threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
  }
  double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (results != stdout) std::fclose(results);
  std::fprintf(stderr, "mlxd-run: %zu job(s), %zu failed; %.1f ms on %zu thread(s)\n", jobs.size(),
               failed, wall_ms, std::max<size_t>(n_threads, 1));
  return failed ? 1 : 0;
}

int run(const Options& o) {
  et::runtime_init();
  if (mlxd_delegate_registered() != 1) {
    std::fprintf(stderr, "mlxd-run: the MLX delegate backend is not registered\n");
    return 1;
  }
  if (!o.batch.empty()) return run_batch(o);
  JobReport report = run_job(o.job, o);
  if (!o.quiet) print_report(o.job, o, report);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);
  try {
    return run(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mlxd-run: %s\n", e.what());
    return 1;
  }
}
