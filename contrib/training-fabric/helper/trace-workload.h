/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A workload of execution traces as a whole: the checks every graph and the
 * set of graphs must pass, and the process groups collectives run on.
 */
#ifndef TRACE_WORKLOAD_H
#define TRACE_WORKLOAD_H

#include "execution-trace.h"

namespace ns3
{

/**
 * Check one graph: unique ids, no cycle, known node kinds, sizes where
 * communication needs them. A dependency on a node that is not in the graph
 * counts as met (Chakra's PyTorch converter writes parent op ids into
 * ctrl_deps, and not every parent is in the file). Throws TraceError.
 * \return the number of dependencies on absent nodes
 */
uint64_t ValidateGraph(const TraceGraph& graph);
/**
 * Check a whole workload: every graph valid, ranks 0..n-1, peers that exist,
 * and every SEND matched by a RECV on its peer (same source, destination,
 * tag and size), process groups that \p groups defines (see FindGroup).
 * Throws TraceError.
 * \return warnings, one line each (never one per node): dependencies on
 *         absent nodes, skipped communication nodes, process groups named
 *         while none is defined
 */
std::vector<std::string> ValidateWorkload(const std::vector<TraceGraph>& graphs,
                                          const CommGroups& groups);

/**
 * Add the process groups that the graphs' METADATA nodes define to \p groups,
 * replacing entries of the same name, as ASTRA-sim's
 * Workload::issue_pytorch_pg_metadata does. Chakra's PyTorch converter writes
 * them into inputs.values as a Python list holding one JSON string,
 * `['[{"pg_name": "1", "ranks": [0, 1], ...}, ...]']`; empty ranks mean every
 * rank. METADATA nodes holding anything else are left alone. Throws
 * TraceError (a rank out of range, two ranks' files disagreeing).
 */
void AddMetadataGroups(const std::vector<TraceGraph>& graphs, CommGroups& groups);

/**
 * The ranks of process group \p pgName: nullptr for every rank (pg_name ""
 * or "0", ASTRA-sim's default group, and any name when \p groups is empty,
 * as ASTRA-sim runs without a comm-group file), else its entry. Throws
 * TraceError for a name that \p groups does not define.
 */
const std::vector<uint32_t>* FindGroup(const std::string& pgName, const CommGroups& groups);

} // namespace ns3

#endif /* TRACE_WORKLOAD_H */
