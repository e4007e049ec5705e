/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricNetDevice's answers to the rest of ns-3's NetDevice interface: index,
 * address, MTU, node, broadcast/multicast (none), and Send for frames handed
 * in through NetDevice (queued in the default class); then the port's
 * accessors (queues, rate, index, counters). The port's data path is in
 * fabric-net-device.cc.
 */
#include "fabric-channel.h"
#include "fabric-net-device.h"
#include "fabric-simulator-impl.h"

#include "ns3/abort.h"
#include "ns3/node.h"

namespace ns3
{

void
FabricNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
FabricNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
FabricNetDevice::GetChannel() const
{
    return m_channel;
}

void
FabricNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
FabricNetDevice::GetAddress() const
{
    return m_address;
}

bool
FabricNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
FabricNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
FabricNetDevice::IsBroadcast() const
{
    return false;
}

Address
FabricNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
FabricNetDevice::IsMulticast() const
{
    return false;
}

Address
FabricNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
FabricNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
FabricNetDevice::IsBridge() const
{
    return false;
}

bool
FabricNetDevice::IsPointToPoint() const
{
    return true;
}

bool
FabricNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    Enqueue(packet, m_defaultClass, 0);
    return true;
}

bool
FabricNetDevice::SendFrom(Ptr<Packet> packet,
                          const Address& source,
                          const Address& dest,
                          uint16_t protocolNumber)
{
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
FabricNetDevice::GetNode() const
{
    return m_node;
}

void
FabricNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
    m_txSlot.context = node ? node->GetId() : Simulator::NO_CONTEXT;
}

bool
FabricNetDevice::NeedsArp() const
{
    return false;
}

void
FabricNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    m_netRxCallback = cb;
}

void
FabricNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    m_promiscCallback = cb;
}

bool
FabricNetDevice::SupportsSendFrom() const
{
    return false;
}

uint64_t
FabricNetDevice::GetQueueBytes(uint8_t cls) const
{
    return m_class[cls].bytes;
}

uint64_t
FabricNetDevice::GetTxBytes() const
{
    return m_txCounters.txBytes;
}

uint64_t
FabricNetDevice::GetTotalQueueBytes() const
{
    return m_totalQueueBytes;
}

uint32_t
FabricNetDevice::GetQueueFrames(uint8_t cls) const
{
    return static_cast<uint32_t>(m_class[cls].frames.size());
}

bool
FabricNetDevice::IsBusy() const
{
    return m_busy;
}

DataRate
FabricNetDevice::GetDataRate() const
{
    return m_rate;
}

void
FabricNetDevice::SetDataRate(DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "FabricNetDevice: DataRate must be positive");
    m_rate = rate;
    m_bps = rate.GetBitRate();
    // Picoseconds per byte when whole (100, 200, 400, 800 Gb/s and most
    // others), so the line time of a frame is one multiplication.
    constexpr uint64_t kBitPs = 8000000000000ULL; // 8 bits x 1e12 ps/s
    m_psPerByte = kBitPs % m_bps == 0 ? kBitPs / m_bps : 0;
}

uint64_t
FabricNetDevice::GetBitRate() const
{
    return m_bps;
}

void
FabricNetDevice::SetPortIndex(uint32_t index)
{
    m_portIndex = index;
}

uint32_t
FabricNetDevice::GetPortIndex() const
{
    return m_portIndex;
}

FabricNetDevice::Counters
FabricNetDevice::GetCounters() const
{
    Counters c = m_counters;
    c.txFrames = m_txCounters.txFrames;
    c.txBytes = m_txCounters.txBytes;
    c.rxFrames = m_rxCounters.rxFrames;
    c.rxBytes = m_rxCounters.rxBytes;
    c.maxQueueBytes = m_txCounters.maxQueueBytes;
    const Time now = FabricSimulatorImpl::FastNow();
    for (uint32_t i = 0; i < kNumClasses; ++i)
    {
        if (now < m_pausedUntil[i])
        {
            c.pausedTime[i] += now - m_pauseStart[i];
        }
    }
    return c;
}

} // namespace ns3
