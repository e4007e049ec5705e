/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "rdma-congestion-ops.h"

#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

TypeId
RdmaQueuePair::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaQueuePair")
            .SetParent<Object>()
            .SetGroupName("TrainingFabric")
            .AddTraceSource("Rate",
                            "Pacing rate set by congestion control.",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_rate),
                            "ns3::TracedValueCallback::DataRate")
            .AddTraceSource("Window",
                            "Window in payload bytes set by congestion control (0 = none).",
                            MakeTraceSourceAccessor(&RdmaQueuePair::m_window),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

RdmaQueuePair::RdmaQueuePair() = default;
RdmaQueuePair::~RdmaQueuePair() = default;

void
RdmaQueuePair::DoDispose()
{
    m_rtoEvent.Cancel();
    if (m_cc)
    {
        m_cc->Stop();
    }
    m_cc = nullptr;
    m_nic = nullptr;
    m_sendComplete = SendCompleteCallback();
    m_recvComplete = RecvCompleteCallback();
    Object::DoDispose();
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_qpn;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_peerQpn;
}

uint32_t
RdmaQueuePair::GetSrcHost() const
{
    return m_srcHost;
}

uint32_t
RdmaQueuePair::GetDstHost() const
{
    return m_dstHost;
}

uint16_t
RdmaQueuePair::GetSrcPort() const
{
    return m_srcPort;
}

uint8_t
RdmaQueuePair::GetClass() const
{
    return m_class;
}

void
RdmaQueuePair::SetRate(DataRate rate)
{
    m_rate = std::min(rate, m_lineRate);
}

DataRate
RdmaQueuePair::GetRate() const
{
    return m_rate;
}

void
RdmaQueuePair::SetWindow(uint64_t bytes)
{
    m_window = bytes;
}

uint64_t
RdmaQueuePair::GetWindow() const
{
    return m_window;
}

DataRate
RdmaQueuePair::GetLineRate() const
{
    return m_lineRate;
}

Time
RdmaQueuePair::GetBaseRtt() const
{
    return m_baseRtt;
}

void
RdmaQueuePair::SetBaseRtt(Time rtt)
{
    m_baseRtt = rtt;
}

uint32_t
RdmaQueuePair::GetMtu() const
{
    return m_mtu;
}

Ptr<RdmaCongestionOps>
RdmaQueuePair::GetCongestionOps() const
{
    return m_cc;
}

std::size_t
RdmaQueuePair::FindMessage(uint64_t psn) const
{
    // Messages are few per QP and sorted by PSN: a linear scan from the
    // oldest is as fast as a binary search here.
    for (std::size_t i = 0; i < m_msgs.size(); ++i)
    {
        if (psn < m_msgs[i].endPsn)
        {
            return i;
        }
    }
    return m_msgs.size();
}

uint64_t
RdmaQueuePair::PsnToByte(uint64_t psn) const
{
    std::size_t i = FindMessage(psn);
    if (i == m_msgs.size())
    {
        return m_postedBytes;
    }
    const Message& m = m_msgs[i];
    return m.firstByte + std::min(m.bytes, (psn - m.firstPsn) * m_mtu);
}

uint64_t
RdmaQueuePair::GetBytesInFlight() const
{
    return PsnToByte(m_sndNxt) - PsnToByte(m_sndUna);
}

uint64_t
RdmaQueuePair::GetBytesPosted() const
{
    return m_postedBytes;
}

uint64_t
RdmaQueuePair::GetBytesAcked() const
{
    return PsnToByte(m_sndUna);
}

uint64_t
RdmaQueuePair::GetRetransmits() const
{
    return m_retransmits;
}

uint64_t
RdmaQueuePair::GetTimeouts() const
{
    return m_timeouts;
}

uint64_t
RdmaQueuePair::GetNextPsn() const
{
    return m_sndNxt;
}

uint64_t
RdmaQueuePair::GetUnackedPsn() const
{
    return m_sndUna;
}

Time
RdmaQueuePair::GetLastRtt() const
{
    return m_lastRtt;
}

bool
RdmaQueuePair::IsIdle() const
{
    return m_sndUna >= m_postedEndPsn;
}

void
RdmaQueuePair::SetSendCompleteCallback(SendCompleteCallback cb)
{
    m_sendComplete = cb;
}

void
RdmaQueuePair::SetRecvCompleteCallback(RecvCompleteCallback cb)
{
    m_recvComplete = cb;
}

} // namespace ns3
