/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-switch.h"

#include "fabric-addressing.h"
#include "fabric-channel.h"
#include "fabric-net-device.h"
#include "fabric-routing.h"
#include "fabric-simulator-impl.h"
#include "pfc-header.h"
#include "roce-header.h"
#include "shared-buffer-mmu.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricSwitch");
NS_OBJECT_ENSURE_REGISTERED(FabricSwitch);

namespace
{
constexpr uint32_t kEctTagBit = 1u << 16; //!< tag bit: frame is ECN-capable
constexpr uint32_t kIntTagBit = 1u << 17; //!< tag bit: frame carries an INT shim
constexpr uint32_t kPortTagMask = 0xffffu;
} // namespace

const char*
FabricSwitch::DropReasonName(DropReason reason)
{
    switch (reason)
    {
    case DROP_HEADROOM_OVERFLOW:
        return "headroom_overflow";
    case DROP_BUFFER_OVERFLOW:
        return "buffer_overflow";
    case DROP_NO_ROUTE:
        return "no_route";
    case DROP_MALFORMED:
        return "malformed";
    case DROP_LINK_DOWN:
        return "link_down";
    default:
        return "unknown";
    }
}

TypeId
FabricSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FabricSwitch")
            .SetParent<Object>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<FabricSwitch>()
            .AddAttribute("Mmu",
                          "The shared-buffer MMU (created with default attributes).",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_mmu),
                          MakePointerChecker<SharedBufferMmu>())
            .AddAttribute("Routing",
                          "The routing policy choosing among equal-cost next hops.",
                          PointerValue(),
                          MakePointerAccessor(&FabricSwitch::m_routing),
                          MakePointerChecker<FabricRouting>())
            .AddTraceSource("Forward",
                            "A frame was admitted and queued: frame, ingress port, egress "
                            "port, class.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_forwardTrace),
                            "ns3::FabricSwitch::ForwardCallback")
            .AddTraceSource("Drop",
                            "A frame was dropped: frame, ingress port, DropReason.",
                            MakeTraceSourceAccessor(&FabricSwitch::m_dropTrace),
                            "ns3::FabricSwitch::DropCallback")
            .AddTraceSource("Pfc",
                            "The switch paused (true) or resumed (false) an ingress (port, "
                            "class).",
                            MakeTraceSourceAccessor(&FabricSwitch::m_pfcTrace),
                            "ns3::FabricSwitch::PfcCallback");
    return tid;
}

FabricSwitch::FabricSwitch()
{
    m_mmu = CreateObject<SharedBufferMmu>();
    m_routing = CreateObject<EcmpRouting>();
}

FabricSwitch::~FabricSwitch() = default;

void
FabricSwitch::DoDispose()
{
    for (auto& a : m_refresh)
    {
        for (auto& e : a)
        {
            e.Cancel();
        }
    }
    m_ports.clear();
    m_routing = nullptr;
    m_mmu = nullptr;
    Object::DoDispose();
}

uint32_t
FabricSwitch::AddPort(Ptr<FabricNetDevice> dev)
{
    uint32_t index = static_cast<uint32_t>(m_ports.size());
    dev->SetPortIndex(index);
    dev->SetPortHandler(this);
    m_ports.push_back(dev);
    return index;
}

uint32_t
FabricSwitch::GetNPorts() const
{
    return static_cast<uint32_t>(m_ports.size());
}

Ptr<FabricNetDevice>
FabricSwitch::GetPort(uint32_t i) const
{
    return m_ports.at(i);
}

std::string
FabricSwitch::Configure()
{
    // The pause refresh timers, sized once for every port (not grown and
    // copied port by port: 256 bytes a port, 1,000 ports on a spine).
    m_refresh.resize(m_ports.size());
    std::vector<SharedBufferMmu::PortInfo> info;
    info.reserve(m_ports.size());
    for (const auto& dev : m_ports)
    {
        SharedBufferMmu::PortInfo pi;
        pi.rate = dev->GetDataRate();
        pi.cableDelay = dev->GetFabricChannel() ? dev->GetFabricChannel()->GetDelay() : Time(0);
        info.push_back(pi);
    }
    return m_mmu->Configure(info);
}

void
FabricSwitch::SetRoute(uint32_t dstHost, const std::vector<uint16_t>& ports)
{
    SetRouteGroup(dstHost, AddRouteGroup(ports));
}

uint32_t
FabricSwitch::AddRouteGroup(const std::vector<uint16_t>& ports)
{
    if (ports.empty())
    {
        return 0;
    }
    // Route computation asks for one group many times in a row (from a
    // leaf, the uplinks toward every remote leaf): compare with the last one
    // before searching, and search before copying the ports into a key.
    if (m_groups[m_lastGroup] == ports)
    {
        return m_lastGroup;
    }
    auto it = m_groupIndex.find(ports);
    if (it == m_groupIndex.end())
    {
        it = m_groupIndex.emplace(ports, static_cast<uint32_t>(m_groups.size())).first;
        m_groups.push_back(ports);
        m_groupSpans.push_back(GroupSpan{static_cast<uint32_t>(m_groupPorts.size()),
                                         static_cast<uint32_t>(ports.size())});
        m_groupPorts.insert(m_groupPorts.end(), ports.begin(), ports.end());
    }
    m_lastGroup = it->second;
    return m_lastGroup;
}

void
FabricSwitch::SetRouteGroup(uint32_t dstHost, uint32_t group)
{
    NS_ASSERT(group < m_groups.size());
    if (m_hostSwitch)
    {
        // The first route set per host: every host's route moves to a
        // per-host table, which GetRouteGroupIndex reads from now on.
        std::vector<uint32_t> table(m_nRouted);
        for (uint32_t h = 0; h < m_nRouted; ++h)
        {
            table[h] = GetRouteGroupIndex(h);
        }
        m_groupOf = std::move(table);
        m_hostSwitch = nullptr;
    }
    if (m_groupOf.size() <= dstHost)
    {
        m_groupOf.resize(dstHost + 1, 0);
    }
    m_groupOf[dstHost] = group;
    m_nRouted = static_cast<uint32_t>(m_groupOf.size());
}

void
FabricSwitch::SetRouteGroup(const std::vector<uint32_t>& dstHosts, uint32_t group)
{
    for (uint32_t host : dstHosts)
    {
        SetRouteGroup(host, group);
    }
}

void
FabricSwitch::SetHostAttachments(std::shared_ptr<const HostAttachments> at,
                                 uint32_t self,
                                 uint32_t nSwitches)
{
    NS_ASSERT(at->sw.size() == at->port.size());
    m_hosts = std::move(at);
    m_hostPort = m_hosts->port.data();
    m_self = self;
    if (m_groupOfSwitch.size() < nSwitches)
    {
        m_groupOfSwitch.resize(nSwitches, 0);
    }
    m_groupOfPort.resize(m_ports.size(), 0);
    if (m_groupOf.empty())
    {
        m_hostSwitch = m_hosts->sw.data();
        m_nRouted = static_cast<uint32_t>(m_hosts->sw.size());
    }
}

void
FabricSwitch::SetSwitchRouteGroup(uint32_t dstSwitch,
                                  uint32_t group,
                                  const std::vector<uint32_t>& hosts)
{
    NS_ASSERT(group < m_groups.size());
    m_groupOfSwitch.at(dstSwitch) = group;
    if (!m_hostSwitch)
    {
        SetRouteGroup(hosts, group);
    }
}

void
FabricSwitch::SetAttachedRoutes(const std::vector<uint32_t>& hosts)
{
    NS_ASSERT_MSG(m_hosts, "FabricSwitch: SetHostAttachments first");
    for (uint32_t h : hosts)
    {
        NS_ASSERT(m_hosts->sw.at(h) == m_self);
        const uint16_t port = m_hosts->port[h];
        const uint32_t group = AddRouteGroup({port});
        m_groupOfPort.at(port) = group;
        if (!m_hostSwitch)
        {
            SetRouteGroup(h, group);
        }
    }
}

uint32_t
FabricSwitch::GetNRouteGroups() const
{
    return static_cast<uint32_t>(m_groups.size());
}

const std::vector<uint16_t>&
FabricSwitch::GetRouteGroup(uint32_t group) const
{
    return m_groups.at(group);
}

void
FabricSwitch::SetRouting(Ptr<FabricRouting> routing)
{
    m_routing = routing;
}

Ptr<FabricRouting>
FabricSwitch::GetRouting() const
{
    return m_routing;
}

Ptr<SharedBufferMmu>
FabricSwitch::GetMmu() const
{
    return m_mmu;
}

int64_t
FabricSwitch::AssignStreams(int64_t stream)
{
    m_uniform.SetStream(stream);
    return 1 + m_routing->AssignStreams(stream + 1);
}

const FabricSwitch::Counters&
FabricSwitch::GetCounters() const
{
    return m_counters;
}

void
FabricSwitch::SetName(const std::string& name)
{
    m_name = name;
}

const std::string&
FabricSwitch::GetName() const
{
    return m_name;
}

void
FabricSwitch::Drop(FabricFrame* f, uint32_t inPort, DropReason reason)
{
    NS_LOG_DEBUG(m_name << " drop on port " << inPort << ": " << DropReasonName(reason));
    m_counters.drops[reason]++;
    if (m_dropTrace.IsEmpty())
    {
        FabricFrame::Free(f);
        return;
    }
    const Ptr<const Packet> p = f->GetPacket();
    FabricFrame::Free(f);
    m_dropTrace(p, inPort, reason);
}

void
FabricSwitch::ReceiveFrame(FabricNetDevice* dev, FabricFrame* f)
{
    NS_LOG_FUNCTION(this << dev << f);
    m_counters.rxFrames++;
    const uint32_t inPort = dev->GetPortIndex();
    if (!f->IsRoce())
    {
        Drop(f, inPort, DROP_MALFORMED);
        return;
    }
    const RoceFrameInfo& info = f->GetInfo();
    const uint32_t dstHost = fabric::HostIdFromIp(info.dstIp);
    const GroupSpan span = m_groupSpans[GetRouteGroupIndex(dstHost)];
    if (span.count == 0)
    {
        Drop(f, inPort, DROP_NO_ROUTE);
        return;
    }
    const uint16_t* nh = m_groupPorts.data() + span.offset;
    const uint16_t out = span.count == 1 ? nh[0]
                                         : m_routing->SelectEgress(info,
                                                                   fabric::HostIdFromIp(info.srcIp),
                                                                   dstHost,
                                                                   nh,
                                                                   span.count);
    if (!m_ports[out]->IsLinkUp())
    {
        // A dead link the forwarding table still names (before reconvergence).
        Drop(f, inPort, DROP_LINK_DOWN);
        return;
    }
    // Traffic class from the DSCP's class selector bits (RFC 2474 CSn -> n).
    const uint8_t cls = info.dscp >> 3;
    const uint32_t bytes = f->GetSize();
    const SharedBufferMmu::Verdict verdict = m_mmu->Admit(inPort, cls, bytes);
    if (verdict != SharedBufferMmu::ADMIT)
    {
        Drop(f,
             inPort,
             verdict == SharedBufferMmu::DROP_HEADROOM ? DROP_HEADROOM_OVERFLOW
                                                       : DROP_BUFFER_OVERFLOW);
        return;
    }
    if (m_mmu->CheckXoff(inPort, cls))
    {
        NS_LOG_DEBUG(m_name << " XOFF to port " << inPort << " class " << +cls);
        m_counters.xoffSent++;
        m_pfcTrace(inPort, cls, true);
        RefreshPause(inPort, cls, false);
    }
    NS_LOG_LOGIC(m_name << " forwards " << bytes << " B from port " << inPort << " to port " << out
                        << ", class " << +cls);
    m_counters.forwarded++;
    if (!m_forwardTrace.IsEmpty())
    {
        m_forwardTrace(f->GetPacket(), inPort, out, cls);
    }
    // ECT(0)/ECT(1) frames may be marked at egress; Not-ECT never. INT is
    // stamped on data frames only: an ACK carries the receiver's echo of
    // its data frame's records back unchanged (HPCC; the HPCC simulator's
    // switches stamp only data packets).
    const bool stamp = info.hasInt && info.opcode != roce::kOpAcknowledge;
    const uint32_t tag = inPort | (info.ecn != 0 ? kEctTagBit : 0) | (stamp ? kIntTagBit : 0);
    m_ports[out]->EnqueueFrame(f, cls, tag);
}

void
FabricSwitch::PrefetchReceive(const FabricNetDevice* dev, const FabricFrame& f, int level) const
{
    // ReceiveFrame's misses in a large fabric, one level of pointers at a
    // time (each level reads only what the one before fetched).
    if (level == 0)
    {
        // This switch's lines: counters, route tables, ports, MMU.
        __builtin_prefetch(&m_counters);
        __builtin_prefetch(&m_hostSwitch);
        __builtin_prefetch(&m_groupOfSwitch);
        __builtin_prefetch(&m_ports);
        __builtin_prefetch(&m_groupSpans);
        __builtin_prefetch(&m_mmu);
        return;
    }
    if (!f.IsRoce())
    {
        return; // ReceiveFrame drops it: nothing to route
    }
    const RoceFrameInfo& info = f.GetInfo();
    const uint32_t dstHost = fabric::HostIdFromIp(info.dstIp);
    if (level == 1)
    {
        // The destination's group index; the MMU's own lines.
        if (m_hostSwitch && dstHost < m_nRouted)
        {
            const uint32_t t = m_hostSwitch[dstHost];
            __builtin_prefetch(t == m_self ? &m_groupOfPort[m_hostPort[dstHost]]
                                           : &m_groupOfSwitch[t]);
        }
        m_mmu->PrefetchObject();
        return;
    }
    const GroupSpan* span = &m_groupSpans[GetRouteGroupIndex(dstHost)];
    if (level == 2)
    {
        // The group's place; the ingress class's MMU state.
        __builtin_prefetch(span);
        m_mmu->PrefetchPort(dev->GetPortIndex(), info.dscp >> 3);
        return;
    }
    // The group's ports (the egress is chosen among them).
    __builtin_prefetch(m_groupPorts.data() + span->offset);
}

void
FabricSwitch::RefreshPause(uint32_t port, uint8_t cls, bool refresh)
{
    NS_LOG_FUNCTION(this << port << +cls << refresh);
    // Send (or re-send) XOFF and keep it alive: a pause that is not refreshed
    // expires at the upstream port after its quanta. A refresh that finds the
    // ingress drained resumes instead.
    if (refresh)
    {
        if (m_mmu->CheckXon(port, cls))
        {
            SendXon(port, cls);
            return;
        }
        if (!m_mmu->IsPausing(port, cls))
        {
            return;
        }
        m_counters.xoffRefresh++;
    }
    const uint16_t quanta = m_mmu->GetPauseQuanta();
    m_ports[port]->SendPfc(cls, quanta);
    Time half = PfcHeader::QuantaToTime(quanta, m_ports[port]->GetDataRate()) / 2;
    m_refresh[port][cls] = FabricSimulatorImpl::ScheduleIn(m_ports[port]->GetContext(),
                                                           half,
                                                           &FabricSwitch::RefreshPause,
                                                           this,
                                                           port,
                                                           cls,
                                                           true);
}

void
FabricSwitch::LinkChanged(FabricNetDevice* dev, bool up)
{
    if (!up)
    {
        return;
    }
    // The peer forgot every pause it had when the link went down: a class
    // still pausing here pauses it again now (or resumes it if its ingress
    // drained meanwhile), instead of at its next refresh, up to half a
    // pause time away.
    const uint32_t port = dev->GetPortIndex();
    if (port >= m_refresh.size())
    {
        return; // not started yet: nothing is pausing
    }
    for (uint8_t c = 0; c < m_refresh[port].size(); ++c)
    {
        if (m_mmu->IsPausing(port, c))
        {
            m_refresh[port][c].Cancel();
            RefreshPause(port, c, true);
        }
    }
}

void
FabricSwitch::SendXon(uint32_t port, uint8_t cls)
{
    m_refresh[port][cls].Cancel();
    NS_LOG_DEBUG(m_name << " XON to port " << port << " class " << +cls);
    m_counters.xonSent++;
    m_pfcTrace(port, cls, false);
    m_ports[port]->SendPfc(cls, 0);
}

void
FabricSwitch::FrameDequeued(FabricNetDevice* dev, FabricFrame& f, uint8_t cls, uint32_t tag)
{
    NS_LOG_FUNCTION(this << dev << &f << +cls << tag);
    const uint32_t inPort = tag & kPortTagMask;
    m_mmu->Release(inPort, cls, f.GetSize());
    if (m_mmu->CheckXon(inPort, cls))
    {
        SendXon(inPort, cls);
    }
    if (tag & kIntTagBit)
    {
        // In-band telemetry at egress (HPCC): when the frame leaves, what this
        // port has sent (this frame included), its queue and its rate.
        IntRecord rec;
        rec.timestampNs = static_cast<uint32_t>(FabricSimulatorImpl::FastNow().GetNanoSeconds());
        rec.txBytes = static_cast<uint32_t>(dev->GetTxBytes() + f.GetSize());
        rec.qlenBytes = static_cast<uint32_t>(dev->GetQueueBytes(cls));
        rec.rateMbps = static_cast<uint32_t>(dev->GetBitRate() / 1000000);
        f.AppendIntRecord(rec);
    }
    if ((tag & kEctTagBit) && m_mmu->IsEcnEnabled())
    {
        const double prob = m_mmu->MarkProbability(dev->GetQueueBytes(cls));
        if (prob > 0.0 && (prob >= 1.0 || m_uniform.GetValue() < prob))
        {
            NS_LOG_LOGIC(m_name << " CE mark at port " << dev->GetPortIndex() << ", class " << +cls
                                << ", probability " << prob);
            f.SetEcn(3);
            m_counters.ecnMarked++;
        }
    }
}

} // namespace ns3
