// Program loading when the generated IR loader (generated/cpp/) was not
// present at configure time: every program load is refused with a message.
#include <stdexcept>

#include "mlx_backend.h"

namespace mlxd::plugin {

std::unique_ptr<ProgramHandle> load_program(const std::string& backend_name, DeviceSpace, int,
                                            const uint8_t*, size_t, const ConstantResolver&) {
  throw std::runtime_error(backend_name +
                           ": this plugin was built without the generated IR loader "
                           "(generated/cpp/mlx_program.h was missing); rebuild the runtime");
}

void execute_program(ProgramHandle&, const std::string& backend_name,
                     const std::vector<TensorView>&, std::vector<OutputBuffer>&) {
  throw std::runtime_error(backend_name + ": no program support in this build");
}

}  // namespace mlxd::plugin
