#include "mlx_delegate/host_c_api.h"

#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "mlx_delegate/backend_plugin.h"
#include "mlx_delegate/json_writer.h"
#include "mlx_delegate/registry.h"

struct mlxd_program {
  mlxd::BackendInterface* backend = nullptr;
  std::string backend_name;
  std::string device;
  std::vector<std::vector<uint8_t>> constant_bytes;  // outlive the program
  std::unordered_map<std::string, size_t> constant_index;
  std::unique_ptr<mlxd::ProgramHandle> handle;
  std::vector<mlxd::OutputBuffer> outputs;
  std::vector<std::vector<uint8_t>> output_bytes;
  std::string info;
};

namespace {

thread_local std::string g_error;

std::string properties_json(const mlxd::BackendInfo::PropertyMap& props) {
  std::string out = "{";
  bool first = true;
  for (const auto& [key, value] : props) {
    out += (first ? "" : ",");
    out += mlxd::json_string(key) + ":";
    first = false;
    if (const auto* s = std::get_if<std::string>(&value)) {
      out += mlxd::json_string(*s);
    } else {
      out += std::to_string(std::get<size_t>(value));
    }
  }
  return out + "}";
}

std::string loaded_json(const mlxd::LoadedBackend& lb) {
  std::ostringstream os;
  os << "{\"name\":" << mlxd::json_string(lb.info.name)
     << ",\"group\":" << mlxd::json_string(lb.group)
     << ",\"variant\":" << mlxd::json_string(lb.variant) << ",\"score\":" << lb.score
     << ",\"device_type\":" << mlxd::json_string(mlxd::device_type_name(lb.info.device_type))
     << ",\"device_count\":" << lb.info.device_count << ",\"first_index\":" << lb.first_index
     << ",\"path\":" << mlxd::json_string(lb.library_path) << ",\"device_properties\":[";
  for (size_t i = 0; i < lb.info.device_properties.size(); ++i) {
    os << (i ? "," : "") << properties_json(lb.info.device_properties[i]);
  }
  os << "]}";
  return os.str();
}

template <typename F>
int guarded(F&& f) {
  try {
    g_error.clear();
    return f();
  } catch (const std::exception& e) {
    g_error = e.what();
  } catch (...) {
    g_error = "unknown error";
  }
  return -1;
}

}  // namespace

extern "C" {

const char* mlxd_last_error(void) { return g_error.c_str(); }

const char* mlxd_host_info_json(void) {
  thread_local std::string out;
  MLX_BackendABIInfo abi = mlx_make_abi_info();
  std::ostringstream os;
  os << "{\"api_version\":" << MLX_BACKEND_API_VERSION
     << ",\"compiler_id\":" << mlxd::json_string(abi.compiler_id)
     << ",\"compiler_major\":" << abi.compiler_major << ",\"compiler_minor\":" << abi.compiler_minor
     << ",\"stdlib_id\":" << mlxd::json_string(abi.stdlib_id)
     << ",\"sizeof_string\":" << abi.sizeof_string
     << ",\"sizeof_BackendInfo\":" << abi.sizeof_BackendInfo << "}";
  out = os.str();
  return out.c_str();
}

int mlxd_load_all(const char* const* allowed, int n_allowed, const char* const* blocked,
                  int n_blocked) {
  return guarded([&] {
    mlxd::BackendFilter filter;
    for (int i = 0; i < n_allowed; ++i) filter.allowed_names.emplace_back(allowed[i]);
    for (int i = 0; i < n_blocked; ++i) filter.blocked_names.emplace_back(blocked[i]);
    return mlxd::BackendRegistry::instance().load_all(&filter);
  });
}

int mlxd_load_all_filtered(const char* const* allowed, int n_allowed, const char* const* blocked,
                           int n_blocked, mlxd_filter_callback callback, void* user_data) {
  return guarded([&] {
    mlxd::BackendFilter filter;
    for (int i = 0; i < n_allowed; ++i) filter.allowed_names.emplace_back(allowed[i]);
    for (int i = 0; i < n_blocked; ++i) filter.blocked_names.emplace_back(blocked[i]);
    if (callback != nullptr) {
      filter.custom_filter = [callback, user_data](const mlxd::BackendInfo& info) {
        return callback(info.name.c_str(), info.score, user_data) != 0;
      };
    }
    return mlxd::BackendRegistry::instance().load_all(&filter);
  });
}

int mlxd_load(const char* path) {
  return guarded([&] {
    if (path == nullptr) throw std::invalid_argument("path is NULL");
    mlxd::BackendRegistry::instance().load(path);
    return 0;
  });
}

int mlxd_load_best(const char* name) {
  return guarded([&] {
    if (name == nullptr) throw std::invalid_argument("name is NULL");
    mlxd::BackendRegistry::instance().load_best(name);
    return 0;
  });
}

const char* mlxd_backends_json(void) {
  thread_local std::string out;
  int rc = guarded([&] {
    std::string s = "[";
    bool first = true;
    for (const auto& lb : mlxd::BackendRegistry::instance().backends()) {
      s += (first ? "" : ",");
      s += loaded_json(lb);
      first = false;
    }
    out = s + "]";
    return 0;
  });
  return rc == 0 ? out.c_str() : nullptr;
}

const char* mlxd_report_json(void) {
  thread_local std::string out;
  int rc = guarded([&] {
    std::ostringstream os;
    os << "[";
    bool first = true;
    for (const auto& r : mlxd::BackendRegistry::instance().report()) {
      os << (first ? "" : ",") << "{\"path\":" << mlxd::json_string(r.path)
         << ",\"group\":" << mlxd::json_string(r.group)
         << ",\"variant\":" << mlxd::json_string(r.variant)
         << ",\"status\":" << (r.loaded ? "\"loaded\"" : "\"skipped\"")
         << ",\"reason\":" << mlxd::json_string(mlxd::reason_name(r.reason))
         << ",\"message\":" << mlxd::json_string(r.message) << ",\"score\":" << r.score << "}";
      first = false;
    }
    os << "]";
    out = os.str();
    return 0;
  });
  return rc == 0 ? out.c_str() : nullptr;
}

const char* mlxd_search_paths_json(void) {
  thread_local std::string out;
  int rc = guarded([&] {
    std::string s = "[";
    bool first = true;
    for (const auto& p : mlxd::BackendRegistry::instance().search_paths()) {
      s += (first ? "" : ",");
      s += mlxd::json_string(p);
      first = false;
    }
    out = s + "]";
    return 0;
  });
  return rc == 0 ? out.c_str() : nullptr;
}

int mlxd_add_search_path(const char* dir) {
  return guarded([&] {
    if (dir == nullptr) throw std::invalid_argument("mlxd_add_search_path: dir is NULL");
    return mlxd::BackendRegistry::instance().add_search_path(dir) ? 1 : 0;
  });
}

int mlxd_is_available(int device_type) {
  return guarded([&] {
    return mlxd::BackendRegistry::instance().is_available(device_type == 1 ? mlxd::DeviceType::gpu
                                                                           : mlxd::DeviceType::cpu)
               ? 1
               : 0;
  });
}

int mlxd_device_count(int device_type) {
  return guarded([&] {
    return mlxd::BackendRegistry::instance().device_count(device_type == 1 ? mlxd::DeviceType::gpu
                                                                           : mlxd::DeviceType::cpu);
  });
}

const char* mlxd_resolve_device_json(const char* device) {
  thread_local std::string out;
  int rc = guarded([&] {
    if (device == nullptr) throw std::invalid_argument("device is NULL");
    mlxd::Device d = mlxd::parse_device(device);
    int local = 0;
    const mlxd::LoadedBackend lb = mlxd::BackendRegistry::instance().resolve(d, &local);
    out = "{\"device\":" + mlxd::json_string(mlxd::to_string(d)) +
          ",\"local_index\":" + std::to_string(local) + ",\"backend\":" + loaded_json(lb) + "}";
    return 0;
  });
  return rc == 0 ? out.c_str() : nullptr;
}

int mlxd_memory(const char* function, const char* device, uint64_t value, uint64_t* result) {
  return guarded([&] {
    if (function == nullptr) throw std::invalid_argument("function is NULL");
    auto& reg = mlxd::BackendRegistry::instance();
    std::string fn = function;
    size_t r = 0;
    size_t v = static_cast<size_t>(value);
    if (device != nullptr) {
      mlxd::Device d = mlxd::parse_device(device);
      if (fn == "get_active_memory")
        r = reg.get_active_memory(d);
      else if (fn == "get_peak_memory")
        r = reg.get_peak_memory(d);
      else if (fn == "reset_peak_memory")
        reg.reset_peak_memory(d);
      else if (fn == "get_cache_memory")
        r = reg.get_cache_memory(d);
      else if (fn == "set_cache_limit")
        r = reg.set_cache_limit(d, v);
      else if (fn == "set_memory_limit")
        r = reg.set_memory_limit(d, v);
      else if (fn == "get_memory_limit")
        r = reg.get_memory_limit(d);
      else if (fn == "set_wired_limit")
        r = reg.set_wired_limit(d, v);
      else if (fn == "clear_cache")
        reg.clear_cache(d);
      else
        throw std::invalid_argument("unknown memory function '" + fn + "'");
    } else {
      if (fn == "get_active_memory")
        r = reg.get_active_memory();
      else if (fn == "get_peak_memory")
        r = reg.get_peak_memory();
      else if (fn == "reset_peak_memory")
        reg.reset_peak_memory();
      else if (fn == "get_cache_memory")
        r = reg.get_cache_memory();
      else if (fn == "set_cache_limit")
        r = reg.set_cache_limit(v);
      else if (fn == "set_memory_limit")
        r = reg.set_memory_limit(v);
      else if (fn == "get_memory_limit")
        r = reg.get_memory_limit();
      else if (fn == "set_wired_limit")
        r = reg.set_wired_limit(v);
      else if (fn == "clear_cache")
        reg.clear_cache();
      else
        throw std::invalid_argument("unknown memory function '" + fn + "'");
    }
    if (result != nullptr) *result = r;
    return 0;
  });
}

int mlxd_run_builtin_f32(const char* device, const char* op, const float* a, const float* b,
                         float* out, int64_t m, int64_t k, int64_t n, int repeat, double* seconds) {
  return guarded([&] {
    if (device == nullptr || op == nullptr || a == nullptr || b == nullptr || out == nullptr) {
      throw std::invalid_argument("NULL argument");
    }
    if (m <= 0 || k <= 0 || n <= 0) throw std::invalid_argument("dimensions must be positive");
    std::string o = op;
    mlxd::Device d = mlxd::parse_device(device);
    int local = 0;
    const mlxd::LoadedBackend lb = mlxd::BackendRegistry::instance().resolve(d, &local);
    std::vector<mlxd::TensorView> in(2);
    in[0].dtype = in[1].dtype = mlxd::DType::Float32;
    if (o == "matmul") {
      in[0].shape = {m, k};
      in[1].shape = {k, n};
    } else {
      in[0].shape = in[1].shape = {m, n};
    }
    in[0].data = a;
    in[0].nbytes = static_cast<size_t>(in[0].shape[0] * in[0].shape[1]) * sizeof(float);
    in[1].data = b;
    in[1].nbytes = static_cast<size_t>(in[1].shape[0] * in[1].shape[1]) * sizeof(float);
    std::vector<mlxd::OutputBuffer> outs(1);
    outs[0].data = out;
    outs[0].capacity = static_cast<size_t>(m * n) * sizeof(float);
    double s = lb.backend->run_builtin(o, local, in, outs, repeat < 1 ? 1 : repeat);
    if (seconds != nullptr) *seconds = s;
    return 0;
  });
}

mlxd_program* mlxd_program_load(const char* device, const uint8_t* payload, uint64_t size,
                                const char* const* constant_names, const void* const* constant_data,
                                const uint64_t* constant_sizes, int n_constants) {
  mlxd_program* result = nullptr;
  guarded([&] {
    if (device == nullptr) throw std::invalid_argument("device is NULL");
    if (payload == nullptr && size > 0) throw std::invalid_argument("payload is NULL");
    mlxd::Device d = mlxd::parse_device(device);
    int local = 0;
    const mlxd::LoadedBackend lb = mlxd::BackendRegistry::instance().resolve(d, &local);
    auto p = std::make_unique<mlxd_program>();
    p->backend = lb.backend;
    p->backend_name = lb.info.name;
    p->device = mlxd::to_string(d);
    for (int i = 0; i < n_constants; ++i) {
      if (constant_names == nullptr || constant_names[i] == nullptr) {
        throw std::invalid_argument("constant name is NULL");
      }
      const auto* bytes = static_cast<const uint8_t*>(constant_data ? constant_data[i] : nullptr);
      uint64_t n = constant_sizes ? constant_sizes[i] : 0;
      if (bytes == nullptr && n > 0) throw std::invalid_argument("constant data is NULL");
      p->constant_index[constant_names[i]] = p->constant_bytes.size();
      p->constant_bytes.emplace_back(bytes, bytes + n);
    }
    mlxd_program* raw = p.get();
    mlxd::ConstantResolver resolver = [raw](const std::string& name, mlxd::ConstantBuffer& out) {
      auto it = raw->constant_index.find(name);
      if (it == raw->constant_index.end()) return false;
      out.data = raw->constant_bytes[it->second].data();
      out.nbytes = raw->constant_bytes[it->second].size();
      return true;
    };
    p->handle = lb.backend->load_program(local, payload, static_cast<size_t>(size), resolver);
    result = p.release();
    return 0;
  });
  return result;
}

void mlxd_program_free(mlxd_program* program) {
  try {
    delete program;
  } catch (...) {
  }
}

const char* mlxd_program_info_json(mlxd_program* program) {
  int rc = guarded([&] {
    if (program == nullptr) throw std::invalid_argument("program is NULL");
    program->info = "{\"backend\":" + mlxd::json_string(program->backend_name) +
                    ",\"device\":" + mlxd::json_string(program->device) +
                    ",\"num_inputs\":" + std::to_string(program->handle->num_inputs()) +
                    ",\"num_outputs\":" + std::to_string(program->handle->num_outputs()) + "}";
    return 0;
  });
  return rc == 0 ? program->info.c_str() : nullptr;
}

int mlxd_program_execute(mlxd_program* program, int n_inputs, const int32_t* dtypes,
                         const int32_t* ndims, const int64_t* shapes, const void* const* data,
                         const uint64_t* nbytes) {
  return guarded([&] {
    if (program == nullptr) throw std::invalid_argument("program is NULL");
    if (n_inputs < 0 || (n_inputs > 0 && (dtypes == nullptr || ndims == nullptr ||
                                          data == nullptr || nbytes == nullptr))) {
      throw std::invalid_argument("bad input arrays");
    }
    std::vector<mlxd::TensorView> inputs(static_cast<size_t>(n_inputs));
    size_t offset = 0;
    for (int i = 0; i < n_inputs; ++i) {
      if (dtypes[i] < 0 || dtypes[i] > static_cast<int32_t>(mlxd::DType::Float64)) {
        throw std::invalid_argument("input " + std::to_string(i) + ": unknown dtype code " +
                                    std::to_string(dtypes[i]));
      }
      if (ndims[i] < 0 || ndims[i] > 16 || (ndims[i] > 0 && shapes == nullptr)) {
        throw std::invalid_argument("input " + std::to_string(i) + ": bad rank");
      }
      inputs[i].dtype = static_cast<mlxd::DType>(dtypes[i]);
      inputs[i].shape.assign(shapes + offset, shapes + offset + ndims[i]);
      offset += static_cast<size_t>(ndims[i]);
      inputs[i].data = data[i];
      inputs[i].nbytes = static_cast<size_t>(nbytes[i]);
    }
    size_t n_out = program->handle->num_outputs();
    program->outputs.assign(n_out, mlxd::OutputBuffer());
    program->output_bytes.assign(n_out, {});
    for (size_t i = 0; i < n_out; ++i) {
      auto* bytes = &program->output_bytes[i];
      program->outputs[i].prepare = [bytes](mlxd::DType, const std::vector<int64_t>&, size_t n) {
        bytes->resize(n > 0 ? n : 1);
        return static_cast<void*>(bytes->data());
      };
    }
    program->backend->execute(*program->handle, inputs, program->outputs);
    return 0;
  });
}

int mlxd_program_output(mlxd_program* program, int index, int32_t* dtype, int32_t* ndim,
                        int64_t* shape, const void** data, uint64_t* nbytes) {
  return guarded([&] {
    if (program == nullptr) throw std::invalid_argument("program is NULL");
    if (index < 0 || static_cast<size_t>(index) >= program->outputs.size()) {
      throw std::out_of_range("output index " + std::to_string(index) + " out of range (" +
                              std::to_string(program->outputs.size()) + " outputs)");
    }
    const mlxd::OutputBuffer& o = program->outputs[static_cast<size_t>(index)];
    if (o.shape.size() > 16) throw std::runtime_error("output has more than 16 dimensions");
    if (dtype) *dtype = static_cast<int32_t>(o.dtype);
    if (ndim) *ndim = static_cast<int32_t>(o.shape.size());
    if (shape) {
      for (size_t d = 0; d < o.shape.size(); ++d) shape[d] = o.shape[d];
    }
    if (data) *data = program->output_bytes[static_cast<size_t>(index)].data();
    if (nbytes) *nbytes = o.nbytes;
    return 0;
  });
}

}  // extern "C"
