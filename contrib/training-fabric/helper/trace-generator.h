/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Generated execution traces: common training patterns (data parallel,
 * mixture of experts, pipeline, gossip) as per-rank trace graphs.
 */
#ifndef TRACE_GENERATOR_H
#define TRACE_GENERATOR_H

#include "execution-trace.h"

namespace ns3
{

/// The patterns GenerateTrace knows, in the order its errors list them.
constexpr const char* kTracePatterns[] = {"dp", "moe", "pipeline", "gossip"};

/// \return "dp, moe, pipeline, gossip": kTracePatterns for an error message
std::string TracePatternList();

/// \return true if \p name is one of kTracePatterns (a pattern GenerateTrace knows)
bool IsTracePattern(const std::string& name);

/**
 * Generate the traces of a common training pattern on \p ranks ranks.
 *  - "dp": data parallel, layer by layer: per layer a backward compute of
 *    \p us, then an all-reduce of \p bytes that overlaps the next layer's
 *    compute; an optimizer step after all all-reduces.
 *  - "moe": per layer, compute, all-to-all (dispatch), compute, all-to-all
 *    (combine), \p bytes each.
 *  - "pipeline": \p count micro-batches through \p ranks stages: receive
 *    activations from the previous stage, compute, send \p bytes on.
 *  - "gossip": see GenerateGossip with a fixed ring partner, synchronous.
 * \p count is layers, micro-batches or steps. Throws TraceError for an
 * unknown pattern.
 */
std::vector<TraceGraph> GenerateTrace(const std::string& pattern,
                                      uint32_t ranks,
                                      uint32_t count,
                                      uint64_t bytes,
                                      uint64_t us);

/**
 * Decentralized gossip training (AD-PSGD, Lian et al. 2018): at each of
 * \p steps steps every learner computes for \p us, then sends its model
 * (\p bytes) to one peer and receives one model. Partner: the ring successor
 * (fixed), or, with \p random, the learner (i + k_s) mod n for a shift k_s in
 * [1, n-1] drawn per step from \p seed (so each learner receives exactly one
 * model per step). Synchronous: step s+1's compute waits for step s's
 * receive; with \p delayByOne it waits only for step s-1's (the model
 * averaged in is one step stale, as in AD-PSGD's asynchrony).
 */
std::vector<TraceGraph> GenerateGossip(uint32_t ranks,
                                       uint32_t steps,
                                       uint64_t bytes,
                                       uint64_t us,
                                       bool random,
                                       bool delayByOne,
                                       uint64_t seed);

} // namespace ns3

#endif /* TRACE_GENERATOR_H */
