/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The text trace format: a small hand-written form of per-rank execution
 * graphs (grammar in doc/training-fabric.md, "Text traces").
 */
#ifndef TEXT_TRACE_H
#define TEXT_TRACE_H

#include "execution-trace.h"

namespace ns3
{

/**
 * Parse the text trace format (see doc/training-fabric.md, "Text traces"):
 * `rank <r>` sections of lines `<id>: comp <us>`, `<id>: send <bytes> to <r>
 * [tag <t>]`, `<id>: recv <bytes> from <r> [tag <t>]`, `<id>: coll
 * <collective> <bytes> [group <name>]`, each optionally followed by
 * `after <id>,<id>...` (data dependencies), `ctrl <id>,...` and `name <word>`.
 */
std::vector<TraceGraph> ParseTextTrace(const std::string& text, const std::string& source);

} // namespace ns3

#endif /* TEXT_TRACE_H */
