//===- noisy.cpp - A sync whose idle moves from run to run ----------------===//
//
// Built as validate_noisy for test/cli/validate.test: after each sync the
// host sleeps before it enqueues more, as long as a busy machine might make
// it: 1 ms in even runs, 64 ms in odd ones (the run number is kept in the
// file SEAM_TEST_NOISY_STATE names). The device idle measured per run then
// moves far more than any tolerance from the second run on, at any number
// of runs: `seam validate --repeat` must call the line noisy rather than
// pass or fail it.
//
//===----------------------------------------------------------------------===//

#include <seam/rt.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <thread>

using namespace seam::rt;

int main() {
  int Run = 0;
  const char *State = std::getenv("SEAM_TEST_NOISY_STATE");
  if (State) {
    std::ifstream(State) >> Run;
    std::ofstream(State) << Run + 1;
  }
  // Far apart even where a loaded machine's scheduler adds milliseconds to
  // every wake-up.
  const int SleepUs = Run % 2 ? 64000 : 1000;
  Tensor X = randn({1 << 12}, kAccel, 1);
  float Sum = 0;
  for (int I = 0; I < 5; ++I) {
    X = relu(X * 0.5 + 0.25);
    Sum += X.sum().item<float>();
    std::this_thread::sleep_for(std::chrono::microseconds(SleepUs));
  }
  std::cout << "noisy " << Sum << "\n";
}
