/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Which MPI rank (ns-3 system id) simulates each host and switch of a fabric.
 */
#ifndef FABRIC_PARTITION_H
#define FABRIC_PARTITION_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief A split of a fabric's nodes over MPI ranks (ns-3 system ids).
 *
 * Indices are those of FabricTopology (hosts and switches in the order the
 * topology helper adds them). A host is always on the rank of the switch it
 * is attached to, so that only switch-to-switch links cross ranks. The
 * builders split the natural blocks of each shape into \p ranks contiguous
 * runs (block i of n goes to rank floor(i * ranks / n)), so ranks differ by
 * at most one block:
 *  - Pods: a fat-tree's pods (edge and aggregation switches and their hosts);
 *    the core switches are spread the same way over their own count.
 *  - Leaves: a leaf-spine's leaves with their hosts; the spines likewise.
 *  - Slabs: a torus cut across its last dimension (vertex v's last
 *    coordinate), each slab a contiguous run of vertex indices.
 */
struct FabricPartition
{
    uint32_t ranks{1};                //!< number of ranks
    std::string scheme;               //!< "pods", "leaves" or "slabs"
    std::vector<uint32_t> hostRank;   //!< rank of each host
    std::vector<uint32_t> switchRank; //!< rank of each switch

    /// \return the rank of block \p i of \p n split over \p ranks
    static uint32_t Block(uint32_t i, uint32_t n, uint32_t ranks);

    /**
     * Fat-tree (FatTreeHelper's numbering: edge switches pod-major, then the
     * aggregation switches pod-major, then the cores; hosts pod, edge, host).
     * Throws std::invalid_argument when ranks exceeds the pods.
     */
    static FabricPartition Pods(uint32_t pods,
                                uint32_t edgesPerPod,
                                uint32_t aggsPerPod,
                                uint32_t hostsPerEdge,
                                uint32_t cores,
                                uint32_t ranks);
    /**
     * Leaf-spine (LeafSpineHelper's numbering: leaves, then spines; hosts
     * leaf-major). Throws std::invalid_argument when ranks exceeds the leaves.
     */
    static FabricPartition Leaves(uint32_t leaves,
                                  uint32_t spines,
                                  uint32_t hostsPerLeaf,
                                  uint32_t ranks);
    /**
     * Torus (TorusHelper's numbering: vertex v has coordinate c[d] = (v /
     * prod(dims[0..d-1])) % dims[d]; host v on switch v). Throws
     * std::invalid_argument when ranks exceeds the last dimension.
     */
    static FabricPartition Slabs(const std::vector<uint32_t>& dims, uint32_t ranks);
};

} // namespace ns3

#endif /* FABRIC_PARTITION_H */
