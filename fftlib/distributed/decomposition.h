// How a distributed FFT spreads a global 2D/3D array over P processes: the local blocks (boxes)
// of each rank in each stage of a slab or pencil decomposition, and which axes each stage transforms.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace fftc::distributed {

// Slab: one axis split over P (FFTW-MPI); pencil: two axes split over a P0 x P1 grid (heFFTe,
// P3DFFT), 3D only.
enum class Decomposition { Slab, Pencil };
std::string decompositionName(Decomposition d);           // "slab", "pencil"
Decomposition parseDecomposition(std::string_view text);  // UserError unless slab | pencil

// Where the output lies: Transposed (FFTW_MPI_TRANSPOSED_OUT, the default: the last stage's
// blocks, no extra exchange) or SameAsInput (one more exchange back to the input's blocks).
enum class OutputDistribution { Transposed, SameAsInput };

// A rank's block of the global array: [lo[a], hi[a]) on each axis a, stored row-major in the
// global axis order (the last axis contiguous) unless a stage says otherwise.
struct Box {
  std::vector<int64_t> lo, hi;
  [[nodiscard]] int64_t extent(std::size_t axis) const { return hi[axis] - lo[axis]; }
  [[nodiscard]] int64_t count() const;  // the elements, 0 when any extent is 0
  [[nodiscard]] Box intersect(const Box& other) const;
  [[nodiscard]] std::string text() const;  // "[0,4)x[0,8)x[3,5)"
  bool operator==(const Box&) const = default;
};

// The balanced split of n over p parts (heFFTe's): part r gets n/p elements, one more for the
// first n % p parts, so sizes differ by at most one; parts past n are empty. [first, last).
std::pair<int64_t, int64_t> splitRange(int64_t n, int64_t p, int64_t r);

// One stage of the transform: how each axis is split (-1: whole on every rank; g: split over the
// process grid's dimension g) and the axes transformed locally in this stage (none: a final
// exchange only). In a stage's own storage the untransformed axes come first (in global
// order) and the transformed ones last, so that the local FFT is dense and batched.
struct Stage {
  std::vector<int> split;
  std::vector<int> fftAxes;
  // The storage order: the untransformed axes, then fftAxes (both ascending).
  [[nodiscard]] std::vector<int> storageOrder() const;
};

struct Layout {
  std::vector<int64_t> dims;    // global, outermost first
  std::vector<int> grid;        // the process grid: {P} (slab) or {P0, P1} (pencil)
  std::vector<Stage> stages;    // in execution order
  // rank -> its coordinates in the grid (row-major: rank = c0 * P1 + c1).
  [[nodiscard]] std::vector<int> coordinates(int rank) const;
  [[nodiscard]] int ranks() const;
  // The rank's block in stage s.
  [[nodiscard]] Box box(std::size_t stage, int rank) const;
};

// The near-square P0 x P1 grid of a pencil decomposition (P0 <= P1, P0 the largest divisor of P
// at most sqrt(P)), like MPI_Dims_create.
std::vector<int> pencilGrid(int ranks);

// The stages of a forward or inverse transform of `dims` (2 or 3 axes) over `ranks` processes.
// `grid`: pencil's {P0, P1} with P0 * P1 = ranks, empty for pencilGrid. Inverse with a
// transposed output runs the forward stages in reverse (its input is the forward's output
// distribution, its output the forward's input distribution); SameAsInput appends an exchange
// back to the first stage's blocks. UserError for a bad request (pencil in 2D, a grid that
// does not multiply to `ranks`, fewer than 2 or more than 3 dimensions).
Layout makeLayout(const std::vector<int64_t>& dims, Decomposition decomposition, int ranks,
                  std::vector<int> grid, bool inverse, OutputDistribution output);

}  // namespace fftc::distributed
