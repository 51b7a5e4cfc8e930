//===- Formulas.cpp - The cost model's formulas ---------------------------===//
#include "Cost/Formulas.h"

#include <algorithm>
#include <cmath>

namespace seam {

double breakIdleMicros(const DeviceProfile &P, double PiecesAdded,
                       unsigned ExtraLaunches,
                       std::optional<double> BytesMaterialized) {
  const double BytesPerMicro = P.MemoryBandwidthGBps.Value * 1e3;
  return P.RegionEntryUs.Value * PiecesAdded +
         P.LaunchLatencyUs.Value * ExtraLaunches +
         (BytesMaterialized ? *BytesMaterialized / BytesPerMicro : 0);
}

double afterCompileMicros(const DeviceProfile &P, const SyncResume &R) {
  if (!R.AfterCompile)
    return 0;
  return R.NextEager && P.HasAfterCompileEager ? P.HostAfterCompileEagerUs.Value
                                               : P.HostAfterCompileUs.Value;
}

double syncIdleMicros(const DeviceProfile &P, const SyncResume &R) {
  if (!R.ColdQueues.empty()) {
    std::vector<double> Idles;
    SyncResume One = R;
    One.ColdQueues.clear();
    One.FlushQueues.clear();
    for (size_t I = 0; I < R.ColdQueues.size(); ++I) {
      One.QueuedMicros = R.ColdQueues[I];
      if (I < R.FlushQueues.size())
        One.FlushQueuedMicros = R.FlushQueues[I];
      Idles.push_back(syncIdleMicros(P, One));
    }
    std::sort(Idles.begin(), Idles.end());
    size_t Mid = Idles.size() / 2;
    return Idles.size() % 2 ? Idles[Mid] : (Idles[Mid - 1] + Idles[Mid]) / 2;
  }
  bool Break = R.InRegion && P.HasBreakResume;
  double Idle = P.SyncRoundtripUs.Value +
                (Break ? P.BreakResumeUs.Value : P.HostResumeUs.Value) +
                P.LaunchLatencyUs.Value;
  if (R.NextEager && P.HasHostEager)
    Idle =
        P.SyncRoundtripUs.Value + P.HostEagerUs.Value + P.LaunchLatencyUs.Value;
  else if (R.NextOps || R.NextInputs) {
    double More = 0;
    if (R.NextOps)
      More += P.HostOpUs.Value * (double(*R.NextOps) - double(ResumeOps));
    if (R.NextInputs && *R.NextInputs > ResumeInputs)
      More += P.HostInputUs.Value * double(*R.NextInputs - ResumeInputs);
    Idle = std::max(P.SyncRoundtripUs.Value + P.LaunchLatencyUs.Value,
                    Idle + More);
  }
  if (R.InRegion && !Break)
    Idle += P.RegionEntryUs.Value;
  if (R.SelectedElements && P.HostSelectUsPerElement.Value > 0)
    Idle += *R.SelectedElements * P.HostSelectUsPerElement.Value;
  Idle += afterCompileMicros(P, R);
  Idle += coldResumeMicros(P, R);
  return Idle + hostWorkMicros(P, R);
}

const ProfileParam &coldResumeParam(const DeviceProfile &P,
                                    const SyncResume &R) {
  static const ProfileParam None{0, "not cold"};
  if (!R.Cold || !P.HasCold)
    return None;
  return !R.NextEager && P.HasColdRegion ? P.HostColdRegionUs
                                         : P.HostColdSyncUs;
}

double queueMicros(const DeviceProfile &P, double Bytes,
                   double TranscendentalElements) {
  const double BytesPerMicro = P.MemoryBandwidthGBps.Value * 1e3;
  return std::max(
      {P.LaunchLatencyUs.Value, 2 * Bytes / BytesPerMicro,
       TranscendentalElements * P.TranscendentalNsPerElement.Value / 1e3});
}

namespace {
/// coldShare for a parameter measured behind \p Queue.
double shareAgainst(const ProfileParam &Queue, std::optional<double> Queued) {
  if (Queued && *Queued <= 0)
    return 0; // right after another sync: nothing queued
  if (!Queued || Queue.Value <= 0)
    return 1;
  return std::min(1.0, std::log1p(*Queued / ColdKneeMicros) /
                           std::log1p(Queue.Value / ColdKneeMicros));
}
} // namespace

double coldShare(const DeviceProfile &P, const SyncResume &R) {
  if (!R.Cold || !P.HasCold)
    return 0;
  return shareAgainst(&coldResumeParam(P, R) == &P.HostColdRegionUs
                          ? P.HostColdRegionQueueUs
                          : P.HostColdQueueUs,
                      R.QueuedMicros);
}

double coldResumeMicros(const DeviceProfile &P, const SyncResume &R) {
  const ProfileParam &Param = coldResumeParam(P, R);
  double Share = coldShare(P, R);
  if (&Param != &P.HostColdRegionUs || !R.NextOps || *R.NextOps <= ResumeOps)
    return Param.Value * Share;
  return Param.Value * Share * double(*R.NextOps) / double(ResumeOps);
}

double flushMicros(const DeviceProfile &P, const SyncResume &R) {
  if (!R.Cold || !P.HasCold)
    return P.HostFlushUs.Value;
  // host_cold_flush_us is measured behind host_cold_sync_us's queue.
  return P.HostFlushUs.Value +
         shareAgainst(P.HostColdQueueUs, R.FlushQueuedMicros
                                             ? R.FlushQueuedMicros
                                             : R.QueuedMicros) *
             (P.HostColdFlushUs.Value - P.HostFlushUs.Value);
}

double hostWorkMicros(const DeviceProfile &P, const SyncResume &R) {
  return P.HostPrintUs.Value * R.Prints +
         P.HostPrintTensorUs.Value * R.TensorPrints +
         P.HostElementUs.Value * R.LoopIterations +
         flushMicros(P, R) * R.Flushes;
}

unsigned rankFromMicros(double Micros) {
  if (Micros <= 0)
    return 0;
  double R = 100.0 * std::log10(1.0 + Micros) / 6.0;
  return static_cast<unsigned>(std::lround(std::min(100.0, std::max(0.0, R))));
}

double rankBasisMicros(std::optional<double> TotalMicros,
                       double MicrosPerExecution, bool Repeats,
                       double ExecutionsPerIteration) {
  if (TotalMicros)
    return *TotalMicros;
  return MicrosPerExecution *
         (Repeats ? 100 * std::max(ExecutionsPerIteration, 0.01) : 1);
}

} // namespace seam
