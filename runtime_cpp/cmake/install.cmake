# Install rules (layouts: cmake/install_layout.cmake) and the CMake package
# they export: find_package(mlx_delegate CONFIG) gives
#   mlx_delegate::plugin_interface  the plugin interface headers (include/mlx_delegate/ and the
#                                   schema facts they expand: mlx_dtypes.h, mlx_payload.h)
#   mlx_delegate::host              libmlx_delegate_host (registry + C API; plugins in
#                                   lib/backends/ next to it)
#   mlx_delegate::delegate          libmlx_delegate (the ExecuTorch backend), when built
# and mlx_delegate_VERSION (the Python package's version).
include(CMakePackageConfigHelpers)

install(TARGETS mlxd_interface mlx_delegate_host EXPORT mlx_delegate_targets
  LIBRARY DESTINATION "${MLXD_INSTALL_LIBDIR}" COMPONENT runtime
  ARCHIVE DESTINATION "${MLXD_INSTALL_LIBDIR}" COMPONENT runtime
  RUNTIME DESTINATION "${MLXD_INSTALL_BINDIR}" COMPONENT runtime)
install(FILES
  include/mlx_delegate/backend_interface.h
  include/mlx_delegate/backend_plugin.h
  include/mlx_delegate/delegate_c_api.h
  include/mlx_delegate/host_c_api.h
  include/mlx_delegate/json_writer.h
  include/mlx_delegate/load_error.h
  include/mlx_delegate/payload_header.h
  include/mlx_delegate/registry.h
  DESTINATION "${MLXD_INSTALL_INCLUDEDIR}/mlx_delegate" COMPONENT runtime)
install(FILES "${MLXD_GENERATED_DIR}/mlx_dtypes.h" "${MLXD_GENERATED_DIR}/mlx_payload.h"
  DESTINATION "${MLXD_INSTALL_INCLUDEDIR}/mlx_delegate/schema" COMPONENT runtime)

# The plugins: fronts and implementations, in backends/ next to the host
# (MLXD_INSTALL_PLUGINDIR), one component each (plugin_<name>), so that a
# plugin package installs its plugin alone (packages/mlx-delegate-cuda).
get_property(_mlxd_plugins GLOBAL PROPERTY MLXD_PLUGINS)
foreach(name IN LISTS _mlxd_plugins)
  get_property(_mlxd_plugin GLOBAL PROPERTY MLXD_PLUGIN_${name})
  list(FILTER _mlxd_plugin INCLUDE REGEX "^IMPL=")
  string(REPLACE "IMPL=" "" _mlxd_impl "${_mlxd_plugin}")
  install(TARGETS mlx-${name} ${_mlxd_impl}
    LIBRARY DESTINATION "${MLXD_INSTALL_PLUGINDIR}" COMPONENT plugin_${name})
endforeach()

set(MLXD_EXPORT_DELEGATE OFF)
if(TARGET mlx_delegate)
  set(MLXD_EXPORT_DELEGATE ON)
  install(TARGETS mlx_delegate EXPORT mlx_delegate_targets
    LIBRARY DESTINATION "${MLXD_INSTALL_LIBDIR}" COMPONENT runtime)
  install(TARGETS mlxd-run mlxd-generate mlxd-transcribe
    RUNTIME DESTINATION "${MLXD_INSTALL_BINDIR}" COMPONENT runtime)
endif()
if(TARGET mlx_delegate_static)
  install(TARGETS mlx_delegate_static
    LIBRARY DESTINATION "${MLXD_INSTALL_LIBDIR}/static" COMPONENT runtime)
endif()

install(EXPORT mlx_delegate_targets NAMESPACE mlx_delegate::
  DESTINATION "${MLXD_INSTALL_CMAKEDIR}" COMPONENT runtime)
configure_package_config_file(cmake/mlx_delegateConfig.cmake.in
  "${CMAKE_CURRENT_BINARY_DIR}/mlx_delegateConfig.cmake"
  INSTALL_DESTINATION "${MLXD_INSTALL_CMAKEDIR}")
write_basic_package_version_file("${CMAKE_CURRENT_BINARY_DIR}/mlx_delegateConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_CURRENT_BINARY_DIR}/mlx_delegateConfig.cmake"
  "${CMAKE_CURRENT_BINARY_DIR}/mlx_delegateConfigVersion.cmake"
  DESTINATION "${MLXD_INSTALL_CMAKEDIR}" COMPONENT runtime)

# The wheel's Python side: codegen's templates and formatting rules, the
# schema and the generated code, where the packages look for them when
# installed (codegen/resources.py, mlx_delegate/_layout.py).
if(MLXD_WHEEL_LAYOUT)
  install(DIRECTORY "${MLXD_REPO_ROOT}/templates/" DESTINATION codegen/templates
    COMPONENT python)
  install(FILES "${MLXD_REPO_ROOT}/.clang-format" DESTINATION codegen COMPONENT python)
  install(DIRECTORY "${MLXD_REPO_ROOT}/generated/" DESTINATION mlx_delegate/generated
    COMPONENT python PATTERN "__pycache__" EXCLUDE)
  install(DIRECTORY "${MLXD_REPO_ROOT}/schema/" DESTINATION mlx_delegate/schema
    COMPONENT python FILES_MATCHING PATTERN "*.fbs")
endif()
