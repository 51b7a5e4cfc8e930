# lit configuration for Seam's analyzer tests (run through ctest).
import os
import lit.formats

config.name = "Seam"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "unit", "runtime", "integration-support"]
config.test_source_root = os.path.dirname(__file__)

build = lit_config.params.get("seam_build")
if not build:
    lit_config.fatal("run through ctest, or pass --param seam_build=<build dir>")
# With --param keep_system_bodies=1 every `seam check` also parses function
# bodies in system headers; the suite must pass unchanged (issue: analyzer
# speed).
keep_bodies = lit_config.params.get("keep_system_bodies") == "1"
config.test_exec_root = os.path.join(
    build, "test", "lit-keep-bodies" if keep_bodies else "lit")

llvm_bin = lit_config.params.get("llvm_bin", "/usr/lib/llvm-19/bin")
python = lit_config.params.get("python", "/usr/bin/python3")
inputs = os.path.join(config.test_source_root, "Inputs")
repo = os.path.dirname(config.test_source_root)

config.environment["PATH"] = os.pathsep.join(
    [llvm_bin, config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["SEAM_RULES_DIR"] = os.path.join(repo, "rules")
config.environment["LC_ALL"] = "C"
# The result cache of every test run stays in the build tree.
config.environment["XDG_CACHE_HOME"] = os.path.join(config.test_exec_root, "xdg-cache")

if keep_bodies:
    config.environment["SEAM_REAL_BIN"] = os.path.join(build, "bin", "seam")
    config.substitutions.append(
        ("%seam", os.path.join(os.path.dirname(__file__), "Inputs",
                               "seam-keep-system-bodies")))
    config.available_features.add("keep-system-bodies")
else:
    config.substitutions.append(("%seam", os.path.join(build, "bin", "seam")))
config.substitutions.append(("%bindir", os.path.join(build, "bin")))
config.substitutions.append(("%mock", "-std=c++17 -isystem " + inputs))
config.substitutions.append(("%inputs", inputs))
config.substitutions.append(("%python", python))
config.substitutions.append(
    ("%expect_exit", python + " " + os.path.join(inputs, "expect_exit.py")))
config.substitutions.append(("%repo", repo))

# %rt_cxx: the compiler that built seam::rt, with its sanitizer flags, so a
# test that builds a seam::rt program links it the way the library was built
# (a sanitized libseam_rt needs a sanitized program).
import re
rt_cxx = "c++"
cache = os.path.join(build, "CMakeCache.txt")
if os.path.exists(cache):
    text = open(cache).read()
    m = re.search(r"^CMAKE_CXX_COMPILER:[A-Z]+=(.+)$", text, re.M)
    if m:
        rt_cxx = m.group(1).strip()
    m = re.search(r"^SEAM_SANITIZE:STRING=(.+)$", text, re.M)
    if m and m.group(1).strip():
        rt_cxx += " -fsanitize=" + m.group(1).strip()
config.substitutions.append(("%rt_cxx", rt_cxx))

import shutil
if shutil.which("cmake") and shutil.which("ninja"):
    config.available_features.add("cmake")

# The clang-tidy plugin, when it was built.
tidy_plugin = os.path.join(build, "lib", "libSeamTidy.so")
clang_tidy = os.path.join(llvm_bin, "clang-tidy")
if os.path.exists(tidy_plugin) and os.path.exists(clang_tidy):
    config.available_features.add("seam-tidy")
    config.substitutions.append(
        ("%clang_tidy_seam", clang_tidy + " --load " + tidy_plugin))

# Real LibTorch headers (Debian's libtorch-dev) for the integration suite.
torch_api = "/usr/include/torch/csrc/api/include"
if os.path.exists(os.path.join(torch_api, "torch", "torch.h")):
    config.available_features.add("libtorch")
    config.substitutions.append((
        "%torch",
        "-std=c++17 -isystem " + torch_api + " -isystem " +
        os.path.join(inputs, "cuda-stub")))

# Real Thrust headers (Debian's libthrust-dev) for the shipped thrust pack,
# parsed with Thrust's host (CPP) device system: the pack describes what the
# code does on a GPU build.
if os.path.exists("/usr/include/thrust/device_vector.h"):
    config.available_features.add("thrust")
    config.substitutions.append((
        "%thrust",
        "-std=c++17 -DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CPP"))
