/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds rail-optimized fabrics: servers with several NICs, NIC i of every
 * server of a scale unit on rail (leaf) i, rails joined by spines.
 */
#ifndef RAIL_OPTIMIZED_HELPER_H
#define RAIL_OPTIMIZED_HELPER_H

#include "fabric-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Rail-optimized leaf-spine (as in NVIDIA DGX SuperPOD-style designs).
 *
 * U scale units of S servers, each server with N GPUs and N NICs. Every GPU
 * is a fabric host (its RDMA endpoint); GPU i of a server reaches the fabric
 * through NIC i. The intra-server side (NVLink/PCIe) is modelled as a server
 * switch joining the server's N GPUs (host links at the NVLink rate and
 * delay) to its N NIC uplinks; uplink i goes to rail leaf i of the scale
 * unit (fabric-facing NIC rate). Every rail leaf links to every spine.
 *
 * Hosts: GPU i of server s of scale unit u is host (u S + s) N + i. Switch
 * indices: server switches ("srv<u>.<s>", u S + s), then rail leaves
 * ("rail<u>.<i>"), then spines ("spine<k>"). Server-switch ports: GPUs
 * 0..N-1, then NIC uplinks N..2N-1.
 *
 * All shortest paths leave a server through any NIC (every rail reaches
 * every server of the scale unit in two hops); InstallRailRouting() keeps
 * traffic on the source GPU's own rail, as rail-optimized deployments do.
 */
class RailOptimizedHelper : public FabricTopologyHelper
{
  public:
    RailOptimizedHelper();

    void SetShape(uint32_t scaleUnits,
                  uint32_t serversPerUnit,
                  uint32_t nicsPerServer,
                  uint32_t spines);
    // Host link (SetHostLink): NIC to rail leaf; fabric link (SetFabricLink):
    // rail leaf to spine; both default 400 Gb/s, 1 us.
    /// GPU to server switch (NVLink/PCIe). Default 3.6 Tb/s (NVLink 4: 450 GB/s
    /// per direction per GPU) and 100 ns.
    void SetIntraServerLink(DataRate rate, Time delay);

    Ptr<FabricTopology> Install() override;

    /// Keep each GPU's traffic on its own rail (NIC i) at the server switch.
    void InstallRailRouting(Ptr<FabricTopology> topo) const;

    uint32_t GetNHosts() const;
    uint32_t GetServerSwitch(uint32_t unit, uint32_t server) const;
    uint32_t GetRailLeaf(uint32_t unit, uint32_t rail) const;
    uint32_t GetSpine(uint32_t k) const;

  private:
    uint32_t m_units{1};
    uint32_t m_servers{4};
    uint32_t m_nics{8};
    uint32_t m_spines{2};
    DataRate m_nvRate;
    Time m_nvDelay;
};

} // namespace ns3

#endif /* RAIL_OPTIMIZED_HELPER_H */
