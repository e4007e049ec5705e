/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-queue-pair.h"

#include "fabric-frame.h"
#include "fabric-simulator-impl.h"
#include "rdma-congestion-ops.h"
#include "rdma-nic.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaQueuePair");
NS_OBJECT_ENSURE_REGISTERED(RdmaQueuePair);

namespace
{
using roce::kPsnHalf;
using roce::kPsnMask;

inline uint64_t
NowPs()
{
    return static_cast<uint64_t>(FabricSimulatorImpl::FastNow().GetPicoSeconds());
}
} // namespace

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
    NS_LOG_FUNCTION(this);
    m_rtoEvent.Cancel();
    m_rtoArmed = false;
    if (m_cfg.cc)
    {
        m_cfg.cc->Stop();
    }
    m_cfg = Config();
    m_sendComplete = SendCompleteCallback();
    m_recvComplete = RecvCompleteCallback();
    Object::DoDispose();
}

void
RdmaQueuePair::Setup(Config config)
{
    NS_LOG_FUNCTION(this << config.qpn << config.srcHost << config.dstHost << +config.cls);
    m_cfg = std::move(config);
    m_rate = m_cfg.lineRate;
}

uint32_t
RdmaQueuePair::GetQpn() const
{
    return m_cfg.qpn;
}

uint32_t
RdmaQueuePair::GetPeerQpn() const
{
    return m_cfg.peerQpn;
}

uint32_t
RdmaQueuePair::GetSrcHost() const
{
    return m_cfg.srcHost;
}

uint32_t
RdmaQueuePair::GetDstHost() const
{
    return m_cfg.dstHost;
}

uint16_t
RdmaQueuePair::GetSrcPort() const
{
    return m_cfg.srcPort;
}

void
RdmaQueuePair::SetRate(DataRate rate)
{
    m_rate = std::min(rate, m_cfg.lineRate);
    NS_LOG_LOGIC("qp " << m_cfg.qpn << " rate " << m_rate.Get());
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
    NS_LOG_LOGIC("qp " << m_cfg.qpn << " window " << bytes << " B");
}

uint64_t
RdmaQueuePair::GetWindow() const
{
    return m_window;
}

DataRate
RdmaQueuePair::GetLineRate() const
{
    return m_cfg.lineRate;
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
    return m_cfg.mtu;
}

Ptr<RdmaNic>
RdmaQueuePair::GetNic() const
{
    return m_cfg.nic;
}

Ptr<RdmaCongestionOps>
RdmaQueuePair::GetCongestionOps() const
{
    return m_cfg.cc;
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
    return m.firstByte + std::min(m.bytes, (psn - m.firstPsn) * m_cfg.mtu);
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

uint64_t
RdmaQueuePair::Post(uint64_t bytes)
{
    NS_LOG_FUNCTION(this << bytes);
    NS_ABORT_MSG_IF(!m_cfg.cc, "RdmaQueuePair::Post: QP not connected (RdmaNic::Connect)");
    NS_ABORT_MSG_IF(bytes == 0, "RdmaQueuePair::Post: a message carries at least one byte");
    const uint32_t mtu = m_cfg.mtu;
    Message m;
    m.seq = m_nextMsgSeq++;
    m.bytes = bytes;
    m.firstPsn = m_postedEndPsn;
    m.endPsn = m.firstPsn + (bytes + mtu - 1) / mtu;
    m.firstByte = m_postedBytes;
    m_msgs.push_back(m);
    m_postedEndPsn = m.endPsn;
    m_postedBytes += bytes;
    NS_LOG_DEBUG("qp " << m_cfg.qpn << " message " << m.seq << ": psn " << m.firstPsn << ".."
                       << m.endPsn - 1);
    if (m_msgs.size() == 1)
    {
        m_lastProgress = FabricSimulatorImpl::FastNow();
    }
    if (!m_ccStarted)
    {
        m_ccStarted = true;
        m_int = m_cfg.cc->NeedsInt();
        m_cfg.cc->Init(*this);
    }
    m_cfg.ready(*this);
    return m.seq;
}

OwnedFrame
RdmaQueuePair::SendNext()
{
    NS_LOG_FUNCTION(this << m_sndNxt);
    // A selective resend first (its PSN is below m_sndNxt), else the next PSN.
    const bool resend = !m_rtx.empty();
    const uint64_t psn = resend ? m_rtx.front() : m_sndNxt;
    if (resend)
    {
        m_rtx.erase(m_rtx.begin());
    }
    else
    {
        while (m_sendIdx < m_msgs.size() && psn >= m_msgs[m_sendIdx].endPsn)
        {
            m_sendIdx++;
        }
    }
    const std::size_t idx = resend ? FindMessage(psn) : m_sendIdx;
    NS_ASSERT(idx < m_msgs.size());
    const Message& m = m_msgs[idx];
    const uint32_t mtu = m_cfg.mtu;
    const uint64_t offset = (psn - m.firstPsn) * mtu;
    const uint32_t payload = static_cast<uint32_t>(std::min<uint64_t>(mtu, m.bytes - offset));
    const bool first = (psn == m.firstPsn);
    const bool last = (psn + 1 == m.endPsn);
    uint8_t opcode;
    if (first && last)
    {
        opcode = roce::kOpSendOnly;
    }
    else if (first)
    {
        opcode = roce::kOpSendFirst;
    }
    else if (last)
    {
        opcode = roce::kOpSendLast;
    }
    else
    {
        opcode = roce::kOpSendMiddle;
    }
    // An empty INT shim (no hops yet, room for kIntMaxHops) when the
    // algorithm wants telemetry.
    static const uint8_t kEmptyShim[roce::kIntShimBytes] = {0, roce::kIntMaxHops, 0, 0};
    FabricFrame* f = m_cfg.builder.BuildFabricFrame(opcode,
                                                    static_cast<uint32_t>(psn & kPsnMask),
                                                    last,
                                                    payload,
                                                    m_cfg.ecnCapable ? 2 : 0,
                                                    nullptr,
                                                    false,
                                                    m_int ? kEmptyShim : nullptr,
                                                    m_int ? roce::kIntShimBytes : 0);
    if (psn < m_highestSent)
    {
        m_retransmits++;
        NS_LOG_LOGIC("qp " << m_cfg.qpn << " resends psn " << psn);
    }
    else
    {
        NS_ASSERT(psn == m_highestSent); // m_sendTimes' PSNs follow on
        m_sendTimes.push_back(FabricSimulatorImpl::FastNow().GetTimeStep());
        m_highestSent = psn + 1;
    }
    if (!resend)
    {
        m_sndNxt = psn + 1;
    }
    // Pacing: the next packet of this QP may start one line-time of this
    // packet at the QP's rate later (line bytes, so that rate = line rate
    // means back to back).
    // (A congestion control whose MinRate is 0 may set 0: that paces as 1 b/s.)
    const uint64_t bps = std::max<uint64_t>(m_rate.Get().GetBitRate(), 1);
    const unsigned __int128 bits =
        static_cast<unsigned __int128>(roce::WireBytes(f->GetSize())) * 8;
    m_nextTxPs = NowPs() + static_cast<uint64_t>(bits * 1000000000000ULL / bps);
    m_cfg.cc->OnSent(*this, payload);
    ArmRto();
    return OwnedFrame(f);
}

void
RdmaQueuePair::ArmRto()
{
    if (!m_rtoArmed)
    {
        // The timer is off only while nothing is in flight: it starts with
        // this send (the last progress may be long past: a post before a
        // pause or a dead link, and then the deadline would be in the past).
        m_lastProgress = FabricSimulatorImpl::FastNow();
        ScheduleRto(m_cfg.rto);
    }
}

void
RdmaQueuePair::ScheduleRto(const Time& delay)
{
    m_rtoEvent.Cancel(); // one timer at a time
    m_rtoEvent =
        FabricSimulatorImpl::ScheduleIn(m_cfg.nic ? m_cfg.nic->GetContext() : Simulator::NO_CONTEXT,
                                        delay,
                                        &RdmaQueuePair::RtoExpired,
                                        this);
    m_rtoArmed = true;
}

void
RdmaQueuePair::RtoExpired()
{
    NS_LOG_FUNCTION(this);
    m_rtoArmed = false; // m_rtoEvent is the event running
    if (m_sndUna >= m_sndNxt && m_sndUna >= m_postedEndPsn)
    {
        return; // nothing outstanding
    }
    const Time deadline = m_lastProgress + m_cfg.rto;
    if (FabricSimulatorImpl::FastNow() < deadline)
    {
        // Progress since the timer was set: sleep until the new deadline
        // (one event per RTO period instead of one per ACK).
        ScheduleRto(deadline - FabricSimulatorImpl::FastNow());
        return;
    }
    NS_LOG_LOGIC("host " << m_cfg.srcHost << " qp " << m_cfg.qpn << " timeout at psn " << m_sndUna);
    m_timeouts++;
    m_lastProgress = FabricSimulatorImpl::FastNow();
    m_cfg.cc->OnTimeout(*this);
    GoBackN(m_sndUna);
    if (!m_rtoArmed)
    {
        // (The go-back-N's first send has armed it already when it went
        // out at once, with the same deadline.)
        ScheduleRto(m_cfg.rto);
    }
}

void
RdmaQueuePair::GoBackN(uint64_t psn)
{
    NS_LOG_FUNCTION(this << psn);
    m_sndNxt = psn;
    m_sendIdx = FindMessage(psn);
    m_rtx.clear();
    // Karn: no RTT sample from packets that may be sent twice.
    m_sendTimes.clear();
    m_nextTxPs = NowPs();
    m_cfg.ready(*this);
}

void
RdmaQueuePair::Resend(uint64_t psn)
{
    NS_LOG_FUNCTION(this << psn);
    if (psn >= m_sndNxt || std::find(m_rtx.begin(), m_rtx.end(), psn) != m_rtx.end())
    {
        return; // not sent yet (a go-back-N after a timeout), or already queued
    }
    m_rtx.push_back(psn);
    // Karn: no RTT sample from packets that may be sent twice.
    m_sendTimes.clear();
    m_cfg.ready(*this);
}

void
RdmaQueuePair::ReceiveAck(uint32_t psn,
                          bool nak,
                          bool ecnEcho,
                          const IntRecord* hops,
                          uint32_t nHops)
{
    NS_LOG_FUNCTION(this << psn << nak << ecnEcho);
    // Unwrap the 24-bit PSN against the first unacknowledged PSN.
    const uint32_t delta = (psn - static_cast<uint32_t>(m_sndUna & kPsnMask)) & kPsnMask;
    if (delta >= kPsnHalf)
    {
        // A stale NAK, or the duplicate of an older ACK (PSN = sndUna - 1).
        return;
    }
    // The NAKed PSN was not received; the ACKed PSN was.
    const uint64_t newUna = m_sndUna + delta + (nak ? 0 : 1);
    if (newUna > m_highestSent)
    {
        return; // acknowledges something never sent: ignore
    }
    RdmaAckInfo ack;
    ack.ecnEcho = ecnEcho;
    ack.intHops = hops;
    ack.nIntHops = nHops;
    if (newUna > m_sndUna)
    {
        const uint64_t oldBytes = PsnToByte(m_sndUna);
        m_sndUna = newUna;
        if (m_sndNxt < newUna)
        {
            m_sndNxt = newUna;
        }
        m_lastProgress = FabricSimulatorImpl::FastNow();
        // Holes the responder filled meanwhile need no resend.
        m_rtx.erase(m_rtx.begin(), std::lower_bound(m_rtx.begin(), m_rtx.end(), newUna));
        // The oldest send time is of PSN m_highestSent - size().
        for (uint64_t front = m_highestSent - m_sendTimes.size();
             !m_sendTimes.empty() && front < newUna;
             ++front)
        {
            if (front + 1 == newUna)
            {
                ack.rtt = FabricSimulatorImpl::FastNow() - TimeStep(m_sendTimes.front());
                m_lastRtt = ack.rtt;
            }
            m_sendTimes.pop_front();
        }
        ack.newlyAckedBytes = PsnToByte(newUna) - oldBytes;
        // Complete the messages wholly acknowledged.
        Ptr<RdmaQueuePair> self = this;
        while (!m_msgs.empty() && m_msgs.front().endPsn <= newUna)
        {
            const Message m = m_msgs.front();
            m_msgs.pop_front();
            if (m_sendIdx > 0)
            {
                m_sendIdx--;
            }
            NS_LOG_DEBUG("qp " << m_cfg.qpn << " message " << m.seq << " acknowledged");
            m_cfg.acked(self, m.seq, m.bytes);
            if (!m_sendComplete.IsNull())
            {
                m_sendComplete(self, m.seq);
            }
        }
    }
    ack.ackedPsn = m_sndUna;
    if (nak)
    {
        NS_LOG_LOGIC("qp " << m_cfg.qpn << " NAK: back to psn " << m_sndUna);
        m_cfg.cc->OnNak(*this);
        if (m_cfg.oooWindow > 0)
        {
            Resend(m_sndUna);
        }
        else
        {
            GoBackN(m_sndUna);
        }
    }
    else
    {
        m_cfg.cc->OnAck(*this, ack);
        if (m_window.Get() > 0 || m_cfg.oooWindow > 0)
        {
            m_cfg.ready(*this); // the window may have opened
        }
    }
    if (IsIdle())
    {
        m_rtoEvent.Cancel();
        m_rtoArmed = false;
    }
}

void
RdmaQueuePair::ReceiveCnp()
{
    NS_LOG_FUNCTION(this);
    m_cfg.cc->OnCnp(*this);
}

void
RdmaQueuePair::NotifyReceived(uint64_t seq, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << seq << bytes);
    if (!m_recvComplete.IsNull())
    {
        m_recvComplete(this, seq, bytes);
    }
}

void
RdmaQueuePair::Prefetch(int level) const
{
    if (level == 0)
    {
        // The fields up to the configuration's end (the header's order).
        const char* begin = reinterpret_cast<const char*>(this);
        const char* end = reinterpret_cast<const char*>(&m_cfg + 1);
        FabricSimulatorImpl::PrefetchLines(begin, end - begin);
        return;
    }
    // The records SendNext and ReceiveAck look at first: the message being
    // sent, the oldest unacknowledged send time; and the congestion control.
    if (m_sendIdx < m_msgs.size())
    {
        __builtin_prefetch(&m_msgs[m_sendIdx]);
    }
    if (!m_msgs.empty())
    {
        __builtin_prefetch(&m_msgs.front());
    }
    if (!m_sendTimes.empty())
    {
        __builtin_prefetch(&m_sendTimes.front());
        __builtin_prefetch(&m_sendTimes.back());
    }
    if (const RdmaCongestionOps* cc = PeekPointer(m_cfg.cc))
    {
        FabricSimulatorImpl::PrefetchLines(cc, 3 * 64); // its first three lines
    }
}

} // namespace ns3
