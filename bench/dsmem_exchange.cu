// What an exchange through distributed shared memory costs on sm_90, apart from any FFT: the
// bound of a one-pass cluster FFT (issue 22 item 3, cluster.fdl fourStepCluster). Each kernel
// moves rows of N complex floats from `in` to `out` (coalesced reads and writes, a row over a
// thread-block cluster of C blocks, M = N / C elements a block) through shared memory:
//   local    each block stages its own M elements in its own shared memory (no exchange);
//   scatter  element i of block k's chunk is stored in block (i mod C)'s shared memory, as
//            fourStepCluster's load does (one exchange, remote stores);
//   both     scatter, then each block writes its chunk reading element j from block (j mod C)
//            (fourStepCluster's last pass: a second exchange, remote loads).
// Remote accesses are either generic loads and stores through mapa's 64-bit generic address (what
// fftc's CUDA backend emits today: fftc_cluster_array) or ld/st.shared::cluster with mapa's
// 32-bit shared::cluster address. Prints one CSV row per kernel: ms (median of the repeats) and
// the row's bytes read and written over the time (TB/s), with cudaMemcpy D2D of the same bytes.
//
//   nvcc -O3 -arch=sm_90 -o dsmem_exchange bench/dsmem_exchange.cu
//   ./dsmem_exchange [N=32768] [C=8] [threads=256] [rows=2048] [repeats=20]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "dsmem_exchange: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

__device__ inline void clusterSync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

// Generic: fftc_cluster_array's form.
__device__ inline float2* genericRemote(float2* p, unsigned rank) {
  unsigned long long a;
  asm("mapa.u64 %0, %1, %2;" : "=l"(a) : "l"(p), "r"(rank));
  return reinterpret_cast<float2*>(a);
}

// shared::cluster: a 32-bit address in the cluster's shared window.
__device__ inline unsigned clusterAddress(const float2* p, unsigned rank) {
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(p)), a;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(s), "r"(rank));
  return a;
}
__device__ inline void storeCluster(unsigned a, float2 v) {
  asm volatile("st.shared::cluster.v2.f32 [%0], {%1, %2};" ::"r"(a), "f"(v.x), "f"(v.y) : "memory");
}
__device__ inline float2 loadCluster(unsigned a) {
  float2 v;
  asm volatile("ld.shared::cluster.v2.f32 {%0, %1}, [%2];"
               : "=f"(v.x), "=f"(v.y)
               : "r"(a)
               : "memory");
  return v;
}

enum Mode { Local = 0, ScatterGeneric, ScatterCluster, BothGeneric, BothCluster };

// Grid: rows * C blocks in clusters of C; block k of a cluster handles elements [k M, (k+1) M)
// of its row. Shared memory: M float2.
template <int MODE>
__global__ void exchange(const float2* __restrict__ in, float2* __restrict__ out, int n, int c) {
  extern __shared__ float2 sh[];
  const int m = n / c;
  const unsigned k = blockIdx.x % c;  // the block's rank in its cluster (1D clusters)
  const long row = blockIdx.x / c;
  const float2* src = in + row * n + static_cast<long>(k) * m;
  float2* dst = out + row * n + static_cast<long>(k) * m;
  // A block's shared memory may be accessed by another only once every block of the cluster
  // runs (CUDA's programming guide, distributed shared memory): fftc's kernels begin so too.
  if (MODE != Local) clusterSync();
  // Load: element i of this chunk (global index k m + i) goes to block g = (k m + i) mod c at
  // slot (k m + i) / c, so that block g holds the elements g, g + c, g + 2c, ... of the row.
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    const float2 v = __ldg(&src[i]);
    const int global = static_cast<int>(k) * m + i;
    if (MODE == Local) {
      sh[i] = v;
    } else if (MODE == ScatterGeneric || MODE == BothGeneric) {
      genericRemote(sh, global % c)[global / c] = v;
    } else {
      storeCluster(clusterAddress(sh + global / c, global % c), v);
    }
  }
  if (MODE == Local) {
    __syncthreads();
  } else {
    clusterSync();
  }
  // Store: the chunk back in order; `both` reads element j of the row from block j mod c.
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    const int global = static_cast<int>(k) * m + i;
    float2 v;
    if (MODE == Local) {
      v = sh[i];
    } else if (MODE == ScatterGeneric || MODE == ScatterCluster) {
      v = sh[i];  // this block's own slots: not the row's order, the same bytes
    } else if (MODE == BothGeneric) {
      v = genericRemote(sh, global % c)[global / c];
    } else {
      v = loadCluster(clusterAddress(sh + global / c, global % c));
    }
    dst[i] = v;
  }
  if (MODE != Local) clusterSync();  // no block leaves while others may read its memory
}

template <int MODE>
float timeKernel(const float2* in, float2* out, int n, int c, int threads, long rows, int repeats,
                 bool verify) {
  const int m = n / c;
  const size_t shared = static_cast<size_t>(m) * sizeof(float2);
  check(cudaFuncSetAttribute(exchange<MODE>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(shared)),
        "cudaFuncSetAttribute");
  if (MODE != Local)
    check(cudaFuncSetAttribute(exchange<MODE>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1),
          "non-portable cluster size");
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>(rows * c));
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = shared;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = MODE == Local ? 1 : c;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> ms;
  for (int r = 0; r < repeats + 2; ++r) {
    check(cudaEventRecord(start), "record");
    check(cudaLaunchKernelEx(&config, exchange<MODE>, in, out, n, c), "launch");
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float t;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    if (r >= 2) ms.push_back(t);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (verify) {  // Local and Both restore the row's order: out must equal in
    std::vector<float2> a(static_cast<size_t>(n) * 4), b(a.size());
    check(cudaMemcpy(a.data(), in, a.size() * sizeof(float2), cudaMemcpyDeviceToHost), "copy");
    check(cudaMemcpy(b.data(), out, b.size() * sizeof(float2), cudaMemcpyDeviceToHost), "copy");
    for (size_t i = 0; i < a.size(); ++i)
      if (a[i].x != b[i].x || a[i].y != b[i].y) {
        std::fprintf(stderr, "dsmem_exchange: mode %d wrong at %zu\n", MODE, i);
        std::exit(1);
      }
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 32768;
  const int c = argc > 2 ? std::atoi(argv[2]) : 8;
  const int threads = argc > 3 ? std::atoi(argv[3]) : 256;
  const long rows = argc > 4 ? std::atol(argv[4]) : 2048;
  const int repeats = argc > 5 ? std::atoi(argv[5]) : 20;
  if (n <= 0 || c <= 0 || n % c != 0 || threads <= 0 || rows < 4 || repeats <= 0) {
    std::fprintf(stderr, "usage: dsmem_exchange [N] [C | N] [threads] [rows >= 4] [repeats]\n");
    return 1;
  }
  const size_t bytes = static_cast<size_t>(n) * rows * sizeof(float2);
  float2 *in, *out;
  check(cudaMalloc(&in, bytes), "cudaMalloc");
  check(cudaMalloc(&out, bytes), "cudaMalloc");
  std::vector<float2> host(static_cast<size_t>(n) * rows);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = make_float2(static_cast<float>(i % 9973), static_cast<float>(i % 7919));
  check(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice), "upload");

  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "event");
  check(cudaEventCreate(&stop), "event");
  std::vector<float> copy;
  for (int r = 0; r < repeats + 2; ++r) {
    check(cudaEventRecord(start), "record");
    check(cudaMemcpy(out, in, bytes, cudaMemcpyDeviceToDevice), "memcpy");
    check(cudaEventRecord(stop), "record");
    check(cudaEventSynchronize(stop), "sync");
    float t;
    check(cudaEventElapsedTime(&t, start, stop), "elapsed");
    if (r >= 2) copy.push_back(t);
  }
  std::sort(copy.begin(), copy.end());
  const float copyMs = copy[copy.size() / 2];

  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, 0), "properties");
  std::printf("device,N,C,threads,rows,kernel,ms,tb_s,share_of_copy\n");
  auto row = [&](const char* name, float ms) {
    std::printf("\"%s\",%d,%d,%d,%ld,%s,%.4f,%.3f,%.3f\n", prop.name, n, c, threads, rows, name, ms,
                2.0 * bytes / (ms * 1e-3) / 1e12, copyMs / ms);
  };
  row("cudaMemcpy", copyMs);
  row("local", timeKernel<Local>(in, out, n, c, threads, rows, repeats, true));
  row("scatter_generic", timeKernel<ScatterGeneric>(in, out, n, c, threads, rows, repeats, false));
  row("scatter_cluster", timeKernel<ScatterCluster>(in, out, n, c, threads, rows, repeats, false));
  row("both_generic", timeKernel<BothGeneric>(in, out, n, c, threads, rows, repeats, true));
  row("both_cluster", timeKernel<BothCluster>(in, out, n, c, threads, rows, repeats, true));
  cudaFree(in);
  cudaFree(out);
  return 0;
}
