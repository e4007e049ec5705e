/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-nic.h"

#include "fabric-addressing.h"
#include "fabric-net-device.h"
#include "fabric-simulator-impl.h"
#include "rdma-congestion-ops.h"
#include "rdma-queue-pair.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstddef>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaNic");
NS_OBJECT_ENSURE_REGISTERED(RdmaNic);

namespace
{
using roce::kPsnHalf;
using roce::kPsnMask;

/// Linux rdma_calc_flow_label() followed by rdma_flow_label_to_udp_sport().
uint16_t
LinuxUdpSourcePort(uint32_t lqpn, uint32_t rqpn)
{
    uint64_t v = static_cast<uint64_t>(lqpn) * rqpn;
    v ^= v >> 20;
    v ^= v >> 40;
    uint32_t fl = static_cast<uint32_t>(v & 0xfffff);
    uint32_t fl_low = fl & 0x03fff;
    uint32_t fl_high = fl & 0xfc000;
    fl_low ^= fl_high >> 14;
    return static_cast<uint16_t>(fl_low | 0xc000);
}

inline uint64_t
NowPs()
{
    return static_cast<uint64_t>(FabricSimulatorImpl::FastNow().GetPicoSeconds());
}

} // namespace

TypeId
RdmaNic::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaNic")
            .SetParent<Object>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<RdmaNic>()
            .AddAttribute("Mtu",
                          "RoCE path MTU: payload bytes per packet (an IB MTU: 256, 512, 1024, "
                          "2048 or 4096). Default 4096, the largest, as RoCE fabrics use.",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&RdmaNic::m_mtu),
                          MakeUintegerChecker<uint32_t>(256, 4096))
            .AddAttribute("AckInterval",
                          "Responder coalescing: acknowledge every N in-order packets (and "
                          "always the last packet of a message). Default 1, as the HPCC "
                          "simulator does for per-packet feedback.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&RdmaNic::m_ackInterval),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RetransmitTimeout",
                          "Requester retransmission timeout. Default 1 ms, close to the IB "
                          "local ACK timeout 4.096 us x 2^8 = 1.05 ms.",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&RdmaNic::m_rto),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("CongestionControl",
                          "TypeId of the RdmaCongestionOps forked for every QP. Default "
                          "ns3::RdmaCcNone (line rate; PFC alone).",
                          TypeIdValue(RdmaCcNone::GetTypeId()),
                          MakeTypeIdAccessor(&RdmaNic::m_ccType),
                          MakeTypeIdChecker())
            .AddAttribute("AckClass",
                          "Traffic class of ACK/NAK (and CNP) packets. Default 7, a strict "
                          "high-priority class, as the HPCC simulator sends ACKs.",
                          UintegerValue(7),
                          MakeUintegerAccessor(&RdmaNic::m_ackClass),
                          MakeUintegerChecker<uint8_t>(0, 7))
            .AddAttribute("EcnCapable",
                          "Send data as ECT(0) so switches may mark CE. Default true (RoCEv2 "
                          "congestion management, IBTA annex A17).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_ecnCapable),
                          MakeBooleanChecker())
            .AddAttribute("CnpEnabled",
                          "Notification point: answer CE-marked packets with RoCEv2 CNPs "
                          "(DCQCN). Default true, as RoCE NICs do with DCQCN enabled.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&RdmaNic::m_cnpEnabled),
                          MakeBooleanChecker())
            .AddAttribute("CnpInterval",
                          "At most one CNP per QP per interval. Default 50 us (DCQCN paper); "
                          "ConnectX NICs default to 4 us.",
                          TimeValue(MicroSeconds(50)),
                          MakeTimeAccessor(&RdmaNic::m_cnpInterval),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("OutOfOrder",
                          "Place packets beyond the expected PSN (receive bitmap) and resend "
                          "only the NAKed PSN, as IRN (Mittal et al., SIGCOMM 2018) does. "
                          "Default false: go-back-N, as RoCE NICs without IRN-style "
                          "selective repeat.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&RdmaNic::m_outOfOrder),
                          MakeBooleanChecker())
            .AddAttribute("OooWindow",
                          "OutOfOrder: receive bitmap per QP, in packets; the requester sends "
                          "no PSN at or beyond its first unacknowledged one plus this (IRN's "
                          "BDP-FC). Default 256: above the bandwidth-delay product of a "
                          "400 Gb/s path with a 16 us RTT in 4 KB packets (800 KB, 196 "
                          "packets); IRN caps in-flight packets at the BDP.",
                          UintegerValue(256),
                          MakeUintegerAccessor(&RdmaNic::m_oooWindow),
                          MakeUintegerChecker<uint32_t>(2, 1 << 16))
            .AddAttribute("OooNakThreshold",
                          "OutOfOrder: a hole is NAKed when a packet this many PSNs beyond it "
                          "arrives (shallower reordering is waited for). Default 3, TCP's "
                          "duplicate-ACK threshold (RFC 5681).",
                          UintegerValue(3),
                          MakeUintegerAccessor(&RdmaNic::m_oooNakThreshold),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("CnpSent",
                            "The notification point sent a CNP: peer host, local QPN.",
                            MakeTraceSourceAccessor(&RdmaNic::m_cnpTxTrace),
                            "ns3::RdmaNic::CnpCallback")
            .AddTraceSource("MessageComplete",
                            "A posted message was fully acknowledged: QP, message sequence "
                            "number, bytes.",
                            MakeTraceSourceAccessor(&RdmaNic::m_msgCompleteTrace),
                            "ns3::RdmaNic::MessageCompleteCallback")
            .AddTraceSource("MessageReceived",
                            "A whole message was received: source host, local responder "
                            "QPN, message sequence number, bytes.",
                            MakeTraceSourceAccessor(&RdmaNic::m_msgReceivedTrace),
                            "ns3::RdmaNic::MessageReceivedCallback");
    return tid;
}

RdmaNic::RdmaNic()
{
    // An in-order data packet and its acknowledgement read the two lines PrefetchReceive fetches.
    static_assert(offsetof(RecvQp, ackBuilder) + sizeof(RoceFrameBuilder) <= kRecvQpHotBytes,
                  "RdmaNic::RecvQp: the per-packet fields in its first two lines");
}

RdmaNic::~RdmaNic() = default;

void
RdmaNic::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_wakeEvent.Cancel();
    for (auto& qp : m_sendQps)
    {
        qp->Dispose();
    }
    m_sendQps.clear();
    m_isActive.clear();
    m_recvQps.clear();
    m_active.clear();
    m_dev = nullptr;
    Object::DoDispose();
}

void
RdmaNic::Setup(Ptr<FabricNetDevice> dev, uint32_t hostId)
{
    NS_LOG_FUNCTION(this << dev << hostId);
    m_dev = dev;
    m_hostId = hostId;
    m_ip = Ipv4Address(fabric::HostIp(hostId));
    m_mac = Mac48Address::ConvertFrom(dev->GetAddress());
    dev->SetPortHandler(this, true);
}

void
RdmaNic::SetCongestionControlAttribute(const std::string& name, const AttributeValue& value)
{
    // The factory checks names against the algorithm's TypeId: set
    // "CongestionControl" before its parameters.
    m_ccAttributes.SetTypeId(m_ccType);
    if (name == "Profile")
    {
        // A profile sets several parameters at once; an object built from
        // the factory would apply Profile first and then every later
        // attribute at its default, undoing it. Copy what the profile sets.
        Ptr<Object> proto = m_ccAttributes.Create<Object>();
        NS_ABORT_MSG_UNLESS(proto->SetAttributeFailSafe(name, value),
                            "RdmaNic: " << m_ccType.GetName() << " has no profile \""
                                        << value.SerializeToString(MakeStringChecker()) << "\"");
        for (TypeId t = m_ccType;; t = t.GetParent())
        {
            for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
            {
                const TypeId::AttributeInformation info = t.GetAttribute(i);
                Ptr<AttributeValue> v = info.checker->Create();
                proto->GetAttribute(info.name, *v);
                m_ccAttributes.Set(info.name, *v);
            }
            if (t == t.GetParent())
            {
                break;
            }
        }
        return;
    }
    m_ccAttributes.Set(name, value);
}

uint32_t
RdmaNic::GetHostId() const
{
    return m_hostId;
}

Ipv4Address
RdmaNic::GetIpv4Address() const
{
    return m_ip;
}

Mac48Address
RdmaNic::GetMacAddress() const
{
    return m_mac;
}

Ptr<FabricNetDevice>
RdmaNic::GetDevice() const
{
    return m_dev;
}

uint32_t
RdmaNic::GetContext() const
{
    return m_dev ? m_dev->GetContext() : Simulator::NO_CONTEXT;
}

uint32_t
RdmaNic::GetMtu() const
{
    return m_mtu;
}

Ptr<RdmaQueuePair>
RdmaNic::GetQp(uint32_t qpn) const
{
    return m_sendQps.at(qpn);
}

uint32_t
RdmaNic::GetNQps() const
{
    return static_cast<uint32_t>(m_sendQps.size());
}

const RdmaNic::Counters&
RdmaNic::GetCounters() const
{
    return m_counters;
}

Ptr<RdmaQueuePair>
RdmaNic::Connect(Ptr<RdmaNic> src, Ptr<RdmaNic> dst, uint8_t cls, uint16_t srcPort)
{
    NS_LOG_FUNCTION(src << dst << +cls << srcPort);
    NS_ABORT_MSG_IF(cls > 7, "RdmaNic::Connect: class " << +cls << " is not 0..7");
    NS_ABORT_MSG_IF(src == dst, "RdmaNic::Connect: a QP needs two different hosts");
    RdmaQueuePair::Config c;
    c.nic = PeekPointer(src);
    c.qpn = static_cast<uint32_t>(src->m_sendQps.size());
    c.peerQpn = static_cast<uint32_t>(dst->m_recvQps.size());
    c.srcHost = src->m_hostId;
    c.dstHost = dst->m_hostId;
    // QP numbers on the wire start at 2 (0 and 1 are the IB special QPs).
    const uint32_t wireLocal = c.qpn + 2;
    const uint32_t wireRemote = c.peerQpn + 2;
    c.srcPort = srcPort != 0 ? srcPort : LinuxUdpSourcePort(wireLocal, wireRemote);
    c.cls = cls;
    c.mtu = src->m_mtu;
    c.lineRate = src->m_dev->GetDataRate();
    c.rto = src->m_rto;
    c.ecnCapable = src->m_ecnCapable;
    c.builder = RoceFrameBuilder(src->m_mac,
                                 dst->m_mac,
                                 src->m_ip,
                                 dst->m_ip,
                                 c.srcPort,
                                 static_cast<uint8_t>(cls * 8),
                                 wireRemote);
    ObjectFactory f = src->m_ccAttributes;
    f.SetTypeId(src->m_ccType);
    Ptr<RdmaCongestionOps> proto = f.Create<RdmaCongestionOps>();
    c.cc = proto->Fork();
    c.oooWindow = src->m_outOfOrder ? src->m_oooWindow : 0;
    c.ready = MakeCallback(&RdmaNic::Activate, PeekPointer(src));
    c.acked = MakeCallback(&RdmaNic::MessageAcked, PeekPointer(src));
    const uint16_t udpSrcPort = c.srcPort;
    Ptr<RdmaQueuePair> qp = CreateObject<RdmaQueuePair>();
    qp->Setup(std::move(c));
    src->m_sendQps.push_back(qp);
    src->m_isActive.push_back(false);

    RecvQp r;
    r.peerHost = src->m_hostId;
    r.requester = qp;
    r.ackBuilder = RoceFrameBuilder(dst->m_mac,
                                    src->m_mac,
                                    dst->m_ip,
                                    src->m_ip,
                                    udpSrcPort,
                                    static_cast<uint8_t>(dst->m_ackClass * 8),
                                    wireLocal);
    dst->m_recvQps.push_back(std::move(r));
    return qp;
}

uint64_t
RdmaNic::PostSend(Ptr<RdmaQueuePair> qp, uint64_t bytes)
{
    NS_LOG_FUNCTION(this << qp << bytes);
    NS_ABORT_MSG_IF(qp->GetNic() != this, "RdmaNic::PostSend: QP belongs to another NIC");
    return qp->Post(bytes);
}

void
RdmaNic::Activate(RdmaQueuePair& qp)
{
    const uint32_t qpn = qp.GetQpn();
    if (!m_isActive[qpn] && qp.HasDataToSend())
    {
        m_isActive[qpn] = true;
        m_active.push_back(&qp);
    }
    m_dev->TryTransmit();
}

void
RdmaNic::MessageAcked(Ptr<RdmaQueuePair> qp, uint64_t seq, uint64_t bytes)
{
    m_msgCompleteTrace(qp, seq, bytes);
}

FabricFrame*
RdmaNic::PullFrame(FabricNetDevice* /* dev */, uint8_t mask, uint8_t& cls)
{
    const uint64_t now = NowPs();
    uint64_t earliest = std::numeric_limits<uint64_t>::max();
    const std::size_t n = m_active.size();
    for (std::size_t i = 0; i < n; ++i)
    {
        const std::size_t idx = (m_rr + i) % n;
        RdmaQueuePair& qp = *m_active[idx];
        if (!qp.HasDataToSend() || !((mask >> qp.GetClass()) & 1) || !qp.IsWindowOpen())
        {
            continue;
        }
        if (qp.GetNextTxPs() > now)
        {
            earliest = std::min(earliest, qp.GetNextTxPs());
            continue;
        }
        m_rr = idx + 1;
        cls = qp.GetClass();
        FabricFrame* f = qp.SendNext().Release();
        m_counters.dataTx++;
        NS_LOG_LOGIC("host " << m_hostId << " qp " << qp.GetQpn() << " sends psn "
                             << qp.GetNextPsn() - 1 << " (" << f->GetSize() << " B)");
        if (!qp.HasDataToSend())
        {
            // Nothing left to send: leave the active list (order preserved).
            m_isActive[qp.GetQpn()] = false;
            m_active.erase(m_active.begin() + idx);
            if (m_rr > idx)
            {
                m_rr--;
            }
        }
        if (!m_active.empty())
        {
            m_rr %= m_active.size();
        }
        else
        {
            m_rr = 0;
        }
        return f;
    }
    if (earliest != std::numeric_limits<uint64_t>::max() &&
        (!m_wakeEvent.IsRunning() || earliest < m_wakePs))
    {
        m_wakeEvent.Cancel();
        m_wakePs = earliest;
        m_wakeEvent = FabricSimulatorImpl::ScheduleIn(GetContext(),
                                                      PicoSeconds(earliest - now),
                                                      &RdmaNic::Wake,
                                                      this);
    }
    return nullptr;
}

void
RdmaNic::PrefetchHotLines() const
{
    const char* begin = reinterpret_cast<const char*>(this);
    const char* end = reinterpret_cast<const char*>(&m_counters + 1);
    FabricSimulatorImpl::PrefetchLines(begin, end - begin);
}

void
RdmaNic::PrefetchReceive(const FabricNetDevice* /* dev */, const FabricFrame& f, int level) const
{
    // ReceiveFrame's misses on a large fabric, one level of pointers at a
    // time (each level reads only what the one before fetched): the NIC,
    // then the queue pair the frame is for (the responder's record of a
    // data frame, the requester's queue pair of an ACK or CNP), then that
    // queue pair's records.
    if (level == 0)
    {
        PrefetchHotLines();
        return;
    }
    if (!f.IsRoce())
    {
        return;
    }
    const RoceFrameInfo& info = f.GetInfo();
    const uint32_t qpn = info.destQp - 2;
    if (info.opcode != roce::kOpAcknowledge && info.opcode != roce::kOpCnp)
    {
        if (level == 1 && qpn < m_recvQps.size())
        {
            FabricSimulatorImpl::PrefetchLines(&m_recvQps[qpn], kRecvQpHotBytes);
        }
        return;
    }
    if (qpn >= m_sendQps.size())
    {
        return;
    }
    if (level == 1)
    {
        __builtin_prefetch(&m_sendQps[qpn]);
        return;
    }
    m_sendQps[qpn]->Prefetch(level - 2);
}

void
RdmaNic::PrefetchPull(const FabricNetDevice* /* dev */, int level) const
{
    // PullFrame's misses: the NIC, the active list's next entry, the queue
    // pair there, its records (a hint: the round robin may pass it by).
    if (level == 0)
    {
        PrefetchHotLines();
        return;
    }
    const std::size_t n = m_active.size();
    if (n == 0)
    {
        return;
    }
    const RdmaQueuePair* const* next = &m_active[m_rr % n];
    if (level == 1)
    {
        __builtin_prefetch(next);
        return;
    }
    (*next)->Prefetch(level - 2);
}

void
RdmaNic::Wake()
{
    m_dev->TryTransmit();
}

void
RdmaNic::ReceiveFrame(FabricNetDevice* dev, FabricFrame* f)
{
    NS_LOG_FUNCTION(this << dev << f);
    const OwnedFrame owned(f); // the frame ends here
    if (!f->IsRoce())
    {
        return;
    }
    const RoceFrameInfo& info = f->GetInfo();
    if (info.opcode == roce::kOpAcknowledge)
    {
        ReceiveAck(info, *f);
    }
    else if (info.opcode == roce::kOpCnp)
    {
        const uint32_t qpn = info.destQp - 2;
        if (qpn < m_sendQps.size())
        {
            NS_LOG_LOGIC("host " << m_hostId << " qp " << qpn << ": CNP");
            m_counters.cnpRx++;
            m_sendQps[qpn]->ReceiveCnp();
        }
        else
        {
            m_counters.unknownQp++;
        }
    }
    else
    {
        ReceiveData(info, *f);
    }
}

void
RdmaNic::ReceiveData(const RoceFrameInfo& info, const FabricFrame& f)
{
    const uint32_t rqpn = info.destQp - 2;
    if (rqpn >= m_recvQps.size())
    {
        m_counters.unknownQp++;
        return;
    }
    m_counters.dataRx++;
    RecvQp& r = m_recvQps[rqpn];
    if (info.ecn == 3 && m_cnpEnabled)
    {
        // DCQCN notification point: one CNP per QP per CnpInterval at most.
        const Time now = FabricSimulatorImpl::FastNow();
        if (!r.cnpSent || now - r.lastCnp >= m_cnpInterval)
        {
            NS_LOG_DEBUG("host " << m_hostId << " responder qp " << rqpn << ": CE, CNP to host "
                                 << r.peerHost);
            r.cnpSent = true;
            r.lastCnp = now;
            m_counters.cnpTx++;
            m_cnpTxTrace(r.peerHost, rqpn);
            m_dev->EnqueueFrame(r.ackBuilder.BuildCnpFrame(), m_ackClass, 0);
        }
    }
    const uint32_t diff = (info.psn - r.expectedPsn) & kPsnMask;
    if (info.hasInt)
    {
        r.intBytes = f.CopyIntBlock(r.intBlock, sizeof(r.intBlock));
    }
    if (diff == 0)
    {
        r.expectedPsn = (r.expectedPsn + 1) & kPsnMask;
        r.inOrder++;
        r.nakSent = false;
        r.msgBytes += info.payloadBytes;
        m_counters.bytesDelivered += info.payloadBytes;
        if (info.ecn == 3)
        {
            m_counters.ceRx++;
            r.ceSinceAck = true;
        }
        const bool msgEnd = info.opcode == roce::kOpSendLast || info.opcode == roce::kOpSendOnly;
        r.sinceAck++;
        bool ack = msgEnd || info.ackReq || r.sinceAck >= m_ackInterval;
        m_completed.clear();
        if (msgEnd)
        {
            m_completed.emplace_back(r.msgSeq + m_completed.size(), r.msgBytes);
            r.msgBytes = 0;
        }
        // OutOfOrder: the packets placed behind this one are now in order.
        while (r.nPlaced > 0)
        {
            uint32_t& slot = r.placed[r.inOrder % r.placed.size()];
            if (slot == 0)
            {
                break;
            }
            r.msgBytes += slot & ~kPlacedEnd;
            if (slot & kPlacedEnd)
            {
                m_completed.emplace_back(r.msgSeq + m_completed.size(), r.msgBytes);
                r.msgBytes = 0;
                ack = true;
            }
            slot = 0;
            r.nPlaced--;
            r.inOrder++;
            r.expectedPsn = (r.expectedPsn + 1) & kPsnMask;
            r.sinceAck++;
        }
        if (ack || r.sinceAck >= m_ackInterval)
        {
            SendAck(rqpn, (r.expectedPsn - 1) & kPsnMask, false);
        }
        if (m_completed.empty())
        {
            return;
        }
        // The callbacks may connect new QPs (m_recvQps grows): nothing of r after this.
        r.msgSeq += m_completed.size();
        const uint32_t peer = r.peerHost;
        const Ptr<RdmaQueuePair> requester = r.requester;
        for (const auto& [seq, bytes] : m_completed)
        {
            NS_LOG_DEBUG("host " << m_hostId << " responder qp " << rqpn << ": message " << seq
                                 << " of " << bytes << " B received");
            m_msgReceivedTrace(peer, rqpn, seq, bytes);
            if (requester)
            {
                requester->NotifyReceived(seq, bytes);
            }
        }
    }
    else if (diff < kPsnHalf && m_outOfOrder && diff < m_oooWindow)
    {
        Place(rqpn, info, diff);
    }
    else if (diff < kPsnHalf)
    {
        // A gap: the expected packet was lost. One NAK per gap.
        NS_LOG_LOGIC("host " << m_hostId << " responder qp " << rqpn << ": psn " << info.psn
                             << " beyond expected " << r.expectedPsn);
        m_counters.outOfOrder++;
        if (!r.nakSent)
        {
            r.nakSent = true;
            SendAck(rqpn, r.expectedPsn, true);
        }
    }
    else
    {
        // Already received (a go-back-N resend): re-acknowledge what we have.
        NS_LOG_LOGIC("host " << m_hostId << " responder qp " << rqpn << ": duplicate psn "
                             << info.psn);
        m_counters.duplicates++;
        SendAck(rqpn, (r.expectedPsn - 1) & kPsnMask, false);
    }
}

void
RdmaNic::Place(uint32_t rqpn, const RoceFrameInfo& info, uint32_t diff)
{
    RecvQp& r = m_recvQps[rqpn];
    if (r.placed.empty())
    {
        r.placed.assign(m_oooWindow, 0);
    }
    uint32_t& slot = r.placed[(r.inOrder + diff) % r.placed.size()];
    if (slot != 0)
    {
        m_counters.duplicates++; // placed before (a resend overtaken by the original)
        return;
    }
    NS_LOG_LOGIC("host " << m_hostId << " responder qp " << rqpn << ": places psn " << info.psn
                         << ", " << diff << " beyond expected " << r.expectedPsn);
    m_counters.outOfOrder++;
    const bool msgEnd = info.opcode == roce::kOpSendLast || info.opcode == roce::kOpSendOnly;
    slot = info.payloadBytes | (msgEnd ? kPlacedEnd : 0);
    r.nPlaced++;
    m_counters.bytesDelivered += info.payloadBytes;
    if (info.ecn == 3)
    {
        m_counters.ceRx++;
        r.ceSinceAck = true;
    }
    if (diff >= m_oooNakThreshold && !r.nakSent)
    {
        // The hole at the expected PSN is deeper than reordering explains: NAK it, once.
        r.nakSent = true;
        SendAck(rqpn, r.expectedPsn, true);
    }
}

void
RdmaNic::SendAck(uint32_t rqpn, uint32_t psn, bool nak)
{
    NS_LOG_FUNCTION(this << rqpn << psn << nak);
    RecvQp& r = m_recvQps[rqpn];
    AethHeader aeth;
    if (nak)
    {
        aeth.SetNak(0); // PSN sequence error
        m_counters.naksTx++;
    }
    else
    {
        aeth.SetAck();
        m_counters.acksTx++;
    }
    aeth.SetMsn(static_cast<uint32_t>(r.msgSeq & kPsnMask));
    FabricFrame* f = r.ackBuilder.BuildFabricFrame(roce::kOpAcknowledge,
                                                   psn,
                                                   false,
                                                   0,
                                                   0,
                                                   &aeth,
                                                   r.ceSinceAck,
                                                   r.intBytes ? r.intBlock : nullptr,
                                                   r.intBytes);
    r.ceSinceAck = false;
    r.sinceAck = 0;
    m_dev->EnqueueFrame(f, m_ackClass, 0);
}

void
RdmaNic::ReceiveAck(const RoceFrameInfo& info, const FabricFrame& f)
{
    const uint32_t qpn = info.destQp - 2;
    if (qpn >= m_sendQps.size())
    {
        m_counters.unknownQp++;
        return;
    }
    const bool nak = (info.aethSyndrome & 0x60) == 0x60;
    if (nak)
    {
        m_counters.naksRx++;
    }
    else
    {
        m_counters.acksRx++;
    }
    IntRecord hops[roce::kIntMaxHops];
    const uint32_t nHops = info.hasInt ? f.ReadIntRecords(hops, roce::kIntMaxHops) : 0;
    m_sendQps[qpn]->ReceiveAck(info.psn, nak, info.becn, info.hasInt ? hops : nullptr, nHops);
}

} // namespace ns3
