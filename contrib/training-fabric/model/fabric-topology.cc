/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-topology.h"

#include "fabric-channel.h"
#include "fabric-net-device.h"
#include "fabric-switch.h"
#include "rdma-nic.h"
#include "rdma-queue-pair.h"
#include "roce-header.h"
#include "shared-buffer-mmu.h"

#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/pointer.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FabricTopology");
NS_OBJECT_ENSURE_REGISTERED(FabricTopology);

namespace
{
constexpr uint32_t kUnreached = std::numeric_limits<uint32_t>::max();

/// Line time of \p frameBytes at \p rate, in exact picoseconds.
uint64_t
LinePs(uint32_t frameBytes, const DataRate& rate)
{
    unsigned __int128 bits = static_cast<unsigned __int128>(roce::WireBytes(frameBytes)) * 8;
    return static_cast<uint64_t>(bits * 1000000000000ULL / rate.GetBitRate());
}
} // namespace

TypeId
FabricTopology::GetTypeId()
{
    static TypeId tid = TypeId("ns3::FabricTopology")
                            .SetParent<Object>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<FabricTopology>();
    return tid;
}

void
FabricTopology::EnsurePicosecondResolution()
{
    // Line times of 400 Gb/s frames are fractions of a nanosecond apart:
    // the fabric runs at picosecond resolution (set once, before any event).
    if (Time::GetResolution() != Time::PS)
    {
        Time::SetResolution(Time::PS);
    }
}

FabricTopology::FabricTopology()
{
    EnsurePicosecondResolution();
    m_deviceFactory.SetTypeId(FabricNetDevice::GetTypeId());
    m_mmuFactory.SetTypeId(SharedBufferMmu::GetTypeId());
    m_nicFactory.SetTypeId(RdmaNic::GetTypeId());
}

FabricTopology::~FabricTopology() = default;

void
FabricTopology::DoDispose()
{
    m_hosts.clear();
    m_switches.clear();
    m_links.clear();
    m_deviceProto = nullptr;
    m_nicProto = nullptr;
    m_channelProto = nullptr;
    Object::DoDispose();
}

void
FabricTopology::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
    m_deviceProto = nullptr;
}

void
FabricTopology::SetMmuAttribute(const std::string& name, const AttributeValue& value)
{
    m_mmuFactory.Set(name, value);
}

void
FabricTopology::SetNicAttribute(const std::string& name, const AttributeValue& value)
{
    m_nicFactory.Set(name, value);
    m_nicProto = nullptr;
}

void
FabricTopology::SetSystemIds(std::vector<uint32_t> hostRank, std::vector<uint32_t> switchRank)
{
    const auto remote = [](const std::vector<uint32_t>& v) {
        return std::any_of(v.begin(), v.end(), [](uint32_t r) { return r != 0; });
    };
    if (remote(hostRank) || remote(switchRank))
    {
        TypeId tid;
        if (!TypeId::LookupByNameFailSafe("ns3::FabricRemoteChannel", &tid))
        {
            throw std::invalid_argument("ranks: this program was built without MPI (no "
                                        "ns3::FabricRemoteChannel); use one rank");
        }
        m_remoteChannelFactory.SetTypeId(tid);
    }
    m_hostRank = std::move(hostRank);
    m_switchRank = std::move(switchRank);
}

namespace
{
/// Rank of node \p i in \p ranks (0 beyond the list).
uint32_t
RankOf(const std::vector<uint32_t>& ranks, std::size_t i)
{
    return i < ranks.size() ? ranks[i] : 0;
}
} // namespace

uint32_t
FabricTopology::AddHost()
{
    HostEntry h;
    h.node = CreateObject<Node>(RankOf(m_hostRank, m_hosts.size()));
    // A copy of one NIC built from the factory: the same attribute values
    // without setting every attribute of every NIC again (ConstructSelf).
    if (!m_nicProto)
    {
        m_nicProto = m_nicFactory.Create<RdmaNic>();
    }
    h.nic = CopyObject(m_nicProto);
    h.node->AggregateObject(h.nic);
    m_hosts.push_back(h);
    return static_cast<uint32_t>(m_hosts.size() - 1);
}

uint32_t
FabricTopology::AddSwitch(const std::string& name)
{
    SwitchEntry s;
    s.node = CreateObject<Node>(RankOf(m_switchRank, m_switches.size()));
    s.sw = CreateObject<FabricSwitch>();
    s.sw->SetAttribute("Mmu", PointerValue(m_mmuFactory.Create<SharedBufferMmu>()));
    s.sw->SetName(name);
    s.node->AggregateObject(s.sw);
    m_switches.push_back(s);
    return static_cast<uint32_t>(m_switches.size() - 1);
}

Ptr<FabricNetDevice>
FabricTopology::MakeDevice(Ptr<Node> node, DataRate rate)
{
    // A copy of one device built from the factory (see AddHost), then its rate.
    if (!m_deviceProto)
    {
        m_deviceProto = m_deviceFactory.Create<FabricNetDevice>();
    }
    Ptr<FabricNetDevice> dev = CopyObject(m_deviceProto);
    dev->SetDataRate(rate);
    dev->SetAddress(Mac48Address::Allocate());
    node->AddDevice(dev);
    return dev;
}

uint32_t
FabricTopology::AddLink(Endpoint a,
                        Endpoint b,
                        Ptr<FabricNetDevice> da,
                        Ptr<FabricNetDevice> db,
                        DataRate rate,
                        Time delay)
{
    // A link between two ranks: the channel that hands frames to MPI. Any
    // other link's channel is a copy of the first (see AddHost).
    Ptr<FabricChannel> ch;
    if (da->GetNode()->GetSystemId() != db->GetNode()->GetSystemId())
    {
        ch = m_remoteChannelFactory.Create<FabricChannel>();
    }
    else if (m_channelProto)
    {
        ch = CopyObject(m_channelProto);
    }
    else
    {
        ch = CreateObject<FabricChannel>();
        m_channelProto = ch;
    }
    ch->SetAttribute("Delay", TimeValue(delay));
    da->Attach(ch);
    db->Attach(ch);
    Link l;
    l.a = a;
    l.b = b;
    l.devA = da;
    l.devB = db;
    l.rate = rate;
    l.delay = delay;
    m_links.push_back(l);
    return static_cast<uint32_t>(m_links.size() - 1);
}

uint32_t
FabricTopology::ConnectHost(uint32_t host, uint32_t sw, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(host >= m_hosts.size() || sw >= m_switches.size(),
                    "FabricTopology::ConnectHost: no such host or switch");
    HostEntry& h = m_hosts[host];
    NS_ABORT_MSG_IF(h.attached, "FabricTopology: host " << host << " is already connected");
    SwitchEntry& s = m_switches[sw];
    Ptr<FabricNetDevice> dh = MakeDevice(h.node, rate);
    Ptr<FabricNetDevice> ds = MakeDevice(s.node, rate);
    uint32_t port = s.sw->AddPort(ds);
    uint32_t link =
        AddLink(Endpoint{true, host, 0}, Endpoint{false, sw, port}, dh, ds, rate, delay);
    s.portLink.push_back(link);
    h.nic->Setup(dh, host);
    h.attached = true;
    h.at = Endpoint{false, sw, port};
    h.link = link;
    return link;
}

uint32_t
FabricTopology::ConnectSwitches(uint32_t swA, uint32_t swB, DataRate rate, Time delay)
{
    NS_ABORT_MSG_IF(swA >= m_switches.size() || swB >= m_switches.size() || swA == swB,
                    "FabricTopology::ConnectSwitches: bad switch pair");
    SwitchEntry& a = m_switches[swA];
    SwitchEntry& b = m_switches[swB];
    Ptr<FabricNetDevice> da = MakeDevice(a.node, rate);
    Ptr<FabricNetDevice> db = MakeDevice(b.node, rate);
    uint32_t pa = a.sw->AddPort(da);
    uint32_t pb = b.sw->AddPort(db);
    uint32_t link =
        AddLink(Endpoint{false, swA, pa}, Endpoint{false, swB, pb}, da, db, rate, delay);
    a.portLink.push_back(link);
    b.portLink.push_back(link);
    return link;
}

void
FabricTopology::Finalize()
{
    NS_ABORT_MSG_IF(m_finalized, "FabricTopology::Finalize called twice");
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        if (!m_hosts[h].attached)
        {
            throw std::invalid_argument("host " + std::to_string(h) + " is not connected");
        }
    }
    for (auto& s : m_switches)
    {
        std::string err = s.sw->Configure();
        if (!err.empty())
        {
            throw std::invalid_argument(s.sw->GetName() + ": " + err);
        }
    }
    ComputeRoutes(true);
    m_finalized = true;
}

void
FabricTopology::ComputeRoutes(bool initial)
{
    // All shortest paths: breadth-first search over switches from each
    // switch that hosts attach to; a port is a next hop toward a host when
    // its peer switch is one hop closer to the host's switch. Every host
    // behind one switch has the same distances and, from any other switch,
    // the same next hops: one search and one next-hop group per such switch
    // (hosts in the order of their indices, so the first host that some
    // switch cannot reach is the one named). Links that are down
    // (FabricChannel::SetLinkUp) are left out.
    //
    // Each search reads every port of the fabric twice: 1,000 searches over
    // 300,000 ports on a 1,000 x 100 leaf-spine. The ports are read from one
    // flat array (ports of switch s at [first[s], first[s + 1])) holding the
    // peer switch, or kNoPeer for a host or a link that is down, rather than
    // through the links and their devices scattered over the heap.
    constexpr uint32_t kNoPeer = std::numeric_limits<uint32_t>::max();
    const uint32_t nSw = static_cast<uint32_t>(m_switches.size());
    std::vector<uint32_t> first(nSw + 1, 0);
    std::vector<uint32_t> peerOf;
    // Tables by destination switch (FabricSwitch::SetHostAttachments): a
    // table per switch and host would be 4 bytes x switches x hosts, 440 MB
    // on a 1,000 x 100 leaf-spine.
    auto attachments = std::make_shared<FabricSwitch::HostAttachments>();
    attachments->sw.reserve(m_hosts.size());
    attachments->port.reserve(m_hosts.size());
    for (const HostEntry& h : m_hosts)
    {
        attachments->sw.push_back(h.at.index);
        attachments->port.push_back(static_cast<uint16_t>(h.at.port));
    }
    for (uint32_t s = 0; s < nSw; ++s)
    {
        m_switches[s].sw->SetHostAttachments(attachments, s, nSw);
        first[s] = static_cast<uint32_t>(peerOf.size());
        const uint32_t nPorts = static_cast<uint32_t>(m_switches[s].portLink.size());
        for (uint32_t port = 0; port < nPorts; ++port)
        {
            const Endpoint peer = GetSwitchPortPeer(s, port);
            const bool up = m_links[m_switches[s].portLink[port]].devA->IsLinkUp();
            peerOf.push_back(peer.isHost || !up ? kNoPeer : peer.index);
        }
    }
    first[nSw] = static_cast<uint32_t>(peerOf.size());

    std::vector<std::vector<uint32_t>> hostsAt(nSw);
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        hostsAt[m_hosts[h].at.index].push_back(h);
    }
    m_dist.assign(nSw, std::vector<uint32_t>());
    std::vector<uint16_t> next;
    std::vector<uint32_t> frontier; // first-in first-out: [head, end) still to expand
    frontier.reserve(nSw);
    for (uint32_t h = 0; h < m_hosts.size(); ++h)
    {
        const uint32_t t = m_hosts[h].at.index;
        if (hostsAt[t].front() != h)
        {
            continue; // t's routes are set, by its first host
        }
        std::vector<uint32_t>& dist = m_dist[t];
        dist.assign(nSw, kUnreached);
        dist[t] = 0;
        frontier.clear();
        frontier.push_back(t);
        for (std::size_t head = 0; head < frontier.size(); ++head)
        {
            const uint32_t s = frontier[head];
            for (uint32_t i = first[s]; i < first[s + 1]; ++i)
            {
                const uint32_t q = peerOf[i];
                if (q != kNoPeer && dist[q] == kUnreached)
                {
                    dist[q] = dist[s] + 1;
                    frontier.push_back(q);
                }
            }
        }
        for (uint32_t s = 0; s < nSw; ++s)
        {
            if (dist[s] == kUnreached)
            {
                if (!initial)
                {
                    // Cut off by dead links: keep the next hops it has, whose
                    // frames are dropped as link_down until a link comes back.
                    continue;
                }
                throw std::invalid_argument("switch " + m_switches[s].sw->GetName() +
                                            " cannot reach host " + std::to_string(h));
            }
            Ptr<FabricSwitch> sw = m_switches[s].sw;
            if (s == t)
            {
                sw->SetAttachedRoutes(hostsAt[t]);
                continue;
            }
            next.clear();
            for (uint32_t i = first[s]; i < first[s + 1]; ++i)
            {
                const uint32_t q = peerOf[i];
                if (q != kNoPeer && dist[q] + 1 == dist[s])
                {
                    next.push_back(static_cast<uint16_t>(i - first[s]));
                }
            }
            sw->SetSwitchRouteGroup(t, sw->AddRouteGroup(next), hostsAt[t]);
        }
    }
}

void
FabricTopology::RecomputeRoutes()
{
    NS_ABORT_MSG_UNLESS(m_finalized, "FabricTopology: call Finalize() first");
    NS_LOG_FUNCTION(this);
    ComputeRoutes(false);
}

void
FabricTopology::SetNodeNumbering(std::vector<uint32_t> fabricNode)
{
    NS_ABORT_MSG_UNLESS(fabricNode.size() == m_hosts.size() + m_switches.size(),
                        "FabricTopology::SetNodeNumbering: one number per node");
    m_nodeNumbering = std::move(fabricNode);
}

const std::vector<uint32_t>&
FabricTopology::GetNodeNumbering() const
{
    return m_nodeNumbering;
}

std::vector<uint32_t>
FabricTopology::FindLinks(uint32_t nodeA, uint32_t nodeB) const
{
    if (!m_nodeNumbering.empty())
    {
        if (nodeA >= m_nodeNumbering.size() || nodeB >= m_nodeNumbering.size())
        {
            return {};
        }
        nodeA = m_nodeNumbering[nodeA];
        nodeB = m_nodeNumbering[nodeB];
    }
    const uint32_t nHosts = static_cast<uint32_t>(m_hosts.size());
    auto endpointIs = [nHosts](const Endpoint& e, uint32_t node) {
        return node < nHosts ? (e.isHost && e.index == node)
                             : (!e.isHost && e.index == node - nHosts);
    };
    std::vector<uint32_t> found;
    for (uint32_t i = 0; i < m_links.size(); ++i)
    {
        const Link& l = m_links[i];
        if ((endpointIs(l.a, nodeA) && endpointIs(l.b, nodeB)) ||
            (endpointIs(l.a, nodeB) && endpointIs(l.b, nodeA)))
        {
            found.push_back(i);
        }
    }
    return found;
}

uint32_t
FabricTopology::GetNHosts() const
{
    return static_cast<uint32_t>(m_hosts.size());
}

uint32_t
FabricTopology::GetNSwitches() const
{
    return static_cast<uint32_t>(m_switches.size());
}

int64_t
FabricTopology::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (uint32_t s = 0; s < GetNSwitches(); ++s)
    {
        used += GetSwitch(s)->AssignStreams(stream + used);
    }
    return used;
}

uint32_t
FabricTopology::GetNLinks() const
{
    return static_cast<uint32_t>(m_links.size());
}

Ptr<Node>
FabricTopology::GetHostNode(uint32_t host) const
{
    return m_hosts.at(host).node;
}

Ptr<RdmaNic>
FabricTopology::GetNic(uint32_t host) const
{
    return m_hosts.at(host).nic;
}

Ptr<FabricSwitch>
FabricTopology::GetSwitch(uint32_t sw) const
{
    return m_switches.at(sw).sw;
}

Ptr<Node>
FabricTopology::GetSwitchNode(uint32_t sw) const
{
    return m_switches.at(sw).node;
}

const FabricTopology::Link&
FabricTopology::GetLink(uint32_t link) const
{
    return m_links.at(link);
}

FabricTopology::Endpoint
FabricTopology::GetHostAttachment(uint32_t host) const
{
    return m_hosts.at(host).at;
}

uint32_t
FabricTopology::GetSwitchPortLink(uint32_t sw, uint32_t port) const
{
    return m_switches.at(sw).portLink.at(port);
}

FabricTopology::Endpoint
FabricTopology::GetSwitchPortPeer(uint32_t sw, uint32_t port) const
{
    const Link& l = m_links[GetSwitchPortLink(sw, port)];
    return (!l.a.isHost && l.a.index == sw && l.a.port == port) ? l.b : l.a;
}

NodeContainer
FabricTopology::GetHostNodes() const
{
    NodeContainer c;
    for (const auto& h : m_hosts)
    {
        c.Add(h.node);
    }
    return c;
}

NodeContainer
FabricTopology::GetSwitchNodes() const
{
    NodeContainer c;
    for (const auto& s : m_switches)
    {
        c.Add(s.node);
    }
    return c;
}

NetDeviceContainer
FabricTopology::GetDevices() const
{
    NetDeviceContainer c;
    for (const auto& l : m_links)
    {
        c.Add(l.devA);
        c.Add(l.devB);
    }
    return c;
}

uint32_t
FabricTopology::GetHopCount(uint32_t src, uint32_t dst) const
{
    NS_ABORT_MSG_UNLESS(m_finalized, "FabricTopology: call Finalize() first");
    if (src == dst)
    {
        return 0;
    }
    return m_dist.at(m_hosts.at(dst).at.index).at(m_hosts.at(src).at.index) + 1;
}

std::vector<std::vector<FabricTopology::Hop>>
FabricTopology::GetPaths(uint32_t src, uint32_t dst, uint32_t limit) const
{
    NS_ABORT_MSG_UNLESS(m_finalized, "FabricTopology: call Finalize() first");
    std::vector<std::vector<Hop>> paths;
    if (src == dst)
    {
        return paths;
    }
    std::vector<Hop> current;
    current.push_back(Hop{true, src, 0, m_hosts[src].link});
    // Depth-first walk along the forwarding tables.
    std::function<void(uint32_t)> walk = [&](uint32_t sw) {
        if (paths.size() >= limit)
        {
            return;
        }
        for (uint16_t port : m_switches[sw].sw->GetRoute(dst))
        {
            uint32_t link = m_switches[sw].portLink[port];
            current.push_back(Hop{false, sw, port, link});
            Endpoint peer = GetSwitchPortPeer(sw, port);
            if (peer.isHost)
            {
                paths.push_back(current);
            }
            else
            {
                walk(peer.index);
            }
            current.pop_back();
        }
    };
    walk(m_hosts[src].at.index);
    return paths;
}

std::vector<FabricTopology::EcmpGroup>
FabricTopology::GetEcmpGroups() const
{
    // A switch's groups in the order of the first host routed through each,
    // named in that order; groups equal as sets once sorted count once.
    std::vector<EcmpGroup> groups;
    std::vector<bool> visited;
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        const Ptr<FabricSwitch>& sw = m_switches[s].sw;
        visited.assign(sw->GetNRouteGroups(), false);
        std::set<std::vector<uint16_t>> seen;
        for (uint32_t h = 0; h < m_hosts.size(); ++h)
        {
            const uint32_t g = sw->GetRouteGroupIndex(h);
            if (visited[g])
            {
                continue;
            }
            visited[g] = true;
            std::vector<uint16_t> ports = sw->GetRouteGroup(g);
            if (ports.size() < 2)
            {
                continue;
            }
            std::sort(ports.begin(), ports.end());
            if (seen.insert(ports).second)
            {
                EcmpGroup e;
                e.sw = s;
                e.ports = ports;
                e.name = sw->GetName() + ".g" + std::to_string(seen.size() - 1);
                groups.push_back(std::move(e));
            }
        }
    }
    return groups;
}

Ptr<RdmaQueuePair>
FabricTopology::Connect(uint32_t src, uint32_t dst, uint8_t cls, uint16_t srcPort) const
{
    Ptr<RdmaQueuePair> qp = RdmaNic::Connect(GetNic(src), GetNic(dst), cls, srcPort);
    qp->SetBaseRtt(GetBaseRtt(src, dst, GetNic(src)->GetMtu()));
    return qp;
}

std::vector<uint32_t>
FabricTopology::FirstPathLinks(uint32_t src, uint32_t dst) const
{
    std::vector<uint32_t> links;
    links.push_back(m_hosts.at(src).link);
    uint32_t sw = m_hosts[src].at.index;
    for (uint32_t guard = 0; guard <= m_switches.size(); ++guard)
    {
        const auto& route = m_switches[sw].sw->GetRoute(dst);
        NS_ABORT_MSG_IF(route.empty(), "FabricTopology: no route to host " << dst);
        uint32_t port = route[0];
        links.push_back(m_switches[sw].portLink[port]);
        Endpoint peer = GetSwitchPortPeer(sw, port);
        if (peer.isHost)
        {
            return links;
        }
        sw = peer.index;
    }
    NS_FATAL_ERROR("FabricTopology: forwarding loop toward host " << dst);
    return links;
}

Time
FabricTopology::GetBaseRtt(uint32_t src, uint32_t dst, uint32_t mtu) const
{
    NS_ABORT_MSG_UNLESS(m_finalized, "FabricTopology: call Finalize() first");
    const uint32_t dataFrame = mtu + roce::kDataHeaderBytes;
    const uint32_t ackFrame = roce::kAckFrameBytes;
    uint64_t ps = 0;
    for (uint32_t link : FirstPathLinks(src, dst))
    {
        const Link& l = m_links[link];
        ps += LinePs(dataFrame, l.rate) + LinePs(ackFrame, l.rate) +
              2 * static_cast<uint64_t>(l.delay.GetPicoSeconds());
    }
    return PicoSeconds(ps);
}

Time
FabricTopology::GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t mtu) const
{
    NS_ABORT_MSG_UNLESS(m_finalized, "FabricTopology: call Finalize() first");
    if (src == dst || bytes == 0)
    {
        return Time(0);
    }
    // Frames 1..n-1 are full (payload mtu), frame n carries the rest. On an
    // idle store-and-forward path (a deterministic tandem queue), full frame k
    // leaves link j at
    //   F(k, j) = sum_{i<=j} s_i + sum_{i<j} d_i + (k - 1) max_{i<=j} s_i,
    // s_i its line time on link i, d_i the propagation delay. The last frame
    // leaves link j at max(F(n, j-1) + d_{j-1}, F(n-1, j)) + s'_j: it cannot
    // overtake the full frame ahead of it. The FCT is F(n, h) + d_h.
    // In 128 bits: n x max s_i overflows 64 bits for large messages on slow
    // links (10^15 B at 1 Gb/s is 8 x 10^18 ps before the headers).
    typedef unsigned __int128 u128;
    const std::vector<uint32_t> links = FirstPathLinks(src, dst);
    const uint64_t n = bytes / mtu + (bytes % mtu != 0 ? 1 : 0); // no overflow near 2^64
    const uint32_t lastFrame =
        static_cast<uint32_t>(bytes - (n - 1) * mtu) + roce::kDataHeaderBytes;
    const uint32_t fullFrame = mtu + roce::kDataHeaderBytes;
    u128 sumS = 0;  // sum of full-frame line times up to link j
    u128 sumD = 0;  // sum of delays before link j
    u128 maxS = 0;  // largest full-frame line time up to link j
    u128 fLast = 0; // F(n, j)
    u128 prevDelay = 0;
    for (std::size_t j = 0; j < links.size(); ++j)
    {
        const Link& l = m_links[links[j]];
        const u128 s = LinePs(fullFrame, l.rate);
        const u128 sLast = LinePs(lastFrame, l.rate);
        sumS += s;
        maxS = std::max(maxS, s);
        u128 ready = (j == 0) ? 0 : fLast + prevDelay;
        if (n > 1)
        {
            const u128 fPrev = sumS + sumD + (n - 2) * maxS; // F(n-1, j)
            ready = std::max(ready, fPrev);
        }
        fLast = ready + sLast;
        prevDelay = static_cast<uint64_t>(l.delay.GetPicoSeconds());
        sumD += prevDelay;
    }
    const u128 fct = fLast + prevDelay;
    return fct > static_cast<u128>(INT64_MAX) ? Time::Max()
                                              : PicoSeconds(static_cast<int64_t>(fct));
}

} // namespace ns3
