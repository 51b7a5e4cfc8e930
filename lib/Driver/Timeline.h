//===- Timeline.h - `seam validate --timeline`: the idle a sync costs, drawn
//===//
//
// Reads the Chrome trace a seam::rt run wrote (SEAM_RT_TRACE) and draws a
// window of it as SVG: the device's kernels and copies, the host's waits
// and launches, and after each sync the device idle it caused, labelled
// with the line that synchronized. The window holds three consecutive
// syncs of the line whose syncs left the device idle longest in all.
//
//===----------------------------------------------------------------------===//
#ifndef SEAM_DRIVER_TIMELINE_H
#define SEAM_DRIVER_TIMELINE_H

#include <optional>
#include <string>

namespace seam {

/// Writes the SVG; returns an error message (one line) on failure.
std::optional<std::string> writeTimeline(const std::string &TracePath,
                                         const std::string &SvgPath,
                                         const std::string &Title);

} // namespace seam

#endif
