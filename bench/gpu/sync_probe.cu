// Measures the CUDA-level parameters of Seam's device profiles on the GPU it
// runs on (bench/gpu/README.md): sync round trip, launch latency, graph
// (region) entry, device idle gap around a host read, and copy bandwidth.
// Prints one JSON object. Not a test: run by bench/gpu/run.sh.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__,                   \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

using Clock = std::chrono::steady_clock;
static double us(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}
static double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

__device__ unsigned long long now_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__global__ void empty_kernel() {}
__global__ void write_one(float *out) { *out = 1.0f; }
// Spins ~spin_ns, then stamps its end time (a "producer" kernel).
__global__ void busy_then_stamp(unsigned long long spin_ns,
                                unsigned long long *end_ns, float *val) {
  unsigned long long t0 = now_ns();
  while (now_ns() - t0 < spin_ns) {
  }
  *val = 2.0f;
  __threadfence_system();
  *end_ns = now_ns();
}
__global__ void stamp_start(unsigned long long *start_ns) {
  *start_ns = now_ns();
}

int main() {
  const int Reps = 2000;
  float *dval;
  unsigned long long *stamps;
  CHECK(cudaMalloc(&dval, sizeof(float)));
  CHECK(cudaMalloc(&stamps, 2 * sizeof(unsigned long long)));
  float host = 0;
  for (int i = 0; i < 200; ++i) { // warm-up: module load, clocks
    empty_kernel<<<1, 1>>>();
    CHECK(cudaMemcpy(&host, dval, 4, cudaMemcpyDeviceToHost));
  }
  CHECK(cudaDeviceSynchronize());

  std::vector<double> sync_idle, launch_enqueue, launch_sync, memcpy_idle, item,
      graph_enqueue, graph_sync;
  for (int i = 0; i < Reps; ++i) {
    auto a = Clock::now();
    CHECK(cudaDeviceSynchronize());
    auto b = Clock::now();
    sync_idle.push_back(us(a, b));

    a = Clock::now();
    empty_kernel<<<1, 1>>>();
    b = Clock::now();
    CHECK(cudaDeviceSynchronize());
    auto c = Clock::now();
    launch_enqueue.push_back(us(a, b));
    launch_sync.push_back(us(a, c));

    a = Clock::now();
    CHECK(cudaMemcpy(&host, dval, 4, cudaMemcpyDeviceToHost));
    b = Clock::now();
    memcpy_idle.push_back(us(a, b));

    a = Clock::now(); // what x.item() does for a ready one-element tensor
    write_one<<<1, 1>>>(dval);
    CHECK(cudaMemcpy(&host, dval, 4, cudaMemcpyDeviceToHost));
    b = Clock::now();
    item.push_back(us(a, b));
  }
  CHECK(cudaGetLastError());

  // A "compiled region": a captured graph of 4 small kernels.
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  for (int k = 0; k < 4; ++k)
    write_one<<<1, 1, 0, s>>>(dval);
  CHECK(cudaStreamEndCapture(s, &g));
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int i = 0; i < 100; ++i)
    CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  for (int i = 0; i < Reps; ++i) {
    auto a = Clock::now();
    CHECK(cudaGraphLaunch(ge, s));
    auto b = Clock::now();
    CHECK(cudaStreamSynchronize(s));
    auto c = Clock::now();
    graph_enqueue.push_back(us(a, b));
    graph_sync.push_back(us(a, c));
  }

  // Device idle gap around a host read: producer ends, host copies the
  // value back (blocking), host launches the consumer; gap = consumer start
  // - producer end, on the device's own clock.
  std::vector<double> gap_read, gap_queued;
  unsigned long long hs[2];
  for (int i = 0; i < 500; ++i) {
    busy_then_stamp<<<1, 1>>>(20000, stamps, dval);
    CHECK(cudaMemcpy(&host, dval, 4, cudaMemcpyDeviceToHost));
    stamp_start<<<1, 1>>>(stamps + 1);
    CHECK(cudaMemcpy(hs, stamps, 16, cudaMemcpyDeviceToHost));
    gap_read.push_back((hs[1] - hs[0]) / 1000.0);

    busy_then_stamp<<<1, 1>>>(20000, stamps, dval);
    stamp_start<<<1, 1>>>(stamps + 1); // already queued: no host in between
    CHECK(cudaMemcpy(hs, stamps, 16, cudaMemcpyDeviceToHost));
    gap_queued.push_back((hs[1] - hs[0]) / 1000.0);
  }
  CHECK(cudaGetLastError());

  // Copy bandwidth, bytes read plus written.
  size_t bytes = size_t(2) << 30;
  void *src, *dst;
  CHECK(cudaMalloc(&src, bytes));
  CHECK(cudaMalloc(&dst, bytes));
  CHECK(cudaMemset(src, 1, bytes));
  CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<double> bw;
  for (int i = 0; i < 10; ++i) {
    CHECK(cudaEventRecord(e0));
    CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    bw.push_back(2.0 * bytes / (ms * 1e-3) / 1e9);
  }

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  std::printf("{\n  \"device\": \"%s\", \"driver\": %d, \"runtime\": %d,\n",
              prop.name, driver, runtime);
  std::printf("  \"reps\": %d,\n", Reps);
  std::printf("  \"sync_idle_us\": %.3f,\n", median(sync_idle));
  std::printf("  \"launch_enqueue_us\": %.3f,\n", median(launch_enqueue));
  std::printf("  \"launch_sync_us\": %.3f,\n", median(launch_sync));
  std::printf("  \"launch_latency_us\": %.3f,\n",
              median(launch_sync) - median(sync_idle));
  std::printf("  \"memcpy_d2h_4B_idle_us\": %.3f,\n", median(memcpy_idle));
  std::printf("  \"kernel_plus_read_us\": %.3f,\n", median(item));
  std::printf("  \"graph4_enqueue_us\": %.3f,\n", median(graph_enqueue));
  std::printf("  \"graph4_launch_sync_us\": %.3f,\n", median(graph_sync));
  std::printf("  \"idle_gap_around_read_us\": %.3f,\n", median(gap_read));
  std::printf("  \"idle_gap_queued_us\": %.3f,\n", median(gap_queued));
  std::printf("  \"d2d_copy_GBps\": %.1f\n}\n", median(bw));
  return 0;
}
