/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-remote-channel.h"

#include "ns3/fabric-net-device.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/quad-heap-scheduler.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricRemoteChannel);

namespace
{
/// MPI hands a frame over one time step before its arrival (see Transmit).
/// (A function: a static Time would be rescaled if the resolution changed.)
Time
Early()
{
    return TimeStep(1);
}

/// A frame from the other rank, one step before it arrives: its arrival is
/// scheduled as a local channel schedules it, canonically ordered.
void
ArriveFromRank(Ptr<FabricNetDevice> device, Ptr<Packet> p)
{
    QuadHeapScheduler::ScheduleArrival(device->GetNode()->GetId(),
                                       device->GetIfIndex(),
                                       Early(),
                                       &FabricNetDevice::Receive,
                                       device,
                                       p);
}
} // namespace

TypeId
FabricRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricRemoteChannel")
                            .SetParent<FabricChannel>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<FabricRemoteChannel>();
    return tid;
}

void
FabricRemoteChannel::Attach(Ptr<FabricNetDevice> device)
{
    FabricChannel::Attach(device);
    // Frames from the other rank reach the device through its MpiReceiver.
    Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
    rx->SetReceiveCallback(MakeBoundCallback(&ArriveFromRank, device));
    device->AggregateObject(rx);
}

void
FabricRemoteChannel::Transmit(FabricFrame* f, const FabricNetDevice* src, Time txTime) const
{
    // The frame arrives txTime + delay from now. ns-3's engines schedule the
    // MpiReceiver event when the message comes, in no fixed place among the
    // events of its time; so it comes one step early and schedules the
    // arrival itself (ArriveFromRank), which the scheduler then orders with
    // the receiver's events as in one process. Still at least the lookahead
    // (the delay) ahead: a frame takes at least one step to serialize.
    NS_ASSERT(txTime >= Early());
    const Ptr<FabricNetDevice> peer = GetPeer(src);
    const Ptr<Packet> p = f->GetPacket();
    FabricFrame::Free(f);
    MpiInterface::SendPacket(p,
                             Simulator::Now() + txTime + GetDelay() - Early(),
                             peer->GetNode()->GetId(),
                             peer->GetIfIndex());
}

} // namespace ns3
