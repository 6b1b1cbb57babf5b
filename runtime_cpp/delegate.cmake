# The ExecuTorch side of the runtime: libmlx_delegate.so (the
# "MLXDelegateBackend" ExecuTorch backend, registered from a static
# initializer; links libexecutorch.so and the host library, no MLX) and the
# C++ runner mlxd-run. Included from CMakeLists.txt after the host library and
# find_package(executorch) (see README.md in this folder).

if(NOT executorch_FOUND OR NOT TARGET executorch::runtime)
  message(STATUS "mlx-delegate: no executorch::runtime target; "
                 "libmlx_delegate and mlxd-run are not built")
  return()
endif()

# The payload check also runs the FlatBuffer verifier when the generated
# schema header and the flatbuffers headers are at hand (header-only; no
# MLX).
set(MLXD_DELEGATE_VERIFY_FLATBUFFER 0)
if(EXISTS "${MLXD_GENERATED_DIR}/schema_generated.h" AND MLXD_FLATBUFFERS_INCLUDE_DIR
   AND EXISTS "${MLXD_FLATBUFFERS_INCLUDE_DIR}/flatbuffers/flatbuffers.h")
  set(MLXD_DELEGATE_VERIFY_FLATBUFFER 1)
endif()
message(STATUS "mlx-delegate: delegate FlatBuffer verifier: ${MLXD_DELEGATE_VERIFY_FLATBUFFER}")

# --- libmlx_delegate.so ------------------------------------------------------
# Compiled once: linked with the host library here, and into the static
# build's library (MLXD_STATIC_BACKENDS).
add_library(mlxd_delegate_objects OBJECT
  src/delegate/mlx_delegate_backend.cpp
  src/delegate/device_policy.cpp
  src/delegate/evalue_marshalling.cpp
  src/delegate/payload.cpp)
target_include_directories(mlxd_delegate_objects PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src/delegate)
if(MLXD_DELEGATE_VERIFY_FLATBUFFER)
  target_include_directories(mlxd_delegate_objects SYSTEM PRIVATE
    "${MLXD_GENERATED_DIR}" "${MLXD_FLATBUFFERS_INCLUDE_DIR}")
endif()
target_compile_definitions(mlxd_delegate_objects PRIVATE
  MLXD_DELEGATE_VERIFY_FLATBUFFER=${MLXD_DELEGATE_VERIFY_FLATBUFFER})
target_compile_options(mlxd_delegate_objects PRIVATE ${MLXD_WARNINGS})
target_link_libraries(mlxd_delegate_objects PUBLIC mlxd_interface executorch::runtime
  PRIVATE mlxd_log)
set_target_properties(mlxd_delegate_objects PROPERTIES
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)

# The folder of libexecutorch.so, for the installed RPATHs.
get_target_property(_mlxd_et_lib executorch::runtime IMPORTED_LOCATION)
get_filename_component(MLXD_EXECUTORCH_LIBDIR "${_mlxd_et_lib}" DIRECTORY)

add_library(mlx_delegate SHARED)
target_link_libraries(mlx_delegate PRIVATE mlxd_delegate_objects
  PUBLIC mlx_delegate_host executorch::runtime)
# $ORIGIN finds libmlx_delegate_host.so next to it; in the build tree the
# imported libexecutorch.so is found through the RUNPATH CMake records for it.
mlxd_rpath(_mlxd_delegate_rpath "${MLXD_INSTALL_LIBDIR}" "${MLXD_INSTALL_LIBDIR}"
           "${MLXD_EXECUTORCH_LIBDIR}")
set_target_properties(mlx_delegate PROPERTIES
  LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}" EXPORT_NAME delegate
  BUILD_RPATH "\$ORIGIN" INSTALL_RPATH "${_mlxd_delegate_rpath}")

# --- mlxd-run ---------------------------------------------------------------
option(MLXD_RUNNER_KERNELS
  "Link ExecuTorch's CPU operator kernels into mlxd-run (for ops left outside the delegate)" ON)
add_library(mlxd_runner_common STATIC src/runner/runner_common.cpp src/runner/ranks.cpp)
target_compile_options(mlxd_runner_common PRIVATE ${MLXD_WARNINGS})
target_link_libraries(mlxd_runner_common PUBLIC mlx_delegate executorch::runtime)
set_target_properties(mlxd_runner_common PROPERTIES POSITION_INDEPENDENT_CODE ON)

# The .bin tensor file of mlxd-run and mlxd-transcribe: read and written through
# flatc's header for schema/tensor_file.fbs (header-only flatbuffers).
if(NOT EXISTS "${MLXD_GENERATED_DIR}/tensor_file_generated.h" OR NOT MLXD_FLATBUFFERS_INCLUDE_DIR
   OR NOT EXISTS "${MLXD_FLATBUFFERS_INCLUDE_DIR}/flatbuffers/flatbuffers.h")
  message(FATAL_ERROR "mlx-delegate: the runners read tensor files through "
    "${MLXD_GENERATED_DIR}/tensor_file_generated.h and the flatbuffers headers "
    "(MLXD_FLATBUFFERS_INCLUDE_DIR='${MLXD_FLATBUFFERS_INCLUDE_DIR}'): run "
    "`python -m codegen generate` and point MLXD_FLATBUFFERS_INCLUDE_DIR at the flatc "
    "package's include/")
endif()
add_library(mlxd_tensor_bin STATIC src/runner/tensor_bin.cpp)
target_include_directories(mlxd_tensor_bin PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src/runner)
target_include_directories(mlxd_tensor_bin SYSTEM PRIVATE
  "${MLXD_GENERATED_DIR}" "${MLXD_FLATBUFFERS_INCLUDE_DIR}")
target_compile_options(mlxd_tensor_bin PRIVATE ${MLXD_WARNINGS})
target_link_libraries(mlxd_tensor_bin PUBLIC mlxd_interface)
set_target_properties(mlxd_tensor_bin PROPERTIES POSITION_INDEPENDENT_CODE ON)

add_executable(mlxd-run src/runner/mlxd_run.cpp)
target_include_directories(mlxd-run PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/delegate ${CMAKE_CURRENT_SOURCE_DIR}/src/runner)
target_compile_options(mlxd-run PRIVATE ${MLXD_WARNINGS})
# The runner calls into libmlx_delegate.so (mlxd_delegate_registered), so the
# library and its static registration are always linked in.
target_link_libraries(mlxd-run PRIVATE mlxd_runner_common mlxd_tensor_bin)
if(MLXD_RUNNER_KERNELS AND TARGET executorch::kernels_optimized)
  target_link_libraries(mlxd-run PRIVATE executorch::kernels_optimized)
  message(STATUS "mlx-delegate: mlxd-run links executorch::kernels_optimized")
endif()
mlxd_rpath(_mlxd_run_rpath "${MLXD_INSTALL_BINDIR}" "${MLXD_INSTALL_LIBDIR}"
           "${MLXD_EXECUTORCH_LIBDIR}")
set_target_properties(mlxd-run PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}"
  BUILD_RPATH "\$ORIGIN" INSTALL_RPATH "${_mlxd_run_rpath}")

# --- mlxd-generate ----------------------------------------------------------
# Token generation from a .pte of `python -m mlx_delegate.llm export`; the whole
# program runs in the delegate, so no CPU kernels are linked.
add_executable(mlxd-generate src/runner/mlxd_generate.cpp)
target_compile_options(mlxd-generate PRIVATE ${MLXD_WARNINGS})
target_link_libraries(mlxd-generate PRIVATE mlxd_runner_common)
set_target_properties(mlxd-generate PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}"
  BUILD_RPATH "\$ORIGIN" INSTALL_RPATH "${_mlxd_run_rpath}")

# --- mlxd-transcribe --------------------------------------------------------
# Whisper token ids from a .pte of `python -m mlx_delegate.asr export` and
# log-mel features in a tensor file; the whole program runs in the delegate.
add_executable(mlxd-transcribe src/runner/mlxd_transcribe.cpp)
target_include_directories(mlxd-transcribe PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR}/src/delegate ${CMAKE_CURRENT_SOURCE_DIR}/src/runner)
target_compile_options(mlxd-transcribe PRIVATE ${MLXD_WARNINGS})
target_link_libraries(mlxd-transcribe PRIVATE mlxd_runner_common mlxd_tensor_bin)
set_target_properties(mlxd-transcribe PROPERTIES
  RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}"
  BUILD_RPATH "\$ORIGIN" INSTALL_RPATH "${_mlxd_run_rpath}")
