// A userfun body in the C subset, as clang's parse leaves it (types resolved, implicit
// conversions explicit), reduced to a small tree that the interpreter can run without clang.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace fftc::compiler::clang_helpers {

// The C scalar types a userfun body computes in (OpenCL C and CUDA agree on their widths:
// int 32 bits, long 64).
enum class CScalar : uint8_t { Bool, Char, UChar, Short, UShort, Int, UInt, Long, ULong, Float, Double };

// A value type: a scalar, a vector of lanes (float2, OpenCL's ext vectors), or a struct
// (tuples, CUDA's float2) of fields.
struct CTy {
  enum class Kind : uint8_t { Void, Scalar, Vector, Struct };
  Kind kind = Kind::Void;
  CScalar scalar = CScalar::Int;  // Scalar, Vector
  int lanes = 1;                  // Vector
  std::vector<CTy> fields;        // Struct
};

enum class COp : uint8_t {
  // expressions (type: the expression's C type)
  IntLit,      // i
  FloatLit,    // f
  Var,         // slot i of the frame
  Field,       // kids[0].field i (struct)
  Swizzle,     // kids[0] lanes `lanes` (vector; one lane gives a scalar)
  Unary,       // text: "-" "+" "~" "!" "++pre" "--pre" "post++" "post--"
  Binary,      // text: the C operator; "&&" "||" "," short-circuit as in C
  Assign,      // kids[0] = kids[1]; text "=" or the compound operator computed in `aux`
  Cond,        // kids[0] ? kids[1] : kids[2]
  Cast,        // kids[0] converted to `type` (scalar conversions, vector splat)
  Build,       // an aggregate of `type` from kids (vector lanes flattened, struct fields)
  Zero,        // the zero of `type`
  Call,        // function i of the program (kids: arguments)
  Builtin,     // text names a math function the evaluator knows (kids: arguments)
  // statements
  Block,       // kids in order
  Decl,        // slot i = kids[0] (or the zero of `type` without kids)
  ExprStmt,    // kids[0]
  If,          // kids[0] ? kids[1] : kids[2] (kids[2] may be Nop)
  For,         // init kids[0], condition kids[1] (Nop: none), step kids[2], body kids[3]
  While,       // kids[0] condition, kids[1] body
  Do,          // kids[0] body, kids[1] condition
  Return,      // kids[0] (none for void)
  Break,
  Continue,
  Nop,
};

struct CNode {
  COp op = COp::Nop;
  CTy type;
  CTy aux;                 // Assign with a compound operator: the type it computes in
  std::string text;        // operator or builtin name
  int64_t i = 0;           // IntLit value, slot, field, function index
  double f = 0;            // FloatLit value
  std::vector<int> lanes;  // Swizzle
  std::vector<CNode> kids;
};

struct CFunction {
  std::string name;
  CTy result;
  std::vector<CTy> paramTypes;
  int params = 0;  // slots 0 .. params-1
  int slots = 0;   // params and locals
  CNode body;
};

// What the plugin returns for one body: functions[0] is the userfun, the others the functions
// of the prelude that it calls. `error` is set (with the body position, 0:0 when outside it)
// when the body is not C clang accepts or uses what the evaluator does not run (pointers,
// arrays, goto, ...).
struct CProgram {
  std::vector<CFunction> functions;
  std::string error;
  int errorLine = 0;
  int errorCol = 0;
};

// A runtime value: a scalar (ints stored sign- or zero-extended from their width, Float values
// exactly representable in float) or the parts of a vector or struct.
struct CVal {
  CTy::Kind kind = CTy::Kind::Scalar;
  CScalar scalar = CScalar::Int;
  int64_t i = 0;
  double f = 0;
  std::vector<CVal> parts;

  static CVal ofInt(int64_t v, CScalar s);
  static CVal ofReal(double v, CScalar s);  // rounds to float for Float
  static CVal zero(const CTy& t);
  bool isFloating() const { return scalar == CScalar::Float || scalar == CScalar::Double; }
  double real() const;  // a scalar as a double
};

// Runs functions[0] on `args` (already of its parameter types) with C semantics: arithmetic in
// the operand type (float rounds every operation to float), ints wrap at their width, integer
// division truncates, math functions are computed in double and rounded to their result type.
// Throws std::runtime_error (no location: the caller names the userfun) on division by zero,
// an unknown math function, or more than `stepBudget` statements (a loop that never ends).
CVal runCProgram(const CProgram& program, const std::vector<CVal>& args,
                 int64_t stepBudget = 10'000'000);

}  // namespace fftc::compiler::clang_helpers
