//===- Profile.cpp - Load device profiles ---------------------------------===//
#include "Cost/Profile.h"
#include "Basic/InputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <nlohmann/json.hpp>

namespace seam {

static llvm::Error fail(llvm::StringRef Path, const std::string &Msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                 Path.str().c_str(), Msg.c_str());
}

static llvm::Expected<DeviceProfile>
parseProfileUnchecked(llvm::StringRef Text, llvm::StringRef Path) {
  nlohmann::json J =
      nlohmann::json::parse(Text.begin(), Text.end(), nullptr, false, true);
  if (J.is_discarded() || !J.is_object())
    return fail(Path, "not a JSON object");
  DeviceProfile P;
  P.Path = Path.str();
  for (auto It = J.begin(); It != J.end(); ++It)
    if (It.key() != "name" && It.key() != "device" &&
        It.key() != "parameters" && It.key() != "notes" && It.key() != "host")
      return fail(Path, "'" + It.key() +
                            "': unknown key (expected name, device, "
                            "parameters, notes, host)");
  if (!J.contains("name") || !J["name"].is_string())
    return fail(Path, "missing string 'name'");
  P.Name = J["name"].get<std::string>();
  if (J.contains("device") && J["device"].is_string())
    P.Device = J["device"].get<std::string>();
  if (!J.contains("parameters") || !J["parameters"].is_object())
    return fail(Path, "missing object 'parameters'");
  const nlohmann::json &Params = J["parameters"];
  struct Field {
    const char *Key;
    ProfileParam DeviceProfile::*Member;
  };
  const Field Fields[] = {
      {"sync_roundtrip_us", &DeviceProfile::SyncRoundtripUs},
      {"host_resume_us", &DeviceProfile::HostResumeUs},
      {"launch_latency_us", &DeviceProfile::LaunchLatencyUs},
      {"region_entry_us", &DeviceProfile::RegionEntryUs},
      {"memory_bandwidth_gbps", &DeviceProfile::MemoryBandwidthGBps},
      {"host_select_us_per_element", &DeviceProfile::HostSelectUsPerElement},
      {"host_op_us", &DeviceProfile::HostOpUs},
      {"host_input_us", &DeviceProfile::HostInputUs},
      {"host_eager_us", &DeviceProfile::HostEagerUs},
      {"break_resume_us", &DeviceProfile::BreakResumeUs},
      {"host_print_us", &DeviceProfile::HostPrintUs},
      {"host_print_tensor_us", &DeviceProfile::HostPrintTensorUs},
      {"host_element_us", &DeviceProfile::HostElementUs},
      {"host_flush_us", &DeviceProfile::HostFlushUs},
      {"host_after_compile_us", &DeviceProfile::HostAfterCompileUs},
      {"host_after_compile_eager_us", &DeviceProfile::HostAfterCompileEagerUs},
      {"host_cold_sync_us", &DeviceProfile::HostColdSyncUs},
      {"host_cold_flush_us", &DeviceProfile::HostColdFlushUs},
      {"host_cold_region_us", &DeviceProfile::HostColdRegionUs},
      {"host_cold_queue_us", &DeviceProfile::HostColdQueueUs},
      {"host_cold_region_queue_us", &DeviceProfile::HostColdRegionQueueUs},
      {"transcendental_ns_per_element",
       &DeviceProfile::TranscendentalNsPerElement}};
  for (auto It = Params.begin(); It != Params.end(); ++It) {
    bool Known = false;
    for (const Field &F : Fields)
      Known |= It.key() == F.Key;
    if (!Known && It.key() == "host_select_us_per_mib")
      return fail(Path, "'parameters.host_select_us_per_mib': replaced by "
                        "host_select_us_per_element (per element of input); "
                        "run `seam calibrate` again");
    if (!Known)
      return fail(Path, "'parameters." + It.key() + "': unknown parameter");
  }
  for (const Field &F : Fields) {
    std::string Where = std::string("'parameters.") + F.Key + "'";
    auto It = Params.find(F.Key);
    bool Optional = F.Member == &DeviceProfile::HostSelectUsPerElement ||
                    F.Member == &DeviceProfile::HostOpUs ||
                    F.Member == &DeviceProfile::HostInputUs ||
                    F.Member == &DeviceProfile::HostEagerUs ||
                    F.Member == &DeviceProfile::BreakResumeUs ||
                    F.Member == &DeviceProfile::HostPrintUs ||
                    F.Member == &DeviceProfile::HostPrintTensorUs ||
                    F.Member == &DeviceProfile::HostElementUs ||
                    F.Member == &DeviceProfile::HostFlushUs ||
                    F.Member == &DeviceProfile::HostAfterCompileUs ||
                    F.Member == &DeviceProfile::HostAfterCompileEagerUs ||
                    F.Member == &DeviceProfile::HostColdSyncUs ||
                    F.Member == &DeviceProfile::HostColdFlushUs ||
                    F.Member == &DeviceProfile::HostColdRegionUs ||
                    F.Member == &DeviceProfile::HostColdQueueUs ||
                    F.Member == &DeviceProfile::HostColdRegionQueueUs ||
                    F.Member == &DeviceProfile::TranscendentalNsPerElement;
    if (It == Params.end() && Optional) {
      P.*F.Member = {0, "not in this profile"};
      continue;
    }
    if (It == Params.end())
      return fail(Path, "missing " + Where);
    if (!It->is_object() || !It->contains("value") ||
        !(*It)["value"].is_number() || !It->contains("source") ||
        !(*It)["source"].is_string() ||
        (*It)["source"].get<std::string>().empty())
      return fail(Path, Where + ": expected {\"value\": number, \"source\": "
                                "non-empty string}");
    double V = (*It)["value"].get<double>();
    if (!(V >= 0) ||
        (F.Member == &DeviceProfile::MemoryBandwidthGBps && V <= 0))
      return fail(Path, Where + ": value must be positive");
    // A microsecond or GB/s figure beyond 1e9 is a typo, and would make
    // every total print as infinity.
    if (V > 1e9)
      return fail(Path, Where + ": value must be at most 1e9");
    P.*F.Member = {V, (*It)["source"].get<std::string>()};
    if (F.Member == &DeviceProfile::BreakResumeUs)
      P.HasBreakResume = true;
    if (F.Member == &DeviceProfile::HostEagerUs)
      P.HasHostEager = true;
    if (F.Member == &DeviceProfile::HostAfterCompileUs)
      P.HasAfterCompile = true;
    if (F.Member == &DeviceProfile::HostAfterCompileEagerUs)
      P.HasAfterCompileEager = true;
    if (F.Member == &DeviceProfile::HostColdSyncUs ||
        F.Member == &DeviceProfile::HostColdFlushUs)
      P.HasCold = true;
    if (F.Member == &DeviceProfile::HostColdRegionUs)
      P.HasColdRegion = true;
    if (F.Member == &DeviceProfile::HostPrintUs ||
        F.Member == &DeviceProfile::HostPrintTensorUs ||
        F.Member == &DeviceProfile::HostElementUs ||
        F.Member == &DeviceProfile::HostFlushUs)
      P.HasHostWork = true;
  }
  return P;
}

llvm::Expected<DeviceProfile> loadProfile(llvm::StringRef NameOrPath,
                                          llvm::StringRef ProfilesDir) {
  std::string Path = NameOrPath.str();
  if (!NameOrPath.ends_with(".json") && !NameOrPath.contains('/')) {
    llvm::SmallString<256> P(ProfilesDir);
    llvm::sys::path::append(P, NameOrPath + ".json");
    Path = std::string(P);
    if (!llvm::sys::fs::exists(Path))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "unknown profile '%s' (no %s; give a bundled name such as h100, "
          "h200, a100, l4, seamrt-local, or a path to a JSON file)",
          NameOrPath.str().c_str(), Path.c_str());
  }
  auto Buf = readInputFile(Path, "a device profile");
  if (!Buf)
    return Buf.takeError();
  return parseProfile((*Buf)->getBuffer(), Path);
}

llvm::Expected<DeviceProfile> parseProfile(llvm::StringRef Text,
                                           llvm::StringRef Path) {
  // nlohmann reports some bad input by exception (a number that overflows a
  // double, a value of the wrong type): one clear error, never a crash.
  try {
    return parseProfileUnchecked(Text, Path);
  } catch (const nlohmann::json::exception &E) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(), "%s: %s",
                                   Path.str().c_str(), E.what());
  }
}

} // namespace seam
