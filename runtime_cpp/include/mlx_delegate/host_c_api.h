/* C API of the mlx-delegate host library (libmlx_delegate_host.so), for
 * ctypes and other FFI callers. Functions returning int give 0 (or a count)
 * on success and -1 on failure, with the message in mlxd_last_error().
 * Returned strings are owned by the library and valid until the next call
 * of the same function on the same thread. No C++ exception escapes. */
#ifndef MLX_DELEGATE_HOST_C_API_H
#define MLX_DELEGATE_HOST_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MLXD_EXPORT __attribute__((visibility("default")))

/* Message of the last failed call on this thread ("" if none). */
MLXD_EXPORT const char* mlxd_last_error(void);

/* Host ABI descriptor and API version, as JSON. */
MLXD_EXPORT const char* mlxd_host_info_json(void);

/* Registry. Glob lists may be NULL (n = 0). Returns backends newly loaded. */
MLXD_EXPORT int mlxd_load_all(const char* const* allowed, int n_allowed, const char* const* blocked,
                              int n_blocked);
/* As mlxd_load_all, with a custom filter called after scoring and before
 * init with the candidate's name ("cpu-openblas") and score; return 0 to
 * skip it (reason "filter"). `callback` may be NULL. */
typedef int (*mlxd_filter_callback)(const char* name, int score, void* user_data);
MLXD_EXPORT int mlxd_load_all_filtered(const char* const* allowed, int n_allowed,
                                       const char* const* blocked, int n_blocked,
                                       mlxd_filter_callback callback, void* user_data);
MLXD_EXPORT int mlxd_load(const char* path);
MLXD_EXPORT int mlxd_load_best(const char* name);

/* [{"name","group","variant","score","device_type","device_count",
 *   "first_index","path","api_version","device_properties":[...]}] */
MLXD_EXPORT const char* mlxd_backends_json(void);
/* [{"path","group","variant","status":"loaded"|"skipped","reason","message","score"}] */
MLXD_EXPORT const char* mlxd_report_json(void);
/* ["dir", ...] */
MLXD_EXPORT const char* mlxd_search_paths_json(void);
/* Appends a plugin folder to the search paths (BackendRegistry::add_search_path):
 * 1 when added, 0 when not (MLX_BACKEND_PATH set, already there, static build). */
MLXD_EXPORT int mlxd_add_search_path(const char* dir);

/* device_type: 0 = cpu, 1 = gpu. */
MLXD_EXPORT int mlxd_is_available(int device_type);
MLXD_EXPORT int mlxd_device_count(int device_type);

/* Resolves "cpu", "gpu:1", ... to {"backend","path","local_index",...};
 * NULL with mlxd_last_error() set when no backend owns the device. */
MLXD_EXPORT const char* mlxd_resolve_device_json(const char* device);

/* Memory routing. `function` is one of get_active_memory, get_peak_memory,
 * reset_peak_memory, get_cache_memory, set_cache_limit, set_memory_limit,
 * get_memory_limit, set_wired_limit, clear_cache; `device` NULL = the
 * no-device form. `value` is the limit for setters; the result (or 0) is
 * stored in *result. */
MLXD_EXPORT int mlxd_memory(const char* function, const char* device, uint64_t value,
                            uint64_t* result);

/* Runs a backend built-in kernel ("matmul", "add") on float32 row-major
 * matrices a (m x k) and b (k x n) into out (m x n; for "add" all m x n) on
 * `device`, repeating `repeat` times after a warm-up; *seconds is the time
 * per repetition. */
MLXD_EXPORT int mlxd_run_builtin_f32(const char* device, const char* op, const float* a,
                                     const float* b, float* out, int64_t m, int64_t k, int64_t n,
                                     int repeat, double* seconds);

/* Programs (for tests and tools; the ExecuTorch delegate uses the C++ API).
 * dtype codes are mlxd::DType (= the IR schema's DType: 0 float32, 1
 * float16, 2 bfloat16, 3 int32, 4 int64, 5 int8, 6 uint8, 7 bool, ...).
 *
 * mlxd_program_load: loads a delegate payload (MLX0 header optional) on
 * `device` ("cpu", "gpu:0"); constants are copied and bound by name.
 * Returns NULL with mlxd_last_error() set on failure. */
typedef struct mlxd_program mlxd_program;
MLXD_EXPORT mlxd_program* mlxd_program_load(const char* device, const uint8_t* payload,
                                            uint64_t size, const char* const* constant_names,
                                            const void* const* constant_data,
                                            const uint64_t* constant_sizes, int n_constants);
MLXD_EXPORT void mlxd_program_free(mlxd_program* program);
/* {"backend","device","num_inputs","num_outputs"} */
MLXD_EXPORT const char* mlxd_program_info_json(mlxd_program* program);
/* Runs the program. Input i: dtypes[i], ndims[i], its dims at
 * shapes[offset...] (dims of all inputs concatenated), data[i], nbytes[i].
 * Outputs stay in the program until the next call: mlxd_program_output. */
MLXD_EXPORT int mlxd_program_execute(mlxd_program* program, int n_inputs, const int32_t* dtypes,
                                     const int32_t* ndims, const int64_t* shapes,
                                     const void* const* data, const uint64_t* nbytes);
/* Output i of the last execution: dtype, ndim, up to 16 dims in shape,
 * a pointer to its bytes (owned by the program) and their count. */
MLXD_EXPORT int mlxd_program_output(mlxd_program* program, int index, int32_t* dtype, int32_t* ndim,
                                    int64_t* shape, const void** data, uint64_t* nbytes);

#ifdef __cplusplus
}
#endif

#endif
