//===- RefKernels.cpp - Reference kernels: one op at a time, interpreted --===//
//
// Eager ops on both devices run these, and so do the library ops (matmul,
// transpose, reductions over a dim) of compiled regions. They define the
// semantics the JIT-compiled kernels must match.
//
//===----------------------------------------------------------------------===//

#include "Internal.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace seam::rt::detail {

namespace {

template <typename T> DType dtypeFor() {
  if constexpr (std::is_same_v<T, float>)
    return kFloat;
  else if constexpr (std::is_same_v<T, int64_t>)
    return kLong;
  else
    return kBool;
}

template <typename T> T fromDouble(double V) {
  if constexpr (std::is_same_v<T, uint8_t>)
    return V != 0;
  else
    return static_cast<T>(V);
}

/// Elements of A as T: the buffer itself when the types agree, else a
/// converted copy in Tmp.
template <typename T>
const T *elementsAs(const ArgView &A, std::vector<T> &Tmp) {
  if (A.Ty == dtypeFor<T>())
    return A.Buf->as<T>();
  int64_t N = numelOf(A.Sizes);
  Tmp.resize(N);
  for (int64_t I = 0; I < N; ++I) {
    switch (A.Ty) {
    case kFloat:
      Tmp[I] = fromDouble<T>(A.Buf->as<float>()[I]);
      break;
    case kLong:
      Tmp[I] = static_cast<T>(A.Buf->as<int64_t>()[I]);
      break;
    case kBool:
      Tmp[I] = static_cast<T>(A.Buf->as<uint8_t>()[I]);
      break;
    }
  }
  return Tmp.data();
}

/// One pointwise operand: a pointer with stride 1, or a broadcast value.
template <typename T> struct Operand {
  const T *P = nullptr;
  T C{};
  bool Bcast = false;
};

template <typename T> struct Operands {
  std::vector<Operand<T>> Ops;
  std::vector<std::vector<T>> Tmps;
};

template <typename T>
void collect(const Node &N, const std::vector<ArgView> &Args, size_t FirstArg,
             Operands<T> &Out) {
  Out.Tmps.resize(N.Args.size());
  size_t ScalarIdx = 0;
  for (size_t I = 0; I < N.Args.size(); ++I) {
    int A = N.Args[I];
    if (I < FirstArg) {
      if (A < 0)
        ++ScalarIdx;
      continue;
    }
    Operand<T> O;
    if (A < 0) {
      O.C = fromDouble<T>(N.Scalars[ScalarIdx++]);
      O.Bcast = true;
    } else {
      O.P = elementsAs<T>(Args[A], Out.Tmps[I]);
      if (numelOf(Args[A].Sizes) == 1 && N.numel() != 1) {
        O.C = *O.P;
        O.Bcast = true;
      }
    }
    Out.Ops.push_back(O);
  }
}

template <typename R, typename T, typename F>
void unaryLoop(const Operand<T> &A, R *Out, int64_t N, F Fn) {
  parallelRange(N, [&](int64_t B, int64_t E) {
    if (A.Bcast) {
      for (int64_t I = B; I < E; ++I)
        Out[I] = Fn(A.C);
    } else {
      const T *P = A.P;
      for (int64_t I = B; I < E; ++I)
        Out[I] = Fn(P[I]);
    }
  });
}

template <typename R, typename T, typename F>
void binaryLoop(const Operand<T> &A, const Operand<T> &Bo, R *Out, int64_t N,
                F Fn) {
  parallelRange(N, [&](int64_t B, int64_t E) {
    const T *PA = A.P, *PB = Bo.P;
    if (!A.Bcast && !Bo.Bcast) {
      for (int64_t I = B; I < E; ++I)
        Out[I] = Fn(PA[I], PB[I]);
    } else if (A.Bcast && !Bo.Bcast) {
      T CA = A.C;
      for (int64_t I = B; I < E; ++I)
        Out[I] = Fn(CA, PB[I]);
    } else if (!A.Bcast) {
      T CB = Bo.C;
      for (int64_t I = B; I < E; ++I)
        Out[I] = Fn(PA[I], CB);
    } else {
      for (int64_t I = B; I < E; ++I)
        Out[I] = Fn(A.C, Bo.C);
    }
  });
}

template <typename T>
void pointwise(const Node &N, const std::vector<ArgView> &Args, Buffer &Dst) {
  int64_t Count = N.numel();
  T *Out = Dst.as<T>();
  uint8_t *BoolOut = Dst.as<uint8_t>();
  if (N.Kind == Op::Where) {
    Operands<uint8_t> C;
    Operands<T> V;
    collect<uint8_t>(
        Node{N.Kind, N.Ty, N.ComputeTy, N.Sizes, {N.Args[0]}, {}, -1, 0, false},
        Args, 0, C);
    collect<T>(N, Args, 1, V);
    const Operand<uint8_t> &Cond = C.Ops[0];
    const Operand<T> &A = V.Ops[0], &B = V.Ops[1];
    parallelRange(Count, [&](int64_t Bg, int64_t E) {
      for (int64_t I = Bg; I < E; ++I) {
        bool CI = Cond.Bcast ? Cond.C : Cond.P[I];
        T AI = A.Bcast ? A.C : A.P[I];
        T BI = B.Bcast ? B.C : B.P[I];
        Out[I] = CI ? AI : BI;
      }
    });
    return;
  }
  Operands<T> V;
  collect<T>(N, Args, 0, V);
  const Operand<T> &A = V.Ops[0];
  switch (N.Kind) {
  case Op::Neg:
    return unaryLoop(A, Out, Count, [](T X) { return T(-X); });
  case Op::Relu:
    return unaryLoop(A, Out, Count, [](T X) { return X > T(0) ? X : T(0); });
  case Op::Abs:
    return unaryLoop(A, Out, Count, [](T X) { return X < T(0) ? T(-X) : X; });
  case Op::Reshape:
    return unaryLoop(A, Out, Count, [](T X) { return X; });
  default:
    break;
  }
  if constexpr (std::is_same_v<T, float>) {
    switch (N.Kind) {
    case Op::Sigmoid:
      return unaryLoop(A, Out, Count,
                       [](float X) { return 1.0f / (1.0f + std::exp(-X)); });
    case Op::Tanh:
      // 1 - 2 / (e^2x + 1): glibc's expf takes a fraction of its tanhf's
      // time (17 ns per element here, eight times a sigmoid's). Below
      // 1/16, where the difference cancels, the odd series to x^7 (the
      // next term is under 1e-12 of x).
      return unaryLoop(A, Out, Count, [](float X) {
        if (std::fabs(X) < 0.0625f) {
          float X2 = X * X;
          return X * (1.0f +
                      X2 * (-1.0f / 3 + X2 * (2.0f / 15 - X2 * 17.0f / 315)));
        }
        return 1.0f - 2.0f / (std::exp(2.0f * X) + 1.0f);
      });
    case Op::Exp:
      return unaryLoop(A, Out, Count, [](float X) { return std::exp(X); });
    case Op::Log:
      return unaryLoop(A, Out, Count, [](float X) { return std::log(X); });
    case Op::Sqrt:
      return unaryLoop(A, Out, Count, [](float X) { return std::sqrt(X); });
    case Op::Gelu:
      return unaryLoop(A, Out, Count, [](float X) {
        return 0.5f * X * (1.0f + std::erf(X * 0.70710678118654752f));
      });
    case Op::Div:
      return binaryLoop(A, V.Ops[1], Out, Count,
                        [](float X, float Y) { return X / Y; });
    default:
      break;
    }
  }
  const Operand<T> &B = V.Ops[1];
  switch (N.Kind) {
  case Op::Add:
    return binaryLoop(A, B, Out, Count, [](T X, T Y) { return T(X + Y); });
  case Op::Sub:
    return binaryLoop(A, B, Out, Count, [](T X, T Y) { return T(X - Y); });
  case Op::Mul:
    return binaryLoop(A, B, Out, Count, [](T X, T Y) { return T(X * Y); });
  case Op::Gt:
    return binaryLoop(A, B, BoolOut, Count,
                      [](T X, T Y) { return uint8_t(X > Y); });
  case Op::Lt:
    return binaryLoop(A, B, BoolOut, Count,
                      [](T X, T Y) { return uint8_t(X < Y); });
  case Op::Ge:
    return binaryLoop(A, B, BoolOut, Count,
                      [](T X, T Y) { return uint8_t(X >= Y); });
  case Op::Le:
    return binaryLoop(A, B, BoolOut, Count,
                      [](T X, T Y) { return uint8_t(X <= Y); });
  case Op::Eq:
    return binaryLoop(A, B, BoolOut, Count,
                      [](T X, T Y) { return uint8_t(X == Y); });
  default:
    fail(std::string("internal: no reference kernel for ") + opName(N.Kind));
  }
}

/// Reduction over the whole tensor (Dim < 0) or one dim, as
/// Outer x Len x Inner.
template <typename T>
void reduce(const Node &N, const ArgView &A, Buffer &Dst) {
  std::vector<T> Tmp;
  const T *In = elementsAs<T>(A, Tmp);
  int64_t Outer = 1, Len = numelOf(A.Sizes), Inner = 1;
  if (N.Dim >= 0) {
    Len = A.Sizes[N.Dim];
    for (int64_t D = 0; D < N.Dim; ++D)
      Outer *= A.Sizes[D];
    for (size_t D = N.Dim + 1; D < A.Sizes.size(); ++D)
      Inner *= A.Sizes[D];
  }
  for (int64_t O = 0; O < Outer; ++O) {
    for (int64_t I = 0; I < Inner; ++I) {
      const T *P = In + O * Len * Inner + I;
      double Acc;
      T Best = P[0];
      if (N.Kind == Op::Sum || N.Kind == Op::Mean) {
        if constexpr (std::is_same_v<T, float>) {
          Acc = 0;
          for (int64_t R = 0; R < Len; ++R)
            Acc += P[R * Inner];
        } else {
          int64_t L = 0;
          for (int64_t R = 0; R < Len; ++R)
            L += P[R * Inner];
          Acc = double(L);
          if (N.Kind == Op::Sum) {
            Dst.as<int64_t>()[O * Inner + I] = L;
            continue;
          }
        }
        if (N.Kind == Op::Mean)
          Acc /= double(Len);
        Dst.as<float>()[O * Inner + I] = float(Acc);
        continue;
      }
      for (int64_t R = 1; R < Len; ++R) {
        T V = P[R * Inner];
        Best =
            N.Kind == Op::Max ? (V > Best ? V : Best) : (V < Best ? V : Best);
      }
      if (N.Ty == kBool)
        Dst.as<uint8_t>()[O * Inner + I] = Best != 0;
      else
        Dst.as<T>()[O * Inner + I] = Best;
    }
  }
}

/// Partial sums per dot product in matmul: two SSE vectors.
constexpr int64_t Lanes = 8;

void matmul(const ArgView &A, const ArgView &B, Buffer &Dst) {
  int64_t M = A.Sizes[0], K = A.Sizes[1], N = B.Sizes[1];
  const float *__restrict PA = A.Buf->as<float>();
  const float *__restrict PB = B.Buf->as<float>();
  float *__restrict C = Dst.as<float>();
  if (N < Lanes) {
    // A thin B (a matrix times a vector, `matmul(X, W)` with W of one
    // column): one dot product per output along K, in Lanes partial sums
    // the compiler keeps in vector registers. Accumulating into C's row
    // instead ran one dependent load-add-store per multiply, 3.5 ns each
    // (a 4096x64 by 64x1 product took 0.93 ms; 2-core machine).
    parallelRange(M, [&](int64_t Begin, int64_t End) {
      for (int64_t I = Begin; I < End; ++I) {
        const float *__restrict Row = PA + I * K;
        for (int64_t J = 0; J < N; ++J) {
          float Acc[Lanes] = {};
          int64_t Kk = 0;
          for (; Kk + Lanes <= K; Kk += Lanes)
            for (int64_t U = 0; U < Lanes; ++U)
              Acc[U] += Row[Kk + U] * PB[(Kk + U) * N + J];
          float Sum = 0;
          for (int64_t U = 0; U < Lanes; ++U)
            Sum += Acc[U];
          for (; Kk < K; ++Kk)
            Sum += Row[Kk] * PB[Kk * N + J];
          C[I * N + J] = Sum;
        }
      }
    });
    return;
  }
  parallelRange(M, [&](int64_t Begin, int64_t End) {
    for (int64_t I = Begin; I < End; ++I) {
      float *__restrict Out = C + I * N;
      std::fill_n(Out, N, 0.0f);
      for (int64_t Kk = 0; Kk < K; ++Kk) {
        float AV = PA[I * K + Kk];
        const float *__restrict BRow = PB + Kk * N;
        for (int64_t J = 0; J < N; ++J)
          Out[J] += AV * BRow[J];
      }
    }
  });
}

void transpose(const Node &N, const ArgView &A, Buffer &Dst) {
  size_t Rank = A.Sizes.size();
  size_t ES = dtypeSize(A.Ty);
  std::vector<int64_t> InStride(Rank, 1);
  for (size_t D = Rank; D-- > 1;)
    InStride[D - 1] = InStride[D] * A.Sizes[D];
  std::vector<int64_t> Stride = InStride;
  std::swap(Stride[N.Dim], Stride[N.Dim1]);
  const auto *Src = A.Buf->as<unsigned char>();
  auto *Out = Dst.as<unsigned char>();
  std::vector<int64_t> Idx(Rank, 0);
  int64_t Count = N.numel();
  for (int64_t E = 0; E < Count; ++E) {
    int64_t Off = 0;
    for (size_t D = 0; D < Rank; ++D)
      Off += Idx[D] * Stride[D];
    std::memcpy(Out + E * ES, Src + Off * ES, ES);
    for (size_t D = Rank; D-- > 0;) {
      if (++Idx[D] < N.Sizes[D])
        break;
      Idx[D] = 0;
    }
  }
}

} // namespace

void runReference(const Node &N, const std::vector<ArgView> &Args,
                  Buffer &Out) {
  if (isPointwise(N.Kind)) {
    switch (N.ComputeTy) {
    case kFloat:
      return pointwise<float>(N, Args, Out);
    case kLong:
      return pointwise<int64_t>(N, Args, Out);
    case kBool:
      return pointwise<uint8_t>(N, Args, Out);
    }
  }
  if (isReduction(N.Kind)) {
    if (N.ComputeTy == kFloat)
      return reduce<float>(N, Args[N.Args[0]], Out);
    return reduce<int64_t>(N, Args[N.Args[0]], Out);
  }
  if (N.Kind == Op::Matmul)
    return matmul(Args[N.Args[0]], Args[N.Args[1]], Out);
  if (N.Kind == Op::Transpose)
    return transpose(N, Args[N.Args[0]], Out);
  fail(std::string("internal: no reference kernel for ") + opName(N.Kind));
}

} // namespace seam::rt::detail
