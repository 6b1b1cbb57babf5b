# Fails with a clear message when an op declared by the generated dispatch
# (MLXD_DISPATCH_HEADER) has no exec_* definition in the sources MLXD_OP_SOURCES.
# Included by CMakeLists.txt; also runs alone for the tests:
#   cmake -DMLXD_DISPATCH_HEADER=... -DMLXD_OP_SOURCES="a.cpp;b.cpp" -P check_exec_functions.cmake
file(READ "${MLXD_DISPATCH_HEADER}" _dispatch_header)
string(REGEX MATCHALL "void exec_[a-z0-9_]+\\(const [A-Za-z0-9_]+&" _declared "${_dispatch_header}")
set(_op_text "")
foreach(_source IN LISTS MLXD_OP_SOURCES)
  file(READ "${_source}" _text)
  string(APPEND _op_text "${_text}")
endforeach()
foreach(_declaration IN LISTS _declared)
  string(REGEX REPLACE "void (exec_[a-z0-9_]+)\\(const ([A-Za-z0-9_]+)&" "\\1;\\2" _pair "${_declaration}")
  list(GET _pair 0 _exec)
  list(GET _pair 1 _node)
  # Defined directly or through one of the ops' helper macros: NAME( or NAME,
  if(NOT _op_text MATCHES "[^a-z0-9_]${_exec} *[(,]")
    message(FATAL_ERROR "mlx-delegate: op ${_node} has no implementation: define\n"
      "  void ${_exec}(const ${_node}& node, ExecutionState& state, StreamOrDevice stream)\n"
      "in runtime_cpp/src/ops/ (declared by generated/cpp/mlx_dispatch.h)")
  endif()
endforeach()
