/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds a two-tier leaf-spine (folded Clos) fabric.
 */
#ifndef LEAF_SPINE_HELPER_H
#define LEAF_SPINE_HELPER_H

#include "fabric-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Leaf-spine builder: L leaves, S spines, H hosts per leaf, P parallel
 * links between every leaf and every spine.
 *
 * Hosts are numbered leaf by leaf (hosts 0..H-1 on leaf 0, ...). Switch
 * indices: leaves 0..L-1 ("leaf0"...), then spines L..L+S-1 ("spine0"...).
 * On a leaf, ports 0..H-1 face the hosts and port H + s*P + k is the k-th
 * link to spine s; on a spine, port l*P + k is the k-th link to leaf l.
 *
 * \code
 *   LeafSpineHelper ls;
 *   ls.SetShape(2, 8, 8);                         // 2 leaves, 8 spines, 8 hosts each
 *   ls.SetHostLink(DataRate("400Gbps"), MicroSeconds(1));
 *   ls.SetFabricLink(DataRate("400Gbps"), MicroSeconds(1));
 *   Ptr<FabricTopology> topo = ls.Install();      // routes computed, MMUs sized
 * \endcode
 */
class LeafSpineHelper : public FabricTopologyHelper
{
  public:
    LeafSpineHelper();

    /// Set the shape; Install() rejects zero counts.
    void SetShape(uint32_t leaves,
                  uint32_t spines,
                  uint32_t hostsPerLeaf,
                  uint32_t linksPerPair = 1);

    /**
     * Build the fabric. Throws std::invalid_argument with a one-line reason
     * on an impossible shape (zero leaves, spines or hosts; more than 65535
     * ports on a switch) or when the switch buffer cannot hold its headroom.
     */
    Ptr<FabricTopology> Install() override;

    uint32_t GetLeaves() const;
    uint32_t GetSpines() const;
    uint32_t GetHostsPerLeaf() const;
    uint32_t GetLinksPerPair() const;
    /// \return switch index of the leaf of \p host
    uint32_t GetLeafOf(uint32_t host) const;
    /// \return switch index of spine \p s
    uint32_t GetSpineSwitch(uint32_t s) const;
    /// \return leaf port of the k-th link from leaf \p leaf to spine \p spine
    uint32_t GetUplinkPort(uint32_t spine, uint32_t k = 0) const;
    /// \return spine port of the k-th link to leaf \p leaf
    uint32_t GetDownlinkPort(uint32_t leaf, uint32_t k = 0) const;

  protected:
    FabricPartition MakePartition(uint32_t ranks) const override;

  private:
    uint32_t m_leaves{2};
    uint32_t m_spines{2};
    uint32_t m_hostsPerLeaf{4};
    uint32_t m_linksPerPair{1};
};

} // namespace ns3

#endif /* LEAF_SPINE_HELPER_H */
