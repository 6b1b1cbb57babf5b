# Where `cmake --install` puts things, and the RPATHs the installed libraries
# carry. Two layouts, one set of rules (install.cmake):
# - the usual prefix (lib/, lib/backends/, bin/, include/, lib/cmake/mlx_delegate/):
#   the dependencies (MLX, ExecuTorch, OpenBLAS) are found at the absolute
#   paths they were built against;
# - the Python wheel (MLXD_WHEEL_LAYOUT, on under scikit-build-core): the same
#   tree under mlx_delegate/ in site-packages, and the dependencies found
#   relative to it ($ORIGIN), in the site-packages their wheels are installed in.
# One build tree serves both: pyproject.toml configures it with the wheel's
# layout, build.sh and the presets without, each explicitly.
include(GNUInstallDirs)
option(MLXD_WHEEL_LAYOUT "Install as the Python wheel lays it out (see cmake/install_layout.cmake)"
       OFF)
if(MLXD_WHEEL_LAYOUT)  # where mlx_delegate/_layout.py looks
  set(MLXD_INSTALL_LIBDIR "mlx_delegate/lib")
  set(MLXD_INSTALL_BINDIR "mlx_delegate/bin")
  set(MLXD_INSTALL_INCLUDEDIR "mlx_delegate/include")
else()
  set(MLXD_INSTALL_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
  set(MLXD_INSTALL_BINDIR "${CMAKE_INSTALL_BINDIR}")
  set(MLXD_INSTALL_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
endif()
set(MLXD_INSTALL_CMAKEDIR "${MLXD_INSTALL_LIBDIR}/cmake/mlx_delegate")
# Where the plugins go: backends/ next to the host, where it searches; a plugin
# package puts its plugin in a folder of its own (packages/mlx-delegate-cuda).
set(MLXD_INSTALL_PLUGINDIR "" CACHE STRING "Plugin install folder (default: LIBDIR/backends)")
if(NOT MLXD_INSTALL_PLUGINDIR)
  set(MLXD_INSTALL_PLUGINDIR "${MLXD_INSTALL_LIBDIR}/backends")
endif()

# mlxd_rpath(<var> <install folder of the binary, relative to the prefix> <folder>...)
# An installed binary's RPATH entries for folders of ours (given relative to
# the prefix) and of the dependencies (absolute: where they were built against).
function(mlxd_rpath var from)
  set(out "")
  foreach(dir IN LISTS ARGN)
    if(IS_ABSOLUTE "${dir}" AND NOT MLXD_WHEEL_LAYOUT)
      list(APPEND out "${dir}")
      continue()
    endif()
    set(in_prefix "${dir}")
    if(IS_ABSOLUTE "${dir}")  # a dependency's wheel, in the same site-packages as ours
      file(RELATIVE_PATH in_prefix "${MLXD_SITE_PACKAGES}" "${dir}")
      if(in_prefix MATCHES "^\\.\\.")
        message(FATAL_ERROR "mlx-delegate: ${dir} is not under ${MLXD_SITE_PACKAGES}: the wheel "
                            "could not find it relative to itself")
      endif()
    endif()
    file(RELATIVE_PATH rel "/prefix/${from}" "/prefix/${in_prefix}")
    if(rel STREQUAL "")
      set(rel ".")
    endif()
    if(APPLE)
      list(APPEND out "@loader_path/${rel}")
    else()
      list(APPEND out "\$ORIGIN/${rel}")
    endif()
  endforeach()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()
