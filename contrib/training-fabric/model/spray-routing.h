/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Per-packet spraying over the equal-cost next hops.
 */
#ifndef SPRAY_ROUTING_H
#define SPRAY_ROUTING_H

#include "fabric-routing.h"

#include "ns3/ptr.h"

#include <vector>

namespace ns3
{

class UniformRandomVariable;

/**
 * \ingroup training-fabric
 * \brief Packet spraying: every frame independently takes one of the n
 * equal-cost next hops, uniformly at random (random packet spraying, Dixit et
 * al., INFOCOM 2013) or round robin. The round-robin pointer is kept per
 * destination host, so the frames toward one destination cycle through the
 * group exactly: of k frames, each member carries floor(k/n) or ceil(k/n).
 * Frames of one flow take different paths and may arrive out of order.
 */
class SprayRouting : public FabricRouting
{
  public:
    /// How a frame picks its port.
    enum Mode
    {
        RANDOM,      //!< uniform over the candidates
        ROUND_ROBIN, //!< next member of the group, per destination host
    };

    static TypeId GetTypeId();
    SprayRouting();
    ~SprayRouting() override;

    uint16_t SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n) override;
    int64_t AssignStreams(int64_t stream) override;

  private:
    Mode m_mode;
    std::vector<uint32_t> m_next; //!< round robin: next member, per destination host
    Ptr<UniformRandomVariable> m_uniform;
};

} // namespace ns3

#endif /* SPRAY_ROUTING_H */
