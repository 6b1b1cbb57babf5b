/* C API of the mlx-delegate ExecuTorch backend library (libmlx_delegate.so),
 * for ctypes (mlx_delegate/host/c_api.py) and the runners. The backend itself is
 * registered with ExecuTorch by the library's static initializer; these calls
 * only ask about it and set its process-wide options. No C++ exception
 * escapes. */
#ifndef MLX_DELEGATE_DELEGATE_C_API_H
#define MLX_DELEGATE_DELEGATE_C_API_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef MLXD_EXPORT
#define MLXD_EXPORT __attribute__((visibility("default")))
#endif

/* The backend id ("MLXDelegateBackend"). */
MLXD_EXPORT const char* mlxd_delegate_backend_id(void);

/* 1 when this library's backend is the one ExecuTorch resolves for the id. */
MLXD_EXPORT int mlxd_delegate_registered(void);

/* Sets (or, with NULL / "" / "auto", clears) the process-wide device
 * override; 0 on success, -1 for a malformed device string. */
MLXD_EXPORT int mlxd_delegate_set_device(const char* device);

/* 1 when the payload check also verifies the FlatBuffer. */
MLXD_EXPORT int mlxd_delegate_verifies_flatbuffer(void);

/* Checks a payload as the backend's init() does (header, bounds,
 * FlatBuffer); 0 if valid, -1 otherwise with the reason copied into `error`
 * (may be NULL). */
MLXD_EXPORT int mlxd_delegate_check_payload(const void* data, size_t size, char* error,
                                            size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
