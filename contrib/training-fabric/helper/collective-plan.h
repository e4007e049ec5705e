/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Collective algorithms as graphs of point-to-point transfers.
 */
#ifndef COLLECTIVE_PLAN_H
#define COLLECTIVE_PLAN_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// A collective operation on a group of ranks.
struct CollectiveSpec
{
    std::string type{"all-reduce"}; //!< all-reduce | reduce-scatter | all-gather | all-to-all
    std::string algorithm{
        "ring"}; //!< ring | direct | halving-doubling | double-binary-tree | hierarchical
    /// S, nccl-tests' size, per rank: all-reduce the buffer, reduce-scatter
    /// the input, all-gather the output, all-to-all the send buffer.
    uint64_t bytes{0};
    uint32_t ranks{0};          //!< group size N
    uint32_t chunks{1};         //!< pipeline chunks per channel
    uint32_t channels{1};       //!< parallel channels (QPs), each with its share of the data
    std::vector<uint32_t> dims; //!< hierarchical: group = d1 x d2 x ... (rank = i1 + d1 i2 + ...)
    std::vector<std::string> dimAlgorithms; //!< hierarchical: algorithm per dimension (ring,
                                            //!< direct, halving-doubling)
};

/// One point-to-point transfer between ranks of the group.
struct Transfer
{
    uint32_t src{0};
    uint32_t dst{0};
    uint64_t bytes{0};
    uint32_t channel{0};
    std::vector<uint32_t> deps; //!< transfers whose arrival must precede this one's start
    /// Its depth in the dependency graph: 0 without dependencies, else one
    /// more than its deepest dependency's (a ring's step number).
    uint32_t step{0};
};

/// The transfers of one collective; a transfer may start once its dependencies have arrived.
struct CollectivePlan
{
    std::vector<Transfer> transfers;
    /// nccl-tests bus-bandwidth factor: busbw = algbw x factor.
    double busFactor{1.0};
};

/**
 * Build the transfer graph of \p spec. Throws std::invalid_argument with a
 * one-line reason for an impossible request (unknown type or algorithm, an
 * algorithm that does not do this type, dims that do not multiply to the
 * group size, zero ranks).
 *
 * Algorithms:
 *  - ring: reduce-scatter and all-gather in N-1 steps of S/N around the ring
 *    r -> r+1; all-reduce is reduce-scatter then all-gather (2(N-1) steps);
 *    step k+1 of a segment at a rank waits for step k's arrival there.
 *  - direct: every rank exchanges with every other at once (all-to-all:
 *    S/N to each; reduce-scatter: segment j to rank j; all-gather: own
 *    segment to all; all-reduce: reduce-scatter then all-gather, the
 *    all-gather of segment j waiting for all of j's reduce-scatter inputs).
 *  - halving-doubling (Rabenseifner): reduce-scatter by recursive halving
 *    (log2 N steps, partner r xor 2^k, half the remaining data each) and
 *    all-gather by recursive doubling; for N not a power of two, the ranks
 *    beyond the largest power of two P first hand their whole buffer to rank
 *    r - P and get the result back at the end (the standard fallback).
 *  - double-binary-tree (all-reduce, as NCCL): two complementary binary trees
 *    each carry half the data: reduce toward the root, then broadcast back.
 *  - hierarchical (all-reduce): reduce-scatter along dimension 1, then 2, ...
 *    on the shrinking shard, then all-gather back in reverse order, each
 *    dimension with its own algorithm.
 * Data is split evenly over channels, then chunks (pipelining), then the
 * algorithm's segments; remainders go to the first pieces.
 */
CollectivePlan PlanCollective(const CollectiveSpec& spec);

/// Payload bytes rank \p r sends in \p plan.
uint64_t BytesSentBy(const CollectivePlan& plan, uint32_t r);

} // namespace ns3

#endif /* COLLECTIVE_PLAN_H */
