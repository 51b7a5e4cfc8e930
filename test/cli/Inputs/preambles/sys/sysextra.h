// A system header (found through -isystem) that every file reaches first.
#pragma once
namespace sysextra {
inline int version() { return 1; }
}
