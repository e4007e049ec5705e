/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds k-ary fat-trees and general three-tier Clos fabrics.
 */
#ifndef FAT_TREE_HELPER_H
#define FAT_TREE_HELPER_H

#include "fabric-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Three-tier Clos: pods of edge and aggregation switches, and cores.
 *
 * Shape: P pods; in each pod E edge switches with H hosts each and A
 * aggregation switches; every edge switch links to every aggregation switch
 * of its pod; C cores per aggregation index, so A x C cores: core group j
 * (cores j*C .. j*C + C - 1) links to aggregation switch j of every pod.
 * Oversubscription: H x host rate : A x fabric rate at the edge, E : C at the
 * aggregation tier.
 *
 * The k-ary fat-tree (Al-Fares et al., SIGCOMM 2008) is P = k, E = A = H =
 * C = k/2: k^3/4 hosts, k^2/2 edge + k^2/2 aggregation + k^2/4 core = 5k^2/4
 * switches, and (k/2)^2 equal-cost paths between hosts of different pods.
 *
 * Hosts are numbered pod by pod, edge by edge. Switch indices: edges (pod
 * major), then aggregation switches, then cores; names "edge<p>.<e>",
 * "agg<p>.<a>", "core<c>".
 */
class FatTreeHelper : public FabricTopologyHelper
{
  public:
    FatTreeHelper();

    /// A k-ary fat-tree (k even, at least 2).
    void SetK(uint32_t k);
    /// A general three-tier Clos.
    void SetClos(uint32_t pods,
                 uint32_t edgesPerPod,
                 uint32_t aggsPerPod,
                 uint32_t hostsPerEdge,
                 uint32_t coresPerAgg);

    Ptr<FabricTopology> Install() override;

    uint32_t GetNHosts() const;
    uint32_t GetNSwitches() const;
    /// Switch index of edge switch \p e of pod \p p.
    uint32_t GetEdge(uint32_t p, uint32_t e) const;
    /// Switch index of aggregation switch \p a of pod \p p.
    uint32_t GetAgg(uint32_t p, uint32_t a) const;
    /// Switch index of core \p c.
    uint32_t GetCore(uint32_t c) const;

  protected:
    FabricPartition MakePartition(uint32_t ranks) const override;

  private:
    uint32_t m_pods{4};
    uint32_t m_edges{2};
    uint32_t m_aggs{2};
    uint32_t m_hosts{2};
    uint32_t m_coresPerAgg{2};
    bool m_badK{false};
};

} // namespace ns3

#endif /* FAT_TREE_HELPER_H */
