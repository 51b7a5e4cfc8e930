//===- FuzzCacheEntry.cpp - libFuzzer target: the result cache's reader ---===//
//
// The input is a cache entry as found on disk under the key "fuzzkey" (a
// concurrent writer, a bad restore or bit rot can leave anything there): a
// lookup either returns it or drops it with a note, never crashes.
//
//===----------------------------------------------------------------------===//
#include "Driver/ResultCache.h"
#include "FuzzInputs.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const std::string Dir = seam::fuzz::scratchDir() + "/cache";
  static seam::ResultCache Cache(Dir, 1ull << 30);
  llvm::sys::fs::create_directories(Dir + "/fu");
  std::string Path = seam::fuzz::writeInput("entry.json", Data, Size);
  if (llvm::sys::fs::rename(Path, Dir + "/fu/fuzzkey.json"))
    std::abort();
  std::string Note;
  std::optional<seam::CachedTU> TU = Cache.lookup("fuzzkey", Note);
  (void)TU;
  return 0;
}
