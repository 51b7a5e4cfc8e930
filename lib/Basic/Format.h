//===- Format.h - Numbers as Seam's reports print them --------------------===//
#ifndef SEAM_BASIC_FORMAT_H
#define SEAM_BASIC_FORMAT_H

#include <cstdio>
#include <string>

namespace seam {

/// "12.3 us", "4.56 ms", "1.2 s": times as the cost model prints them.
inline std::string formatMicros(double Micros) {
  char Buf[32];
  if (!(Micros < 1e15)) // also NaN and infinity
    return "more than 1e9 s";
  if (Micros >= 1e6)
    std::snprintf(Buf, sizeof(Buf), "%.3g s", Micros / 1e6);
  else if (Micros >= 1e3)
    std::snprintf(Buf, sizeof(Buf), "%.3g ms", Micros / 1e3);
  else
    std::snprintf(Buf, sizeof(Buf), "%.3g us", Micros);
  return Buf;
}

/// "1000", "1.2e+20": a count as the reports print it.
inline std::string formatCount(double N) {
  char Buf[32];
  if (N >= 0 && N < 1e15)
    std::snprintf(Buf, sizeof(Buf), "%.0f", N);
  else
    std::snprintf(Buf, sizeof(Buf), "%.3g", N);
  return Buf;
}

} // namespace seam

#endif
