// fft(x) and ifft(x) as a marked map (fft_op.h).
#include "compiler/frontend/fft_op.h"

#include "ir/traversal.h"

namespace fftc::compiler::frontend {
namespace {

// The marker's body: never compiled (expandFftOps replaces the operation), but were it printed
// by mistake the device compiler would stop at it with this message.
constexpr const char* kMarkerBody =
    "\n#error \"fft(x) was not expanded: compile it through fftc or fftlib::expandFftOps\"\n";

}  // namespace

ir::FunPtr fftOperation(int sign, ir::ScalarKind precision, const ir::SourceLoc& loc) {
  const ir::Type c = ir::Type::complex(precision);
  auto marker = ir::UserFun::make(sign < 0 ? "fft" : "ifft", {"x"}, {c}, c, kMarkerBody, loc);
  return ir::Map::make(marker, loc);
}

int fftOperationSign(const ir::FunDecl& f) {
  const auto* m = f.as<ir::Map>();
  const auto* u = m ? m->f()->as<ir::UserFun>() : nullptr;
  if (!u || u->body() != kMarkerBody) return 0;
  return u->name() == "fft" ? -1 : u->name() == "ifft" ? 1 : 0;
}

bool containsFftOperation(const ir::ExprPtr& e) {
  return ir::containsFun(e, [](const ir::FunDecl& f) { return fftOperationSign(f) != 0; });
}

}  // namespace fftc::compiler::frontend
