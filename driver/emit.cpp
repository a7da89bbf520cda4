// Writing a compiled kernel's files (emit.h).
#include "driver/emit.h"

#include <fmt/format.h>
#include <fstream>

#include "backends/common/device_error.h"

namespace fftc::driver {

void writeFile(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw backends::UserError(fmt::format("cannot write {}", path.string()));
}

void emitFiles(const compiler::codegen::CompiledKernel& k, const std::set<std::string>& emit,
               const std::filesystem::path& dir, bool cuda) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw backends::UserError(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  if (emit.count("source")) writeFile(dir / (k.name + (cuda ? ".cu" : ".cl")), k.source);
  if (emit.count("manifest")) {
    writeFile(dir / (k.name + ".json"), compiler::codegen::manifestText(k));
    for (const auto& b : k.buffers) {
      if (!b.dataFile.empty())
        writeFile(dir / b.dataFile,
                  std::string_view(reinterpret_cast<const char*>(b.data.data()), b.data.size()));
    }
  }
  if (emit.count("header")) writeFile(dir / (k.name + ".hpp"), compiler::codegen::emitHeader(k));
}

}  // namespace fftc::driver
