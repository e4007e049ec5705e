/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Switch-local adaptive routing: the least-loaded equal-cost egress.
 */
#ifndef ADAPTIVE_ROUTING_H
#define ADAPTIVE_ROUTING_H

#include "flowlet-routing.h"

#include <vector>

namespace ns3
{

class FabricNetDevice;
class FabricSwitch;

/**
 * \ingroup training-fabric
 * \brief Switch-local adaptive routing, as merchant ASICs offer it (Broadcom's
 * Dynamic Load Balancing, NVIDIA Spectrum's adaptive routing): among the
 * equal-cost next hops, take the egress port with the fewest bytes queued
 * (all classes); with PauseAware a port whose class of the frame is paused
 * by PFC counts as full. Ties are broken uniformly at random.
 *
 * Granularity Packet decides per frame (frames of a flow reorder); Flowlet
 * decides per flowlet (FlowletTable, as FlowletRouting) and keeps the port
 * within a flowlet. The policy reads its switch's ports directly (SetSwitch):
 * two loads per candidate, no lookup by name, no allocation.
 */
class AdaptiveRouting : public FabricRouting
{
  public:
    /// When a choice is made.
    enum Granularity
    {
        PACKET,  //!< every frame
        FLOWLET, //!< the first frame of every flowlet
    };

    static TypeId GetTypeId();
    AdaptiveRouting();
    ~AdaptiveRouting() override;

    /// Read the egress queues of \p sw's ports (call after its ports are added).
    void SetSwitch(Ptr<FabricSwitch> sw);

    uint16_t SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n) override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    /// The least-loaded candidate for a frame of class \p cls.
    uint16_t LeastLoaded(const uint16_t* candidates, uint32_t n, uint8_t cls);

    Granularity m_granularity;
    bool m_pauseAware;
    Time m_timeout;
    uint32_t m_seed;
    uint32_t m_size;
    FlowletTable m_table;
    std::vector<FabricNetDevice*> m_ports; //!< the switch's ports (owned by the switch)
    Ptr<UniformRandomVariable> m_uniform;
};

} // namespace ns3

#endif /* ADAPTIVE_ROUTING_H */
