// `import "path"`: imported defs and userfuns mean what they mean inlined, kernels stay behind,
// transitive and repeated imports, cycles, unreadable files, redefinitions, -D bindings over
// imported defs, errors located in the imported file, the in-memory reader (embedded
// libraries) and the fuzzing entry's imports (which never touch the disk).
#include <gtest/gtest.h>

#include <complex>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "ir/interpreter.h"
#include "ir/printer.h"
#include "tests/frontend/test_paths.h"

namespace fe = fftc::compiler::frontend;
namespace ir = fftc::ir;
namespace fs = std::filesystem;

namespace {

// A fresh folder per test for files on disk, removed afterwards.
class ImportFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("fftc_import_test_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // Writes `text` to DIR/name and returns the full path.
  std::string write(const std::string& name, const std::string& text) {
    fs::path p = dir_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  fs::path dir_;
};

fe::ElaborateOptions memory(std::map<std::string, std::string> files) {
  fe::ElaborateOptions o;
  o.importReader = fe::importFromMemory(std::move(files));
  return o;
}

// The error compiling `text` as `file`, or "(no error)".
ir::CompileError errorOf(const std::string& text, const std::string& file,
                         const fe::ElaborateOptions& opts) {
  try {
    fe::compileSource(text, file, opts);
  } catch (const ir::CompileError& e) {
    return e;
  }
  return ir::CompileError(ir::SourceLoc{}, "(no error)");
}

// The error's location is FILE:LINE:COL.
void expectAt(const ir::CompileError& e, const std::string& file, int line, int col) {
  EXPECT_EQ(e.loc().file, file) << e.what();
  EXPECT_EQ(e.loc().line, line) << e.what();
  EXPECT_EQ(e.loc().col, col) << e.what();
}

std::string printed(const fe::Program& p, const char* kernel) {
  const fe::Kernel* k = p.kernel(kernel);
  EXPECT_NE(k, nullptr) << kernel;
  return k ? ir::print(k->lambda) : "";
}

const char* const kUtil =
    "// shared definitions\n"
    "def kronIdR(m, matMult) = λ(v =>\n"
    "  join <<: transpose <<: map(matMult) <<: transpose <<: split(m) <<: v)\n"
    "def multPiT(r) = λ(v => join <<: transpose <<: split(r) <<: v)\n"
    "userfun scale(a: real): real = \"return 2 * a;\"\n"
    "def twice(f) = f o f\n";

const char* const kMain =
    "kernel k(x: [real]16) = twice(map(scale)) <<: kronIdR(4, multPiT(2)) <<: x\n";

}  // namespace

TEST_F(ImportFiles, DefsMeanTheSameAsInlined) {
  write("lib/util.fdl", kUtil);
  std::string main = write("main.fdl", std::string("import \"lib/util.fdl\"\n") + kMain);
  fe::Program imported = fe::parseFile(main);
  fe::Program inlined = fe::compileSource(std::string(kUtil) + kMain, path("inlined.fdl"));
  // The same IR, the same userfun, the same values.
  EXPECT_EQ(printed(imported, "k"), printed(inlined, "k"));
  ASSERT_EQ(imported.userFuns.size(), 1u);
  EXPECT_EQ(imported.userFuns[0]->name(), "scale");
  EXPECT_EQ(imported.importedFiles, std::vector<std::string>{path("lib/util.fdl")});
  std::vector<double> x(16);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i);
  ir::Value in = ir::Value::realArray(x, ir::ScalarKind::Float);
  ir::InterpreterOptions io;
  io.userFuns["scale"] = [](const std::vector<ir::Value>& a) {
    return ir::Value::ofFloat(static_cast<float>(2 * a[0].asReal()));
  };
  std::string result = ir::interpretCall(imported.kernel("k")->lambda, {in}, io).str();
  EXPECT_EQ(result, ir::interpretCall(inlined.kernel("k")->lambda, {in}, io).str());
  EXPECT_EQ(result.substr(0, 12), "[0f, 4f, 8f,");  // scale twice: 4 * x, permuted
  // An import may stand anywhere at the top level, and `;` may follow it.
  fe::Program late = fe::compileSource(std::string(kMain) + "; import \"lib/util.fdl\";", main);
  EXPECT_EQ(printed(late, "k"), printed(inlined, "k"));
}

// The paper's Stockham FFT (examples/stockham.fdl) imported: its kernels stay behind, its defs
// (rs and N included) compute the same FFT, and -D rs replaces the imported `def rs`.
TEST_F(ImportFiles, PaperStockhamFromTheExamples) {
  std::string stockham = (fftc::test::examplesDir() / "stockham.fdl").string();
  std::string src = "import \"" + stockham + "\"\n"
                    "kernel myFft(x: [complex]N) = fftStockham(rs) <<: x\n";
  for (std::vector<int64_t> rs : {std::vector<int64_t>{4, 4, 4}, std::vector<int64_t>{4, 2, 8}}) {
    fe::ElaborateOptions opts;
    opts.defines["rs"] = rs;
    fe::Program mine = fe::compileSource(src, path("mine.fdl"), opts);
    ASSERT_EQ(mine.kernels.size(), 1u);  // not stockham.fdl's fft and bitrev
    fe::Program ref = fe::parseFile(stockham, opts);
    EXPECT_EQ(printed(mine, "myFft"), printed(ref, "fft"));
    std::vector<std::complex<double>> x(64);
    for (size_t i = 0; i < x.size(); ++i) x[i] = {double(i % 7) - 3, double(i % 5)};
    ir::Value in = ir::Value::complexArray(x, ir::ScalarKind::Float);
    auto a = ir::interpretCall(mine.kernel("myFft")->lambda, {in}).toComplexVector();
    auto b = ir::interpretCall(ref.kernel("fft")->lambda, {in}).toComplexVector();
    ASSERT_EQ(a.size(), 64u);
    EXPECT_EQ(a, b);
  }
}

TEST(Import, KernelsAreNotImported) {
  auto opts = memory({{"lib.fdl", "def half = split(2)\n"
                                   "kernel k(x: [float]4) = half <<: x\n"
                                   "kernel libOnly(x: [float]4) = x\n"}});
  // The importer's own kernel k does not clash with lib.fdl's k.
  fe::Program p = fe::compileSource("import \"lib.fdl\"\nkernel k(x: [float]8) = half <<: x\n",
                                    "main.fdl", opts);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "k");
  EXPECT_EQ(p.kernels[0].resultType.str(), "[[float]2]4");
  EXPECT_EQ(p.kernel("libOnly"), nullptr);
  // An imported file's own size variables go with its kernels: using N there is unknown.
  auto sizeOpts = memory({{"lib.fdl", "def chunks = split(N / 2)\nkernel k(x: [float]N) = x\n"}});
  auto e = errorOf("import \"lib.fdl\"\nkernel main(y: [float]8) = chunks <<: y\n", "main.fdl",
                   sizeOpts);
  EXPECT_EQ(e.loc().file, "lib.fdl");
  EXPECT_EQ(e.message(), "unknown name 'N'");
  // ... unless the importer's kernels have one of that name.
  fe::Program q = fe::compileSource("import \"lib.fdl\"\nkernel main(y: [float]N) = chunks <<: y\n",
                                    "main.fdl", sizeOpts);
  EXPECT_EQ(q.kernels.size(), 1u);
}

// A imports sub/b.fdl, which imports c.fdl next to it (paths are relative to the importing
// file) and ../d.fdl; a def of A uses one of D.
TEST_F(ImportFiles, TransitiveImportsAreRelativeToTheImporter) {
  write("sub/c.fdl", "def fromC = split(2)\n");
  write("d.fdl", "def fromD(f) = join o f\n");
  write("sub/b.fdl", "import \"c.fdl\"\nimport \"../d.fdl\"\ndef fromB = fromD(fromC)\n");
  std::string a = write("a.fdl", "import \"sub/b.fdl\"\n"
                                 "kernel k(x: [float]8) = fromC <<: fromB <<: x\n");
  fe::Program p = fe::parseFile(a);
  EXPECT_EQ(p.kernel("k")->resultType.str(), "[[float]2]4");
  EXPECT_EQ(p.importedFiles, (std::vector<std::string>{path("sub/b.fdl"), path("sub/c.fdl"),
                                                       path("d.fdl")}));
}

// The same file reached twice, directly or through another import, under different spellings
// of its path, is loaded once (a second load would be a redefinition error).
TEST_F(ImportFiles, ImportingTwiceLoadsOnce) {
  write("lib.fdl", "def twice(f) = f o f\n");
  write("sub/other.fdl", "import \"../lib.fdl\"\ndef four(f) = twice(twice(f))\n");
  std::string main = write("main.fdl",
                           "import \"lib.fdl\"\nimport \"./lib.fdl\"\nimport \"sub/other.fdl\"\n"
                           "import \"sub/../lib.fdl\"\n"
                           "kernel k(x: [float]16) = four(map(neg)) o twice(map(neg)) <<: x\n");
  fe::Program p = fe::parseFile(main);
  EXPECT_EQ(p.importedFiles, (std::vector<std::string>{path("lib.fdl"), path("sub/other.fdl")}));
  // In memory too.
  auto opts = memory({{"lib.fdl", "def twice(f) = f o f\n"},
                      {"other.fdl", "import \"lib.fdl\"\ndef four(f) = twice(twice(f))\n"}});
  fe::Program q = fe::compileSource(
      "import \"other.fdl\"\nimport \"lib.fdl\"\nkernel k(x: [float]4) = four(map(neg)) <<: x\n",
      "main.fdl", opts);
  EXPECT_EQ(q.importedFiles, (std::vector<std::string>{"other.fdl", "lib.fdl"}));
}

TEST(Import, CycleIsAnError) {
  auto opts = memory({{"a.fdl", "def fa = 1\nimport \"b.fdl\"\n"},
                      {"b.fdl", "def fb = 2\n\nimport \"c.fdl\"\n"},
                      {"c.fdl", "import \"a.fdl\"\n"}});
  auto e = errorOf("import \"a.fdl\"\nkernel k(x: [float]4) = x\n", "main.fdl", opts);
  EXPECT_EQ(e.message(), "import cycle: a.fdl -> b.fdl -> c.fdl -> a.fdl");
  expectAt(e, "c.fdl", 1, 8);
  // Back to the importing file itself, and a file importing itself.
  auto self = errorOf("def x = 1\nimport \"main.fdl\"\n", "main.fdl", opts);
  EXPECT_EQ(self.message(), "import cycle: main.fdl -> main.fdl");
  EXPECT_EQ(self.loc().line, 2);
  auto back = errorOf("import \"b2.fdl\"\n", "a2.fdl",
                      memory({{"b2.fdl", "import \"a2.fdl\"\n"}}));
  EXPECT_EQ(back.message(), "import cycle: a2.fdl -> b2.fdl -> a2.fdl");
  EXPECT_EQ(back.loc().file, "b2.fdl");
}

TEST_F(ImportFiles, CycleOnDisk) {
  write("a.fdl", "import \"sub/b.fdl\"\n");
  write("sub/b.fdl", "import \"../a.fdl\"\n");
  try {
    fe::parseFile(path("a.fdl"));
    FAIL();
  } catch (const ir::CompileError& e) {
    EXPECT_EQ(e.message(), "import cycle: " + path("a.fdl") + " -> " + path("sub/b.fdl") + " -> " +
                               path("a.fdl"));
    EXPECT_EQ(e.loc().file, path("sub/b.fdl"));
  }
}

// The program file itself goes through the same reader as imports: a missing file and a
// directory are one-line errors, not an empty program or a hang.
TEST_F(ImportFiles, UnreadableProgramFilesAreErrors) {
  auto messageOf = [](const std::string& file) {
    try {
      fe::parseFile(file);
    } catch (const ir::CompileError& e) {
      return e.message();
    }
    return std::string("(no error)");
  };
  EXPECT_EQ(messageOf(path("absent.fdl")),
            "cannot open file '" + path("absent.fdl") + "': No such file or directory");
  EXPECT_EQ(messageOf(dir_.string()), "cannot open file '" + dir_.string() + "': is a directory");
}

TEST_F(ImportFiles, MissingFileIsAnErrorAtTheImport) {
  std::string main = write("main.fdl", "def x = 1\n  import \"nope.fdl\"\n");
  try {
    fe::parseFile(main);
    FAIL();
  } catch (const ir::CompileError& e) {
    EXPECT_EQ(e.message(), "cannot read import \"nope.fdl\": No such file or directory (looked for " +
                               path("nope.fdl") + ")");
    expectAt(e, main, 2, 10);
    EXPECT_EQ(fe::formatError(e), main + ":2:10: error: " + e.message() +
                                      "\n  import \"nope.fdl\"\n         ^\n");
  }
  // A folder is not a file.
  fs::create_directories(dir_ / "folder.fdl");
  auto e = errorOf("import \"folder.fdl\"\n", main, {});
  EXPECT_EQ(e.message(), "cannot read import \"folder.fdl\": is a directory (looked for " +
                             path("folder.fdl") + ")");
  // Nor is a device (reading /dev/zero would never end).
  auto dev = errorOf("import \"/dev/zero\"\n", main, {});
  EXPECT_EQ(dev.message(), "cannot read import \"/dev/zero\": not a regular file");
  // In memory: the reason lists what there is.
  auto m = errorOf("import \"nope.fdl\"\n", "main.fdl", memory({{"a.fdl", ""}, {"b.fdl", ""}}));
  EXPECT_EQ(m.message(),
            "cannot read import \"nope.fdl\": no such file (the files are: a.fdl, b.fdl)");
  EXPECT_EQ(m.loc().file, "main.fdl");
  EXPECT_EQ(m.loc().col, 8);
  // rejectImports: nothing is read.
  fe::ElaborateOptions none;
  none.importReader = fe::rejectImports("imports are disabled here");
  auto r = errorOf("import \"" + main + "\"\n", "x.fdl", none);
  EXPECT_EQ(r.message(), "cannot read import \"" + main + "\": imports are disabled here");
}

// compileSource resolves imports against the directory of the file name it is given.
TEST_F(ImportFiles, CompileSourceResolvesAgainstItsFileName) {
  write("lib.fdl", "def half = split(2)\n");
  fe::Program p =
      fe::compileSource("import \"lib.fdl\"\nkernel k(x: [float]4) = half <<: x\n", path("x.fdl"));
  EXPECT_EQ(p.importedFiles, std::vector<std::string>{path("lib.fdl")});
}

TEST(Import, RedefinitionOfAnImportedDefIsAnError) {
  auto opts = memory({{"lib.fdl", "def twice(f) = f o f\nuserfun inc(a: float): float = \"return a + 1;\"\n"},
                      {"lib2.fdl", "\ndef twice(f) = f o f\n"}});
  // The error is at the importer's def, before or after the import.
  auto after = errorOf("import \"lib.fdl\"\ndef twice(g) = g\n", "main.fdl", opts);
  EXPECT_EQ(after.message(), "redefinition of 'twice' (imported from lib.fdl:1:5)");
  expectAt(after, "main.fdl", 2, 5);
  auto before = errorOf("def twice(g) = g\nimport \"lib.fdl\"\n", "main.fdl", opts);
  EXPECT_EQ(before.message(), "redefinition of 'twice' (imported from lib.fdl:1:5)");
  EXPECT_EQ(before.loc().file, "main.fdl");
  EXPECT_EQ(before.loc().line, 1);
  auto userfun = errorOf("import \"lib.fdl\"\ndef inc = 1\n", "main.fdl", opts);
  EXPECT_EQ(userfun.message(), "redefinition of 'inc' (imported from lib.fdl:2:9)");
  // Two imported files defining one name: at the second.
  auto both = errorOf("import \"lib.fdl\"\nimport \"lib2.fdl\"\n", "main.fdl", opts);
  EXPECT_EQ(both.message(), "redefinition of 'twice' (first defined at lib.fdl:1:5)");
  EXPECT_EQ(both.loc().file, "lib2.fdl");
  EXPECT_EQ(both.loc().line, 2);
}

// The FFT library's pattern: the imported file uses a parameterless default (`dir`) that the
// importer defines; -D replaces imported parameterless defs everywhere, as written defs.
TEST(Import, ImporterDefaultsAndDefineOverrides) {
  auto opts = memory({{"lib.fdl", "def n = 4\ndef chunks = split(n * dir)\n"}});
  const char* src = "import \"lib.fdl\"\ndef dir = 1\nkernel k(x: [float]16) = chunks <<: x\n";
  EXPECT_EQ(fe::compileSource(src, "main.fdl", opts).kernels[0].resultType.str(), "[[float]4]4");
  opts.defines["n"] = int64_t{2};  // the imported def
  EXPECT_EQ(fe::compileSource(src, "main.fdl", opts).kernels[0].resultType.str(), "[[float]2]8");
  opts.defines["dir"] = int64_t{4};  // the importer's def, used in the imported file
  EXPECT_EQ(fe::compileSource(src, "main.fdl", opts).kernels[0].resultType.str(), "[[float]8]2");
  // -D does not make the redefinition legal: it is a binding, not a def.
  auto e = errorOf("import \"lib.fdl\"\ndef n = 4\n", "main.fdl", opts);
  EXPECT_EQ(e.message(), "redefinition of 'n' (imported from lib.fdl:1:5)");
}

TEST_F(ImportFiles, ErrorsInsideAnImportedFileNameThatFile) {
  write("lib/syntax.fdl", "def a = 1\ndef b = (a +\n");
  write("lib/names.fdl", "def ok = 1\n\ndef typo = mpa(neg)\n");
  write("lib/types.fdl", "def bad(v) = split(3) <<: v\n");
  std::string main = write("main.fdl", "import \"lib/syntax.fdl\"\n");
  try {
    fe::parseFile(main);
    FAIL();
  } catch (const ir::CompileError& e) {
    expectAt(e, path("lib/syntax.fdl"), 3, 1);
    EXPECT_EQ(e.message(), "expected an expression, found end of file");
  }
  std::string names = write("names.fdl", "import \"lib/names.fdl\"\nkernel k(x: [float]4) = x\n");
  try {
    fe::parseFile(names);
    FAIL();
  } catch (const ir::CompileError& e) {
    expectAt(e, path("lib/names.fdl"), 3, 12);
    EXPECT_EQ(e.message(), "unknown name 'mpa' (did you mean 'map'?)");
    // formatError(err) shows the imported file's line.
    EXPECT_EQ(fe::formatError(e), path("lib/names.fdl") + ":3:12: error: " + e.message() +
                                      "\ndef typo = mpa(neg)\n           ^\n");
  }
  std::string types = write("types.fdl", "import \"lib/types.fdl\"\n"
                                         "kernel k(x: [float]4) = bad(x)\n");
  try {
    fe::parseFile(types);
    FAIL();
  } catch (const ir::CompileError& e) {
    expectAt(e, path("lib/types.fdl"), 1, 23);
    EXPECT_EQ(e.message(), "split(3): 3 does not divide 4");
  }
}

TEST(Import, NestingLimit) {
  std::map<std::string, std::string> chain;
  for (int i = 0; i < 80; ++i) {
    chain["f" + std::to_string(i) + ".fdl"] =
        "import \"f" + std::to_string(i + 1) + ".fdl\"\ndef d" + std::to_string(i) + " = 1\n";
  }
  chain["f80.fdl"] = "def last = 1\n";
  auto opts = memory(chain);
  auto e = errorOf("import \"f0.fdl\"\n", "main.fdl", opts);
  EXPECT_EQ(e.message(), "imports nested too deeply (more than 64 files deep)");
  opts.maxImportDepth = 100;
  EXPECT_NO_THROW(fe::compileSource("import \"f0.fdl\"\n", "main.fdl", opts));
}

// The fuzzing entry resolves imports among a few files in memory and never reads the disk.
TEST(Import, FuzzEntryNeverReadsFiles) {
  auto run = [](const std::string& s) {
    return fe::fuzzOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  EXPECT_EQ(run("import \"a.fdl\"\nkernel k(x: [float]8) = split(fromB) <<: fromA <<: x\n"), 0);
  EXPECT_EQ(run("import \"kernel.fdl\"\nkernel k(x: [float]8) = k1 <<: x\n"), 0);
  EXPECT_EQ(run("import \"cycle.fdl\"\n"), 1);
  EXPECT_EQ(run("import \"bad.fdl\"\n"), 1);
  // The fuzz corpus's import seed compiles.
  std::ifstream seed(fftc::test::examplesDir().parent_path() / "tests" / "fuzz" / "corpus" /
                     "import.fdl");
  std::stringstream ss;
  ss << seed.rdbuf();
  EXPECT_NE(ss.str(), "");
  EXPECT_EQ(run(ss.str()), 0);
  std::string examples = (fftc::test::examplesDir() / "stockham.fdl").string();
  EXPECT_EQ(run("import \"" + examples + "\"\n"), 1);
  EXPECT_EQ(run("import \"/etc/passwd\"\n"), 1);
  EXPECT_EQ(run("import \"../../../../../../dev/zero\"\n"), 1);
}
