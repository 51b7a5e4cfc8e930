//===- bench_rt.cpp - seam::rt benchmarks, all measured in one run --------===//
//
// 1. compiled vs eager seam::rt on pointwise chains of 2/4/8/16 ops;
// 2. compiled seam::rt vs LibTorch CPU eager on the same chains;
// 3. the fused kernel's bandwidth as a fraction of a STREAM triad;
//    2b-2d: chains with transcendentals, gelu, nested sigmoids; 2e: the
//    16-op chains' speed-ups per round, with their spread;
// 4. eager per-op host overhead and the item() round trip on an idle
//    device; plus JIT compile time and first-call vs steady-state time.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#ifdef SEAM_BENCH_TORCH
#include <torch/torch.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

namespace rt = seam::rt;
using Clock = std::chrono::steady_clock;

namespace {

double usSince(Clock::time_point T) {
  return std::chrono::duration<double, std::micro>(Clock::now() - T).count();
}

/// Best wall time of Fn over Reps runs after one warm-up. On a shared
/// machine other processes only ever add time, so the best run is the least
/// disturbed one (as STREAM reports it).
double bestUs(int Reps, const std::function<void()> &Fn) {
  Fn();
  std::vector<double> T;
  for (int I = 0; I < Reps; ++I) {
    auto B = Clock::now();
    Fn();
    T.push_back(usSince(B));
  }
  return *std::min_element(T.begin(), T.end());
}

/// The chain: cycles through scalar mul, add of a second tensor, relu and
/// scalar sub, so that every op reads or writes a full tensor when eager.
template <typename T, typename Relu> T chain(T X, const T &Y, int Ops, Relu R) {
  for (int I = 0; I < Ops; ++I) {
    switch (I % 4) {
    case 0:
      X = X * 1.0001;
      break;
    case 1:
      X = X + Y;
      break;
    case 2:
      X = R(X);
      break;
    case 3:
      X = X - 0.25;
      break;
    }
  }
  return X;
}

rt::Tensor rtRelu(const rt::Tensor &X) { return rt::relu(X); }

/// The chain with a transcendental: cycles scalar mul, add of a second
/// tensor, relu, x*x and sigmoid (so values stay bounded).
template <typename T, typename Relu, typename Sigmoid>
T mixedChain(T X, const T &Y, int Ops, Relu R, Sigmoid S) {
  for (int I = 0; I < Ops; ++I) {
    switch (I % 5) {
    case 0:
      X = X * 1.0001;
      break;
    case 1:
      X = X + Y;
      break;
    case 2:
      X = R(X);
      break;
    case 3:
      X = X * X;
      break;
    case 4:
      X = S(X);
      break;
    }
  }
  return X;
}

rt::Tensor rtSigmoid(const rt::Tensor &X) { return rt::sigmoid(X); }

/// STREAM triad a = b + s*c on persistent threads (as many as the
/// accelerator uses), released together by a spinning barrier so thread
/// start-up is not timed.
double triadGBs(int64_t N, unsigned Threads, int Reps) {
  std::vector<float> A(N), B(N, 1.0f), C(N, 2.0f);
  std::atomic<int> Go{0}, Finished{0};
  const int Rounds = Reps + 1;
  std::vector<double> Times;
  std::vector<std::thread> Ts;
  auto Part = [&](unsigned T) {
    int64_t Begin = N * T / Threads, End = N * (T + 1) / Threads;
    float *PA = A.data();
    const float *PB = B.data(), *PC = C.data();
    for (int64_t I = Begin; I < End; ++I)
      PA[I] = PB[I] + 3.0f * PC[I];
  };
  for (unsigned T = 1; T < Threads; ++T)
    Ts.emplace_back([&, T] {
      for (int R = 1; R <= Rounds; ++R) {
        while (Go.load(std::memory_order_acquire) < R)
          std::this_thread::yield();
        Part(T);
        Finished.fetch_add(1, std::memory_order_acq_rel);
      }
    });
  for (int R = 1; R <= Rounds; ++R) {
    auto Begin = Clock::now();
    Go.store(R, std::memory_order_release);
    Part(0);
    while (Finished.load(std::memory_order_acquire) < int(R * (Threads - 1)))
      std::this_thread::yield();
    if (R > 1)
      Times.push_back(usSince(Begin));
  }
  for (auto &T : Ts)
    T.join();
  return 3.0 * 4 * N / (*std::min_element(Times.begin(), Times.end()) * 1e3);
}

} // namespace

int main(int Argc, char **Argv) {
  int Reps = Argc > 1 ? std::atoi(Argv[1]) : 7;
  // As many threads as the accelerator uses: all cores but the host's.
  unsigned HW = std::max(1u, std::thread::hardware_concurrency());
  unsigned Threads = HW > 1 ? std::min(HW - 1, 8u) : 1;
  if (const char *Env = std::getenv("SEAM_RT_THREADS"))
    Threads = std::max(1, std::atoi(Env));
#ifdef SEAM_BENCH_TORCH
  torch::set_num_threads(Threads);
  std::printf("# threads: seam::rt device %u, LibTorch %d\n", Threads,
              torch::get_num_threads());
#else
  std::printf("# threads: seam::rt device %u (LibTorch not built)\n", Threads);
#endif

  std::printf("\n## 1-2. pointwise chains, best of %d, us per call; fused = "
              "kernel GB/s (3 x 4 B per element)\n",
              Reps);
  std::printf("%9s %4s %10s %10s %10s %10s %8s %8s %8s %8s %6s\n", "elements",
              "ops", "rt eager", "rt comp", "torch", "torch ip", "c/eager",
              "c/torch", "c/t ip", "fused", "%triad");
  for (int64_t N : {int64_t(1) << 20, int64_t(1) << 22, int64_t(1) << 24}) {
    double Triad = triadGBs(N, Threads, Reps);
    rt::Tensor X = rt::randn({N}, rt::kAccel, 1);
    rt::Tensor Y = rt::randn({N}, rt::kAccel, 2);
#ifdef SEAM_BENCH_TORCH
    torch::Tensor TX = torch::randn({N}), TY = torch::randn({N});
#endif
    for (int Ops : {2, 4, 8, 16}) {
      auto Compiled = rt::compile([Ops](rt::Tensor A, rt::Tensor B) {
        return chain(A, B, Ops, rtRelu);
      });
      double Eager = bestUs(Reps, [&] {
        rt::Tensor R = chain(X, Y, Ops, rtRelu);
        rt::synchronize();
      });
      double Comp = bestUs(Reps, [&] {
        rt::Tensor R = Compiled(X, Y);
        rt::synchronize();
      });
      // Kernel-only time of the fused kernel, from the device timeline (the
      // first burst of calls faults in fresh output buffers, so warm up).
      for (int I = 0; I < Reps; ++I)
        Compiled(X, Y);
      double KernelUs = 1e30;
      for (int I = 0; I < Reps; ++I) {
        rt::synchronize();
        rt::reset_stats();
        Compiled(X, Y);
        rt::synchronize();
        KernelUs = std::min(KernelUs, rt::stats().device_busy_us);
      }
      double GBs = 3.0 * 4 * N / (KernelUs * 1e3);
      double Torch = 0, TorchIp = 0;
#ifdef SEAM_BENCH_TORCH
      // Let the idle accelerator stop polling so it does not compete with
      // LibTorch's threads.
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      Torch = bestUs(Reps, [&] {
        torch::Tensor R = chain(
            TX, TY, Ops, [](const torch::Tensor &T) { return torch::relu(T); });
      });
      // LibTorch at its best: in-place ops into a preallocated output (one
      // copy pass plus one pass per op, no allocation).
      torch::Tensor Out = torch::empty({N});
      TorchIp = bestUs(Reps, [&] {
        Out.copy_(TX);
        for (int I = 0; I < Ops; ++I) {
          switch (I % 4) {
          case 0:
            Out.mul_(1.0001);
            break;
          case 1:
            Out.add_(TY);
            break;
          case 2:
            Out.relu_();
            break;
          case 3:
            Out.sub_(0.25);
            break;
          }
        }
      });
#endif
      std::printf("%9lld %4d %10.0f %10.0f %10.0f %10.0f %7.2fx %7.2fx %7.2fx "
                  "%8.1f %5.0f%%\n",
                  (long long)N, Ops, Eager, Comp, Torch, TorchIp, Eager / Comp,
                  Torch / Comp, TorchIp / Comp, GBs, 100 * GBs / Triad);
    }
    std::printf("%9lld triad %.1f GB/s\n", (long long)N, Triad);
  }

  std::printf("\n## 2b. 16 ops with a transcendental (mul, add, relu, x*x, "
              "sigmoid), 4M elements, best of %d, us per call\n",
              Reps);
  {
    const int64_t N = int64_t(1) << 22;
    const int Ops = 16;
    rt::Tensor X = rt::randn({N}, rt::kAccel, 1);
    rt::Tensor Y = rt::randn({N}, rt::kAccel, 2);
    auto Compiled = rt::compile([](rt::Tensor A, rt::Tensor B) {
      return mixedChain(A, B, Ops, rtRelu, rtSigmoid);
    });
    double Eager = bestUs(Reps, [&] {
      rt::Tensor R = mixedChain(X, Y, Ops, rtRelu, rtSigmoid);
      rt::synchronize();
    });
    double Comp = bestUs(Reps, [&] {
      rt::Tensor R = Compiled(X, Y);
      rt::synchronize();
    });
    double Torch = 0;
#ifdef SEAM_BENCH_TORCH
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    torch::Tensor TX = torch::randn({N}), TY = torch::randn({N});
    Torch = bestUs(Reps, [&] {
      torch::Tensor R = mixedChain(
          TX, TY, Ops, [](const torch::Tensor &T) { return torch::relu(T); },
          [](const torch::Tensor &T) { return torch::sigmoid(T); });
    });
#endif
    std::printf("rt eager %.0f, rt comp %.0f, torch %.0f: compiled %.2fx rt "
                "eager, %.2fx LibTorch\n",
                Eager, Comp, Torch, Eager / Comp, Torch / Comp);
  }

  std::printf("\n## 2c. gelu, 4M elements, best of %d, us per call\n", Reps);
  {
    const int64_t N = int64_t(1) << 22;
    rt::Tensor X = rt::randn({N}, rt::kAccel, 1);
    auto Gelu = rt::compile([](rt::Tensor A) { return rt::gelu(A * 1.0); });
    auto Sigmoid =
        rt::compile([](rt::Tensor A) { return rt::sigmoid(A * 1.0); });
    double Eager = bestUs(Reps, [&] {
      rt::Tensor R = rt::gelu(X * 1.0);
      rt::synchronize();
    });
    double Comp = bestUs(Reps, [&] {
      rt::Tensor R = Gelu(X);
      rt::synchronize();
    });
    double Sig = bestUs(Reps, [&] {
      rt::Tensor R = Sigmoid(X);
      rt::synchronize();
    });
    double Torch = 0;
#ifdef SEAM_BENCH_TORCH
    torch::Tensor TX = torch::randn({N});
    Torch = bestUs(Reps, [&] { torch::Tensor R = torch::gelu(TX * 1.0); });
#endif
    std::printf("rt eager %.0f, rt comp %.0f, rt comp sigmoid %.0f, torch "
                "%.0f: compiled %.2fx rt eager, %.2fx LibTorch, %.2fx the "
                "time of sigmoid\n",
                Eager, Comp, Sig, Torch, Eager / Comp, Torch / Comp,
                Comp / Sig);
  }

  std::printf("\n## 2d. nested transcendentals, 4M elements, best of %d, "
              "kernel us (device timeline)\n",
              Reps);
  {
    const int64_t N = int64_t(1) << 22;
    rt::Tensor X = rt::randn({N}, rt::kAccel, 1);
    auto Nested = [](int Depth) {
      return rt::compile([Depth](rt::Tensor A) {
        rt::Tensor R = A * 1.0001;
        for (int I = 0; I < Depth; ++I)
          R = rt::sigmoid(R);
        return R;
      });
    };
    double Us[4];
    for (int Depth = 0; Depth < 4; ++Depth) {
      auto Fn = Nested(Depth);
      Fn(X);
      Us[Depth] = 1e30;
      for (int I = 0; I < Reps; ++I) {
        rt::synchronize();
        rt::reset_stats();
        Fn(X);
        rt::synchronize();
        Us[Depth] = std::min(Us[Depth], rt::stats().device_busy_us);
      }
    }
    // What each sigmoid adds over the pass that reads and writes the data.
    std::printf("x*c %.0f, 1 sigmoid %.0f, 2 nested %.0f, 3 nested %.0f: "
                "sigmoid #1 adds %.0f, #2 %.0f, #3 %.0f; 3 nested cost %.2fx "
                "one\n",
                Us[0], Us[1], Us[2], Us[3], Us[1] - Us[0], Us[2] - Us[1],
                Us[3] - Us[2], Us[3] / Us[1]);
  }

  std::printf("\n## 2e. the 16-op chains' speed-ups over %d rounds "
              "(median, and interquartile range over median), 4M elements\n",
              Reps);
  {
    const int64_t N = int64_t(1) << 22;
    rt::Tensor X = rt::randn({N}, rt::kAccel, 1);
    rt::Tensor Y = rt::randn({N}, rt::kAccel, 2);
#ifdef SEAM_BENCH_TORCH
    torch::Tensor TX = torch::randn({N}), TY = torch::randn({N});
#endif
    for (bool Mixed : {false, true}) {
      auto Run = [Mixed](auto A, const auto &B, auto Relu, auto Sigmoid) {
        return Mixed ? mixedChain(A, B, 16, Relu, Sigmoid)
                     : chain(A, B, 16, Relu);
      };
      auto Compiled = rt::compile([&](rt::Tensor A, rt::Tensor B) {
        return Run(A, B, rtRelu, rtSigmoid);
      });
      std::vector<double> OverEager, OverTorch;
      for (int R = 0; R < Reps; ++R) {
        double Eager = bestUs(1, [&] {
          rt::Tensor Out = Run(X, Y, rtRelu, rtSigmoid);
          rt::synchronize();
        });
        double Comp = bestUs(1, [&] {
          rt::Tensor Out = Compiled(X, Y);
          rt::synchronize();
        });
        OverEager.push_back(Eager / Comp);
#ifdef SEAM_BENCH_TORCH
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        double Torch = bestUs(1, [&] {
          torch::Tensor Out = Run(
              TX, TY, [](const torch::Tensor &T) { return torch::relu(T); },
              [](const torch::Tensor &T) { return torch::sigmoid(T); });
        });
        OverTorch.push_back(Torch / Comp);
#endif
      }
      auto Summary = [](std::vector<double> V) {
        if (V.empty())
          return std::string("-");
        std::sort(V.begin(), V.end());
        double Mid = V[V.size() / 2];
        double Iqr = V[(3 * (V.size() - 1)) / 4] - V[(V.size() - 1) / 4];
        char Buf[48];
        std::snprintf(Buf, sizeof(Buf), "%.2fx (spread %.0f%%)", Mid,
                      100 * Iqr / Mid);
        return std::string(Buf);
      };
      std::printf("%-34s compiled over rt eager %s, over LibTorch %s\n",
                  Mixed ? "mul/add/relu/x*x/sigmoid chain:"
                        : "mul/add/relu/sub chain:",
                  Summary(OverEager).c_str(), Summary(OverTorch).c_str());
    }
  }

  // Inputs of a shape not seen above, so the first call compiles.
  std::printf("\n## 3. JIT: first call vs steady state (1M elements)\n");
  {
    int64_t N = 1 << 20;
    rt::Tensor X = rt::randn({N}, rt::kAccel, 1),
               Y = rt::randn({N}, rt::kAccel, 2);
    for (int Ops : {2, 16}) {
      auto Fresh = rt::compile([Ops](rt::Tensor A, rt::Tensor B) {
        return chain(A, B, Ops, rtRelu);
      });
      rt::synchronize();
      auto B = Clock::now();
      Fresh(X.reshape({N / 2, 2}), Y.reshape({N / 2, 2}));
      rt::synchronize();
      double First = usSince(B);
      double Steady = bestUs(Reps, [&] {
        Fresh(X.reshape({N / 2, 2}), Y.reshape({N / 2, 2}));
        rt::synchronize();
      });
      std::printf("ops %2d: first call %.0f us, steady %.0f us, compile ~%.0f "
                  "us\n",
                  Ops, First, Steady, First - Steady);
    }
  }

  std::printf("\n## 4. host overheads\n");
  {
    rt::Tensor T = rt::zeros({1}, rt::kAccel);
    rt::synchronize();
    // Host time to enqueue a batch of eager ops (the device runs them
    // meanwhile); best of 5 batches.
    const int Ops = 5000;
    double PerOp = 1e30;
    for (int Batch = 0; Batch < 5; ++Batch) {
      auto B = Clock::now();
      for (int I = 0; I < Ops; ++I)
        T = T + 1.0;
      PerOp = std::min(PerOp, usSince(B) / Ops);
      rt::synchronize();
    }
    std::printf("eager enqueue: %.2f us per op (best batch of %d ops)\n", PerOp,
                Ops);

    std::vector<double> Trips;
    for (int I = 0; I < 50; ++I) {
      rt::synchronize();
      // An idle device: nothing queued for 2 ms (the worker still polls).
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      auto S = Clock::now();
      volatile float V = T.item<float>();
      (void)V;
      Trips.push_back(usSince(S));
    }
    std::sort(Trips.begin(), Trips.end());
    std::printf("item() round trip on an idle device: median %.1f us, best "
                "%.1f us, p90 %.1f us\n",
                Trips[Trips.size() / 2], Trips[0],
                Trips[Trips.size() * 9 / 10]);
    std::vector<double> Cold;
    for (int I = 0; I < 20; ++I) {
      rt::synchronize();
      // Past the worker's 10 ms poll window: it sleeps on a futex.
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      auto S = Clock::now();
      volatile float V = T.item<float>();
      (void)V;
      Cold.push_back(usSince(S));
    }
    std::sort(Cold.begin(), Cold.end());
    std::printf("item() round trip on a sleeping device (30 ms idle): median "
                "%.1f us, best %.1f us\n",
                Cold[Cold.size() / 2], Cold[0]);
    std::vector<double> Warm;
    for (int I = 0; I < 200; ++I) {
      rt::synchronize();
      auto S = Clock::now();
      volatile float V = T.item<float>();
      (void)V;
      Warm.push_back(usSince(S));
    }
    std::sort(Warm.begin(), Warm.end());
    std::printf("item() round trip right after a sync: median %.1f us, best "
                "%.1f us\n",
                Warm[Warm.size() / 2], Warm[0]);
  }
  return 0;
}
