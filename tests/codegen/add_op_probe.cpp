// The runtime side of tests/codegen/test_add_op.py's end-to-end test: a
// program with one input, one output and only the op that `add-op` scaffolded
// (its exec function named by MLXD_PROBE_EXEC, its table by MLXD_PROBE_NODE),
// run the way the plugin runs it, without the plugin (whose build costs
// minutes): the payload through the generated loader, the ExecutionState bound
// to the program, each instruction through the op's exec function.
//
//   add_op_probe PAYLOAD INPUT OUTPUT
//
// INPUT holds the input's float32 values (little-endian, row-major; its shape
// is the program's tensor_meta), OUTPUT receives the output's, as float32.
// Exit status 0, or 1 with the error on stderr.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "mlx_delegate/execution_state.h"
#include "mlx_delegate/payload_header.h"
#include "mlx_dispatch.h"

namespace mx = mlx::core;

static std::vector<uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

static mx::Shape static_shape(const mlxd::MLXGraph& graph, uint32_t slot) {
  mx::Shape shape;
  for (const mlxd::IntOrVid& dim : graph.tensor_meta.at(slot).shape) {
    if (dim.vid) throw std::runtime_error("the probe takes static shapes only");
    shape.push_back(static_cast<int>(dim.literal));
  }
  return shape;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: add_op_probe PAYLOAD INPUT OUTPUT\n";
    return 2;
  }
  try {
    std::vector<uint8_t> payload = read_file(argv[1]);
    mlxd::payload::Regions regions;
    std::string error;
    if (!mlxd::payload::parse(payload.data(), payload.size(), &regions, &error)) {
      throw std::runtime_error(error);
    }
    mlxd::MLXGraph graph = mlxd::load_program(regions.flatbuffer, regions.flatbuffer_size);
    if (graph.input_map.size() != 1 || graph.output_map.size() != 1) {
      throw std::runtime_error("the probe takes one input and one output");
    }
    mlxd::ExecutionState state;
    state.bind(graph);

    mlxd::Tid input{graph.input_map[0].idx};
    std::vector<uint8_t> bytes = read_file(argv[2]);
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
    mx::Shape shape = static_shape(graph, input.idx);
    state.set_tensor(input, mx::array(values.begin(), shape, mx::float32));

    mx::StreamOrDevice stream = mx::Device(mx::Device::cpu);
    for (const mlxd::Instruction& instruction :
         graph.instruction_chains.at(graph.main_chain).instructions) {
      if (!std::holds_alternative<mlxd::MLXD_PROBE_NODE>(instruction.node)) {
        throw std::runtime_error(std::string("the probe runs one op; the program has ") +
                                 mlxd::op_name(instruction.op));
      }
      mlxd::MLXD_PROBE_EXEC(std::get<mlxd::MLXD_PROBE_NODE>(instruction.node), state, stream);
    }

    mx::array out =
        mx::contiguous(mx::astype(state.tensor(mlxd::Tid{graph.output_map[0].idx}), mx::float32));
    mx::eval(out);
    std::ofstream file(argv[3], std::ios::binary);
    file.write(reinterpret_cast<const char*>(out.data<float>()),
               static_cast<std::streamsize>(out.size() * sizeof(float)));
    return file ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "add_op_probe: " << e.what() << "\n";
    return 1;
  }
}
