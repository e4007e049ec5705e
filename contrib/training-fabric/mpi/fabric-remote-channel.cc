/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-remote-channel.h"

#include "ns3/fabric-net-device.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(FabricRemoteChannel);

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
    rx->SetReceiveCallback(MakeCallback(&FabricNetDevice::Receive, device));
    device->AggregateObject(rx);
}

void
FabricRemoteChannel::Transmit(Ptr<Packet> p, const FabricNetDevice* src, Time txTime) const
{
    const Ptr<FabricNetDevice> peer = GetPeer(src);
    MpiInterface::SendPacket(p,
                             Simulator::Now() + txTime + GetDelay(),
                             peer->GetNode()->GetId(),
                             peer->GetIfIndex());
}

} // namespace ns3
