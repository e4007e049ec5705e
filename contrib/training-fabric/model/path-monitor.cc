/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "path-monitor.h"

#include "fabric-net-device.h"
#include "fabric-topology.h"
#include "imbalance-metrics.h"
#include "quad-heap-scheduler.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathMonitor");
NS_OBJECT_ENSURE_REGISTERED(PathMonitor);

TypeId
PathMonitor::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::PathMonitor")
            .SetParent<Object>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<PathMonitor>()
            .AddAttribute("BinWidth",
                          "Width of the time bins of the per-link series. Default 10 us.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&PathMonitor::m_bin),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ElephantBytes",
                          "A flow of at least this many payload bytes is an elephant "
                          "(for collisions). Default 1 MB.",
                          UintegerValue(1000000),
                          MakeUintegerAccessor(&PathMonitor::m_elephant),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

PathMonitor::PathMonitor()
{
    // 1,536 hops (64 KB) to begin with; AddHop doubles the table as needed.
    m_hopSlots.resize(2048);
    m_hopShift = 64 - 11;
}

PathMonitor::~PathMonitor() = default;

void
PathMonitor::DoDispose()
{
    Settle(); // while the probes are there: the flows stay readable
    m_binEvent.Cancel();
    if (m_restartEvent)
    {
        m_restartEvent->Cancel(); // it would call a disposed monitor
        m_restartEvent = nullptr;
    }
    for (auto& probe : m_probes)
    {
        probe->Dispose();
    }
    m_probes.clear();
    m_topo = nullptr;
    m_sim = nullptr;
    Object::DoDispose();
}

void
PathMonitor::Install(Ptr<FabricTopology> topo)
{
    NS_LOG_FUNCTION(this << topo);
    m_topo = topo;
    m_sim = Simulator::GetImplementation();
    // How long a pause can still begin after the last frame started: the
    // frame's serialization and propagation, then a PFC frame's way back,
    // which may wait for a frame being serialized: 2 x (delay + frame time),
    // with 16 KB above any frame (9,216 B jumbo MTU plus headers).
    Time horizon;
    // Sized once: the probes keep pointers to their ports' counters.
    m_current.assign(2 * static_cast<std::size_t>(topo->GetNLinks()), PathProbe::Current());
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const FabricTopology::Link& link = topo->GetLink(l);
        for (int end = 0; end < 2; ++end)
        {
            const FabricTopology::Endpoint& e = end ? link.b : link.a;
            Ptr<FabricNetDevice> dev = end ? link.devB : link.devA;
            const auto index = static_cast<uint32_t>(m_probes.size());
            Ptr<PathProbe> probe = CreateObject<PathProbe>();
            probe->Attach(this, this, &m_current[index], dev, index | (e.isHost ? kEntry : 0));
            m_probes.push_back(probe);
            m_ports.push_back(PortInfo{e.isHost, e.index, e.port});
            if (!e.isHost)
            {
                if (m_switchPorts.size() <= e.index)
                {
                    m_switchPorts.resize(e.index + 1);
                }
                if (m_switchPorts[e.index].size() <= e.port)
                {
                    m_switchPorts[e.index].resize(e.port + 1, UINT32_MAX);
                }
                m_switchPorts[e.index][e.port] = index;
            }
            horizon = std::max(horizon, 2 * (link.delay + dev->GetTxTime(16384)));
        }
    }
    // The ECMP groups as built, before link events (LinkEvents) change the
    // routes: a failed member stays in its group and shows as imbalance.
    EcmpGroups();
    // Quiet bins before sampling stops: one more than the horizon spans.
    m_quietLimit = static_cast<uint32_t>(horizon.GetTimeStep() / m_bin.GetTimeStep()) + 2;
    const int64_t width = m_bin.GetTimeStep();
    const int64_t ts = Simulator::Now().GetTimeStep();
    m_binEvent =
        Simulator::Schedule(TimeStep((ts / width + 1) * width - ts), &PathMonitor::SampleBin, this);
}

void
PathMonitor::MoveBin(int64_t ts)
{
    // Cached: most frames fall in the bin of the previous one. Time steps,
    // not a unit: the quotient is the same and needs no conversion.
    const int64_t width = m_bin.GetTimeStep();
    m_cachedBin = static_cast<uint32_t>(ts / width);
    m_binStartTs = static_cast<int64_t>(m_cachedBin) * width;
    m_binEndTs = m_binStartTs + width;
    // The latest: lookahead windows run switches' frames out of time order.
    m_lastFrameBin = std::max(m_lastFrameBin, static_cast<int64_t>(m_cachedBin));
    if (m_idle)
    {
        // Traffic again after a quiet stop: sample from the next bin edge,
        // as an event of no node (SampleBin reads every port: under
        // lookahead windows it must see all of them at that time), first in
        // its timestamp: a node's event schedules it (a quiet fabric
        // restarts at a host, or at an event of no context), and under
        // windows its order against other nodes' events of its time must
        // not depend on uids (QuadHeapScheduler::ScheduleFirst). It has no
        // EventId: a run that ends before it drops it with its other
        // pending events.
        m_idle = false;
        m_quietBins = 0;
        m_binEvent = EventId();
        EventImpl* restart = MakeEvent(&PathMonitor::SampleBin, this);
        m_restartEvent = restart; // Finish and DoDispose cancel it
        QuadHeapScheduler::ScheduleFirst(TimeStep(m_binEndTs - ts), restart);
    }
}

void
PathMonitor::SampleBin()
{
    Settle(); // the frames before it, counted in their ports' bins
    // Paused time of every port in the bin that just ended (computed, not
    // through the frames' bin cache).
    const uint32_t cur =
        static_cast<uint32_t>(Simulator::Now().GetTimeStep() / m_bin.GetTimeStep());
    const uint32_t bin = cur == 0 ? 0 : cur - 1;
    const bool paused = AccountPause(bin);
    m_bins = std::max(m_bins, bin + 1);
    if (Simulator::IsFinished())
    {
        return;
    }
    // Keep sampling while the fabric is active. After a quiet stretch no
    // pause can begin without a new frame, which re-arms sampling: the
    // monitor alone never keeps a simulation running, nor monitors each other.
    const bool quiet = !paused && m_lastFrameBin < static_cast<int64_t>(bin);
    m_quietBins = quiet ? m_quietBins + 1 : 0;
    if (m_quietBins >= m_quietLimit)
    {
        m_idle = true;
        return;
    }
    m_binEvent = Simulator::Schedule(m_bin, &PathMonitor::SampleBin, this);
}

bool
PathMonitor::AccountPause(uint32_t bin)
{
    // Active: a port paused in the bin, or sending, or with frames queued
    // (behind a slow link a port may start frames further apart than the
    // quiet limit; sampling then restarts from a host, or an event of no
    // context, never from a switch's event, which lookahead windows run
    // batched).
    bool active = false;
    for (auto& probe : m_probes)
    {
        active = probe->SamplePause(bin) != 0 || probe->IsBacklogged() || active;
    }
    return active;
}

void
PathMonitor::Finish()
{
    NS_LOG_FUNCTION(this);
    Settle();
    m_binEvent.Cancel();
    if (m_restartEvent)
    {
        m_restartEvent->Cancel();
    }
    m_idle = false;
    const uint32_t bin =
        static_cast<uint32_t>(Simulator::Now().GetTimeStep() / m_bin.GetTimeStep());
    AccountPause(bin);
    for (auto& probe : m_probes)
    {
        probe->Flush();
    }
    m_bins = std::max(m_bins, bin + 1);
    if (m_lastFrameBin >= 0)
    {
        m_bins = std::max(m_bins, static_cast<uint32_t>(m_lastFrameBin) + 1);
    }
}

void
PathMonitor::ApplyPending()
{
    for (uint32_t k = m_pendingNext - m_pendingCount; k != m_pendingNext; ++k)
    {
        ApplyFrame(m_pending[k % kPending]);
    }
    m_pendingCount = 0;
}

PathMonitor::HopSlot&
PathMonitor::AddHop(uint64_t key, std::size_t i, int64_t ts)
{
    if (4 * (m_hopKeys.size() + 1) > 3 * m_hopSlots.size())
    {
        // Three quarters full: double the table and put every key back.
        std::vector<HopSlot> old(2 * m_hopSlots.size());
        old.swap(m_hopSlots);
        m_hopShift--;
        const std::size_t mask = m_hopSlots.size() - 1;
        for (const HopSlot& s : old)
        {
            if (s.key != kNoHop)
            {
                std::size_t j = HopIndex(s.key);
                while (m_hopSlots[j].key != kNoHop)
                {
                    j = (j + 1) & mask;
                }
                m_hopSlots[j] = s;
            }
        }
        // Now FindHop finds an empty slot for the key and comes back here with room.
        return FindHop(key, ts);
    }
    m_hopKeys.push_back(key);
    m_hopFirst.push_back(ts);
    m_hopSlots[i].key = key;
    return m_hopSlots[i];
}

const PathMonitor::HopSlot&
PathMonitor::GetHop(uint64_t key) const
{
    const std::size_t mask = m_hopSlots.size() - 1;
    std::size_t i = HopIndex(key);
    while (m_hopSlots[i].key != key)
    {
        i = (i + 1) & mask;
    }
    return m_hopSlots[i];
}

void
PathMonitor::SyncHops() const
{
    Settle();
    if (m_hopsSynced)
    {
        return;
    }
    std::vector<uint32_t> count(m_flows.size());
    for (uint64_t key : m_hopKeys)
    {
        count[key >> 32]++;
    }
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        m_flows[i].hops.clear();
        m_flows[i].hops.reserve(count[i]); // exactly: many flows, few hops each
    }
    // Each flow's hops in the order it first used them: by time, then by
    // switch, then as the switch first used them (its events run in the
    // same order whatever the simulator). Not simply as first observed:
    // lookahead windows (FabricSimulatorImpl) run switches' events a switch
    // at a time, so two switches' first uses within one window may be
    // observed in either order.
    std::vector<std::vector<int64_t>> first(m_flows.size());
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        first[i].reserve(count[i]);
    }
    for (std::size_t k = 0; k < m_hopKeys.size(); ++k)
    {
        const uint64_t key = m_hopKeys[k];
        const HopSlot& s = GetHop(key);
        Hop h;
        h.dev = static_cast<uint32_t>(key);
        h.lastBin = s.lastBin;
        h.bytes = s.bytes;
        h.frames = s.frames;
        m_flows[key >> 32].hops.push_back(h);
        first[key >> 32].push_back(m_hopFirst[k]);
    }
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        std::vector<Hop>& hops = m_flows[i].hops;
        const std::vector<int64_t>& ts = first[i];
        std::vector<uint32_t> order(hops.size());
        for (uint32_t j = 0; j < order.size(); ++j)
        {
            order[j] = j;
        }
        std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
            const uint32_t na = m_ports[hops[a].dev].node;
            const uint32_t nb = m_ports[hops[b].dev].node;
            return ts[a] != ts[b] ? ts[a] < ts[b] : na != nb ? na < nb : a < b;
        });
        std::vector<Hop> sorted;
        sorted.reserve(hops.size());
        for (uint32_t j : order)
        {
            sorted.push_back(hops[j]);
        }
        hops.swap(sorted);
    }
    m_hopsSynced = true;
}

const std::vector<PathMonitor::Flow>&
PathMonitor::GetFlows() const
{
    SyncHops();
    return m_flows;
}

std::vector<PathMonitor::Path>
PathMonitor::GetPaths(uint32_t i) const
{
    SyncHops();
    const Flow& f = m_flows.at(i);
    std::vector<Path> paths;
    if (f.hops.empty())
    {
        return paths;
    }
    // Follow the used ports from the source's switch; at a fork the bytes
    // split in proportion to the ports' bytes.
    std::function<void(uint32_t, Path, double)> walk = [&](uint32_t sw, Path path, double share) {
        std::vector<const Hop*> out;
        uint64_t total = 0;
        for (const auto& h : f.hops)
        {
            if (m_ports[h.dev].node == sw)
            {
                out.push_back(&h);
                total += h.bytes;
            }
        }
        if (out.empty() || path.hops.size() > m_topo->GetNSwitches())
        {
            path.bytes = share;
            paths.push_back(path);
            return;
        }
        for (const Hop* h : out)
        {
            const auto port = static_cast<uint16_t>(m_ports[h->dev].port);
            Path next = path;
            next.hops.emplace_back(sw, port);
            const double part = total ? share * h->bytes / total : 0.0;
            FabricTopology::Endpoint peer = m_topo->GetSwitchPortPeer(sw, port);
            if (peer.isHost)
            {
                next.bytes = part;
                paths.push_back(next);
            }
            else
            {
                walk(peer.index, next, part);
            }
        }
    };
    const uint32_t first = m_topo->GetHostAttachment(f.tuple.src).index;
    walk(first, Path(), static_cast<double>(f.payloadBytes));
    return paths;
}

std::vector<PathMonitor::GroupResult>
PathMonitor::ComputeGroups() const
{
    // Data bytes, flows and elephants per port from the flows' hops.
    SyncHops();
    std::vector<double> bytes(m_ports.size());
    std::vector<double> flows(m_ports.size());
    std::vector<uint32_t> elephants(m_ports.size());
    for (const auto& f : m_flows)
    {
        for (const auto& h : f.hops)
        {
            bytes[h.dev] += static_cast<double>(h.bytes);
            flows[h.dev] += 1;
            if (f.payloadBytes >= m_elephant)
            {
                elephants[h.dev]++;
            }
        }
    }
    std::vector<GroupResult> out;
    for (const auto& g : EcmpGroups())
    {
        GroupResult r;
        r.name = g.name;
        r.sw = g.sw;
        r.ports = g.ports;
        double total = 0;
        for (uint16_t p : g.ports)
        {
            const uint32_t dev = DeviceOf(g.sw, p);
            const bool linked = dev != UINT32_MAX;
            r.bytes.push_back(linked ? bytes[dev] : 0.0);
            r.flows.push_back(linked ? flows[dev] : 0.0);
            total += r.bytes.back();
            if (linked && elephants[dev] > 1)
            {
                r.collisions++;
            }
        }
        if (total <= 0)
        {
            continue; // an idle group says nothing about balance
        }
        for (const auto& m : ImbalanceMetric::All())
        {
            r.byBytes[m->Name()] = m->Compute(r.bytes);
            r.byFlows[m->Name()] = m->Compute(r.flows);
        }
        out.push_back(std::move(r));
    }
    return out;
}

double
PathMonitor::Overall(const std::vector<GroupResult>& groups,
                     const std::string& name,
                     bool byFlows) const
{
    // Groups weighted by their traffic (bytes or flows).
    double num = 0;
    double den = 0;
    for (const auto& g : groups)
    {
        double w = 0;
        for (double x : byFlows ? g.flows : g.bytes)
        {
            w += x;
        }
        num += w * (byFlows ? g.byFlows.at(name) : g.byBytes.at(name));
        den += w;
    }
    return den > 0 ? num / den : 0.0;
}

uint32_t
PathMonitor::Collisions(const std::vector<GroupResult>& groups) const
{
    uint32_t c = 0;
    for (const auto& g : groups)
    {
        c += g.collisions;
    }
    return c;
}

uint32_t
PathMonitor::DeviceOf(uint32_t sw, uint32_t port) const
{
    if (sw >= m_switchPorts.size() || port >= m_switchPorts[sw].size())
    {
        return UINT32_MAX;
    }
    return m_switchPorts[sw][port];
}

const std::vector<FabricTopology::EcmpGroup>&
PathMonitor::EcmpGroups() const
{
    // Read at Install (the routes as built); results are asked for after the run.
    if (!m_haveEcmpGroups)
    {
        m_ecmpGroups = m_topo->GetEcmpGroups();
        m_haveEcmpGroups = true;
    }
    return m_ecmpGroups;
}

std::vector<PathMonitor::BinImbalance>
PathMonitor::ComputeOverTime() const
{
    // Every metric over data bytes per time bin, fabric-wide (groups
    // weighted by their traffic in the bin). Each member's sparse series is
    // walked once, in bin order, with a cursor.
    struct Member
    {
        const std::vector<PathProbe::LinkBin>* bins;
        std::size_t next;
    };

    static const std::vector<PathProbe::LinkBin> unlinked; // a member port without a link
    std::vector<std::vector<Member>> groups;
    for (const auto& g : EcmpGroups())
    {
        std::vector<Member> members;
        for (uint16_t p : g.ports)
        {
            const uint32_t dev = DeviceOf(g.sw, p);
            members.push_back(Member{dev == UINT32_MAX ? &unlinked : &GetLinkBins(dev), 0});
        }
        groups.push_back(std::move(members));
    }
    std::vector<BinImbalance> out;
    std::vector<double> x;
    for (uint32_t b = 0; b < m_bins; ++b)
    {
        std::map<std::string, double> num;
        double den = 0;
        for (auto& members : groups)
        {
            x.clear();
            double total = 0;
            for (Member& m : members)
            {
                while (m.next < m.bins->size() && (*m.bins)[m.next].bin < b)
                {
                    m.next++;
                }
                const bool here = m.next < m.bins->size() && (*m.bins)[m.next].bin == b;
                x.push_back(here ? static_cast<double>((*m.bins)[m.next].dataBytes) : 0.0);
                total += x.back();
            }
            if (total > 0)
            {
                for (const auto& metric : ImbalanceMetric::All())
                {
                    num[metric->Name()] += total * metric->Compute(x);
                }
                den += total;
            }
        }
        if (den > 0)
        {
            BinImbalance r;
            r.bin = b;
            for (const auto& [name, v] : num)
            {
                r.byBytes[name] = v / den;
            }
            out.push_back(std::move(r));
        }
    }
    return out;
}

uint64_t
PathMonitor::GetDeviceBytes(uint32_t dev) const
{
    uint64_t s = 0;
    for (const auto& b : GetLinkBins(dev))
    {
        s += b.bytes;
    }
    return s;
}

uint32_t
PathMonitor::GetNDevices() const
{
    return static_cast<uint32_t>(m_probes.size());
}

Ptr<FabricNetDevice>
PathMonitor::GetDevice(uint32_t dev) const
{
    return m_probes.at(dev)->GetDevice();
}

PathMonitor::PortInfo
PathMonitor::GetPortInfo(uint32_t dev) const
{
    return m_ports.at(dev);
}

const std::vector<PathProbe::LinkBin>&
PathMonitor::GetLinkBins(uint32_t dev) const
{
    Settle();
    return m_probes.at(dev)->GetBins();
}

Time
PathMonitor::GetBinWidth() const
{
    return m_bin;
}

uint32_t
PathMonitor::GetNBins() const
{
    return m_bins;
}

Ptr<FabricTopology>
PathMonitor::GetTopology() const
{
    return m_topo;
}

} // namespace ns3
