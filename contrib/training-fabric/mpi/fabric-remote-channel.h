/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * A FabricChannel whose two ends are simulated by different MPI ranks.
 */
#ifndef FABRIC_REMOTE_CHANNEL_H
#define FABRIC_REMOTE_CHANNEL_H

#include "ns3/fabric-channel.h"

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief The cable of a link whose ends are on two MPI ranks.
 *
 * Built only with ns-3's MPI engine (lib tf-ns3-mpi). As ns-3's
 * PointToPointRemoteChannel does, Transmit() hands the frame to
 * MpiInterface::SendPacket, addressed to the peer's node id and interface
 * index, for one time step before its arrival (now + serialization +
 * propagation delay); the far rank's MpiReceiver, aggregated to every device
 * attached here, then schedules FabricNetDevice::Receive at the arrival
 * with QuadHeapScheduler::ScheduleArrival, as a local FabricChannel does, so
 * that arrivals keep the one-process order of their timestamp. The packet crosses as
 * ns-3's serialized packet: bytes, tags and metadata (with the uid) survive.
 * The link's Delay attribute is the lookahead ns-3's engines read.
 */
class FabricRemoteChannel : public FabricChannel
{
  public:
    static TypeId GetTypeId();

    void Attach(Ptr<FabricNetDevice> device) override;
    void Transmit(FabricFrame* f, const FabricNetDevice* src, Time txTime) const override;
};

} // namespace ns3

#endif /* FABRIC_REMOTE_CHANNEL_H */
