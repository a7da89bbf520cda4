// Address-space inference (address_space.h).
#include "compiler/codegen/address_space.h"

namespace fftc::compiler::codegen {

using backends::MemSpace;

MemSpace memSpaceOf(ir::AddressSpace space) {
  switch (space) {
    case ir::AddressSpace::Global: return MemSpace::Global;
    case ir::AddressSpace::Local: return MemSpace::Local;
    default: return MemSpace::Private;
  }
}

MemSpace inferAddressSpace(const ir::Type& t, std::optional<MemSpace> toX, bool insideLoops,
                           const CodegenOptions& options) {
  if (!t.isArray() && insideLoops) return MemSpace::Private;
  if (toX) return *toX;
  if (!insideLoops) return MemSpace::Global;
  int64_t count = 1;
  for (const auto& s : t.shape()) {
    auto c = s.constant();
    if (!c) return MemSpace::Global;
    count *= *c;
  }
  return count <= options.privateMaxElements ? MemSpace::Private : MemSpace::Global;
}

}  // namespace fftc::compiler::codegen
