//===- Timeline.cpp - `seam validate --timeline`: an SVG of a trace -------===//
#include "Driver/Timeline.h"
#include "Basic/InputFile.h"
#include "Driver/Output.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

namespace seam {
namespace {

struct Span {
  double Begin, End;
  std::string Name, Cat;
  bool Device;
};

/// A sync and the device idle after it.
struct Gap {
  const Span *Sync;
  double From, To; ///< device idle: last task end before, next task start
};

std::string escape(const std::string &S) {
  std::string Out;
  for (char C : S) {
    if (C == '<')
      Out += "&lt;";
    else if (C == '>')
      Out += "&gt;";
    else if (C == '&')
      Out += "&amp;";
    else if (C == '"')
      Out += "&quot;";
    else
      Out += C;
  }
  return Out;
}

std::string num(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.1f", V);
  return Buf;
}

} // namespace

std::optional<std::string> writeTimeline(const std::string &TracePath,
                                         const std::string &SvgPath,
                                         const std::string &Title) {
  if (!llvm::sys::fs::exists(TracePath))
    return "--timeline: the program wrote no trace to '" + TracePath + "'";
  auto Buf = readInputFile(TracePath, "the program's trace", MaxDataBytes);
  if (!Buf)
    return "--timeline: " + llvm::toString(Buf.takeError());
  nlohmann::json J = nlohmann::json::parse(
      (*Buf)->getBuffer().begin(), (*Buf)->getBuffer().end(), nullptr, false);
  if (!J.is_object() || !J.contains("traceEvents") ||
      !J["traceEvents"].is_array())
    return "--timeline: '" + TracePath + "' is not a Chrome trace";
  std::vector<Span> Host, Device;
  for (const nlohmann::json &E : J["traceEvents"]) {
    if (!E.is_object() || E.value("ph", "") != "X")
      continue;
    Span S{E.value("ts", 0.0), E.value("ts", 0.0) + E.value("dur", 0.0),
           E.value("name", ""), E.value("cat", ""), E.value("tid", 0) == 2};
    (S.Device ? Device : Host).push_back(std::move(S));
  }
  auto ByBegin = [](const Span &A, const Span &B) { return A.Begin < B.Begin; };
  std::sort(Host.begin(), Host.end(), ByBegin);
  std::sort(Device.begin(), Device.end(), ByBegin);

  // The idle after each sync, grouped by the line that synchronized.
  std::map<std::string, std::vector<Gap>> Gaps;
  std::map<std::string, double> IdleByLine;
  for (const Span &S : Host) {
    if (S.Cat != "sync")
      continue;
    auto Next =
        std::lower_bound(Device.begin(), Device.end(), S.End,
                         [](const Span &D, double T) { return D.Begin < T; });
    if (Next == Device.end())
      continue;
    double From = Next == Device.begin() ? S.End : std::prev(Next)->End;
    Gaps[S.Name].push_back({&S, From, Next->Begin});
    IdleByLine[S.Name] += Next->Begin - From;
  }
  if (IdleByLine.empty())
    return "--timeline: the run made no sync followed by device work, so "
           "there is no idle to draw";
  std::string Line = std::max_element(IdleByLine.begin(), IdleByLine.end(),
                                      [](const auto &A, const auto &B) {
                                        return A.second < B.second;
                                      })
                         ->first;
  // Three syncs from the middle of the run: past the warm-up's compiles.
  const std::vector<Gap> &G = Gaps[Line];
  size_t First = G.size() > 3 ? (G.size() - 3) / 2 : 0;
  size_t Last = std::min(G.size(), First + 3) - 1;
  double T0 = G[First].Sync->Begin, T1 = G[Last].To;
  double Margin = std::max((T1 - T0) * 0.05, 5.0);
  T0 -= Margin;
  T1 += Margin;

  const int W = 1200, Left = 90, Right = 20, LaneH = 34;
  const int HostY = 60, DevY = 130, Height = 250;
  auto X = [&](double T) {
    return Left + (std::clamp(T, T0, T1) - T0) / (T1 - T0) * (W - Left - Right);
  };
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W
     << "\" height=\"" << Height << "\" font-family=\"sans-serif\" "
     << "font-size=\"12\">\n";
  OS << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  OS << "<text x=\"10\" y=\"20\" font-size=\"14\">" << escape(Title)
     << ": device idle after '" << escape(Line.substr(Line.find(':') + 2))
     << "', three syncs (" << num(T1 - T0) << " us shown)</text>\n";
  OS << "<text x=\"10\" y=\"" << HostY + 21 << "\">host</text>\n";
  OS << "<text x=\"10\" y=\"" << DevY + 21 << "\">device</text>\n";
  auto Rect = [&](const Span &S, double Y, const char *Fill) {
    if (S.End < T0 || S.Begin > T1)
      return;
    double X0 = X(S.Begin), X1 = std::max(X(S.End), X0 + 0.5);
    OS << "<rect x=\"" << num(X0) << "\" y=\"" << Y << "\" width=\""
       << num(X1 - X0) << "\" height=\"" << LaneH << "\" fill=\"" << Fill
       << "\"><title>" << escape(S.Name) << " (" << num(S.End - S.Begin)
       << " us)</title></rect>\n";
  };
  for (const Span &S : Device)
    Rect(S, DevY, S.Cat == "kernel" ? "#4878d0" : "#8c8c8c");
  for (const Span &S : Host)
    Rect(S, HostY,
         S.Cat == "sync"      ? "#ee854a"
         : S.Cat == "compile" ? "#d65f5f"
                              : "#6acc64");
  for (size_t I = First; I <= Last; ++I) {
    const Gap &Gp = G[I];
    double X0 = X(Gp.From), X1 = std::max(X(Gp.To), X0 + 1);
    OS << "<rect x=\"" << num(X0) << "\" y=\"" << DevY - 4 << "\" width=\""
       << num(X1 - X0) << "\" height=\"" << LaneH + 8
       << "\" fill=\"#9467bd\" fill-opacity=\"0.35\" stroke=\"#9467bd\"/>\n";
    OS << "<text x=\"" << num(X0) << "\" y=\""
       << DevY + LaneH + 22 + 14 * (I - First) << "\" fill=\"#9467bd\">idle "
       << num(Gp.To - Gp.From) << " us after "
       << escape(Gp.Sync->Name.substr(Gp.Sync->Name.find(':') + 2))
       << "</text>\n";
  }
  // A time axis in microseconds from the window's start.
  // The first and last ticks are anchored inside the picture.
  for (int K = 0; K <= 5; ++K) {
    double T = T0 + (T1 - T0) * K / 5;
    const char *Anchor = K == 0 ? "start" : K == 5 ? "end" : "middle";
    OS << "<text x=\"" << num(X(T)) << "\" y=\"" << Height - 8
       << "\" text-anchor=\"" << Anchor << "\" fill=\"#555\">+" << num(T - T0)
       << " us</text>\n";
  }
  // The legend on a line of its own, left-aligned: it fits the width. Idle
  // is purple, a colour no span uses.
  OS << "<text x=\"10\" y=\"45\" fill=\"#555\">blue: kernel, gray: copy, "
     << "orange: host waits, green: launch, red: compile; purple shading: "
     << "device idle after a sync</text>\n";
  OS << "</svg>\n";
  // Whole or not at all, and a full disk is an error line (Output.h).
  return writeOutput(SvgPath, [&](llvm::raw_ostream &Out) { Out << OS.str(); });
}

} // namespace seam
