/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-partition.h"

#include <stdexcept>

namespace ns3
{

namespace
{
void
CheckRanks(uint32_t ranks, uint32_t blocks, const char* what)
{
    if (ranks < 1 || ranks > blocks)
    {
        throw std::invalid_argument("ranks: expected 1.." + std::to_string(blocks) + " (one " +
                                    what + " at least per rank), got " + std::to_string(ranks));
    }
}
} // namespace

uint32_t
FabricPartition::Block(uint32_t i, uint32_t n, uint32_t ranks)
{
    return static_cast<uint32_t>(static_cast<uint64_t>(i) * ranks / n);
}

FabricPartition
FabricPartition::Pods(uint32_t pods,
                      uint32_t edgesPerPod,
                      uint32_t aggsPerPod,
                      uint32_t hostsPerEdge,
                      uint32_t cores,
                      uint32_t ranks)
{
    CheckRanks(ranks, pods, "pod");
    FabricPartition p;
    p.ranks = ranks;
    p.scheme = "pods";
    for (uint32_t pod = 0; pod < pods; ++pod)
    {
        p.switchRank.insert(p.switchRank.end(), edgesPerPod, Block(pod, pods, ranks));
    }
    for (uint32_t pod = 0; pod < pods; ++pod)
    {
        p.switchRank.insert(p.switchRank.end(), aggsPerPod, Block(pod, pods, ranks));
    }
    for (uint32_t c = 0; c < cores; ++c)
    {
        p.switchRank.push_back(Block(c, cores, ranks));
    }
    for (uint32_t pod = 0; pod < pods; ++pod)
    {
        p.hostRank.insert(p.hostRank.end(),
                          static_cast<std::size_t>(edgesPerPod) * hostsPerEdge,
                          Block(pod, pods, ranks));
    }
    return p;
}

FabricPartition
FabricPartition::Leaves(uint32_t leaves, uint32_t spines, uint32_t hostsPerLeaf, uint32_t ranks)
{
    CheckRanks(ranks, leaves, "leaf");
    FabricPartition p;
    p.ranks = ranks;
    p.scheme = "leaves";
    for (uint32_t l = 0; l < leaves; ++l)
    {
        p.switchRank.push_back(Block(l, leaves, ranks));
        p.hostRank.insert(p.hostRank.end(), hostsPerLeaf, Block(l, leaves, ranks));
    }
    for (uint32_t s = 0; s < spines; ++s)
    {
        p.switchRank.push_back(Block(s, spines, ranks));
    }
    return p;
}

FabricPartition
FabricPartition::Slabs(const std::vector<uint32_t>& dims, uint32_t ranks)
{
    if (dims.empty())
    {
        throw std::invalid_argument("torus: dims must list at least one dimension size");
    }
    const uint32_t last = dims.back();
    CheckRanks(ranks, last, "slab of the last dimension");
    uint64_t slab = 1; // vertices per slab (one value of the last coordinate)
    for (std::size_t d = 0; d + 1 < dims.size(); ++d)
    {
        slab *= dims[d];
    }
    FabricPartition p;
    p.ranks = ranks;
    p.scheme = "slabs";
    for (uint32_t c = 0; c < last; ++c)
    {
        p.switchRank.insert(p.switchRank.end(), slab, Block(c, last, ranks));
    }
    p.hostRank = p.switchRank; // host v hangs off vertex v
    return p;
}

} // namespace ns3
