/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "path-monitor.h"

#include "fabric-addressing.h"
#include "fabric-net-device.h"
#include "fabric-switch.h"
#include "fabric-topology.h"
#include "imbalance-metrics.h"
#include "roce-header.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator-impl.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathMonitor");
NS_OBJECT_ENSURE_REGISTERED(PathMonitor);

namespace
{
std::string
Num(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return buf;
}
} // namespace

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

uint32_t PathMonitor::s_sampling = 0;
uint64_t PathMonitor::s_samplesRun = 0;

PathMonitor::PathMonitor() = default;
PathMonitor::~PathMonitor() = default;

void
PathMonitor::DoDispose()
{
    StopSampling();
    for (auto& d : m_devices)
    {
        if (d.dev->GetTxObserver() == this)
        {
            d.dev->SetTxObserver(nullptr);
        }
    }
    m_devices.clear();
    m_topo = nullptr;
    m_sim = nullptr;
    Object::DoDispose();
}

void
PathMonitor::Install(Ptr<FabricTopology> topo)
{
    m_topo = topo;
    m_sim = Simulator::GetImplementation();
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const FabricTopology::Link& link = topo->GetLink(l);
        for (int end = 0; end < 2; ++end)
        {
            const FabricTopology::Endpoint& e = end ? link.b : link.a;
            Device d;
            d.dev = end ? link.devB : link.devA;
            d.host = e.isHost;
            d.node = e.index;
            d.port = e.port;
            const uint32_t index = static_cast<uint32_t>(m_devices.size());
            // The port calls the monitor directly with the port's index (one
            // virtual call per frame). A port someone else already observes
            // is heard through its TxBegin trace instead.
            if (!d.dev->GetTxObserver())
            {
                d.dev->SetTxObserver(this, index | (d.host ? kHostPort : 0));
            }
            else
            {
                m_taps.push_back(std::make_unique<Tap>(Tap{this, index}));
                d.dev->TraceConnectWithoutContext("TxBegin",
                                                  MakeCallback(&Tap::OnTx, m_taps.back().get()));
            }
            m_devices.push_back(std::move(d));
        }
    }
    m_nDevices = static_cast<uint32_t>(m_devices.size());
    if (!m_sampling)
    {
        m_sampling = true;
        s_sampling++;
    }
    ScheduleSample(m_bin);
}

uint32_t
PathMonitor::Bin(Time now) const
{
    return BinOfTimeStep(now.GetTimeStep());
}

void
PathMonitor::MoveBin(int64_t ts) const
{
    // Cached: most frames fall in the bin of the previous one. Time steps,
    // not a unit: the quotient is the same and needs no conversion.
    const int64_t width = m_bin.GetTimeStep();
    m_cachedBin = static_cast<uint32_t>(ts / width);
    m_binStartTs = static_cast<int64_t>(m_cachedBin) * width;
    m_binEndTs = m_binStartTs + width;
}

void
PathMonitor::OnTxBegin(uint32_t tag, const Packet& p, uint8_t cls, uint64_t queueBytes)
{
    // The port's facts come in the tag, so m_devices is not touched per frame.
    const uint32_t index = tag & ~kHostPort;
    const bool host = tag & kHostPort;
    const Time now = m_sim->Now();
    const uint32_t bin = BinOfTimeStep(now.GetTimeStep());
    if (bin >= m_binRows)
    {
        m_binRows = bin + 1;
        m_binStats.resize(static_cast<std::size_t>(m_binRows) * m_nDevices);
        if (m_idle)
        {
            // Traffic again after an idle stop: sample from the next bin edge.
            m_idle = false;
            ScheduleSample(TimeStep(m_binEndTs) - now);
        }
    }
    BinStats& bs = m_binStats[static_cast<std::size_t>(bin) * m_nDevices + index];
    const uint32_t size = p.GetSize();
    bs.bytes += size;
    bs.maxQueue = std::max(bs.maxQueue, queueBytes);
    // A frame is parsed once, where it enters the fabric (its host port); the
    // packet's uid then finds its flow at every later hop without a parse
    // (a direct-mapped table; a slot overwritten by a newer packet, or a
    // frame first seen at a switch, is simply parsed again).
    const uint64_t uid = p.GetUid();
    UidSlot& slot = m_uidSlots[uid & (kUidSlots - 1)];
    const auto uidTag = static_cast<uint32_t>(uid >> kUidBits);
    uint32_t fi;
    if (!host && slot.tag == uidTag)
    {
        if (slot.flow == kNotData)
        {
            return;
        }
        fi = slot.flow;
    }
    else
    {
        RoceFrameInfo info;
        if (!ParseRoceFrame(p, info) || info.opcode == roce::kOpAcknowledge ||
            info.opcode == roce::kOpCnp)
        {
            slot = UidSlot{uidTag, kNotData};
            return;
        }
        const uint32_t src = fabric::HostIdFromIp(info.srcIp);
        const uint32_t dst = fabric::HostIdFromIp(info.dstIp);
        const uint64_t key = (static_cast<uint64_t>(src & 0xffffff) << 40) |
                             (static_cast<uint64_t>(dst & 0xffffff) << 16) | info.srcPort;
        auto it = m_flowIndex.find(key);
        if (it == m_flowIndex.end())
        {
            fi = static_cast<uint32_t>(m_flows.size());
            m_flowIndex.emplace(key, fi);
            Flow f;
            f.srcIp = info.srcIp;
            f.dstIp = info.dstIp;
            f.srcPort = info.srcPort;
            f.src = src;
            f.dst = dst;
            f.first = now;
            m_flows.push_back(f);
        }
        else
        {
            fi = it->second;
        }
        slot = UidSlot{uidTag, fi};
        if (host)
        {
            m_flows[fi].payloadBytes += info.payloadBytes;
        }
    }
    bs.dataBytes += size;
    Flow& f = m_flows[fi];
    uint32_t* lastBin;
    if (host)
    {
        f.frames++;
        f.last = now;
        lastBin = &f.lastBin;
    }
    else
    {
        Hop* hop = nullptr;
        for (auto& h : f.hops)
        {
            if (h.dev == index)
            {
                hop = &h;
                break;
            }
        }
        if (!hop)
        {
            const Device& d = m_devices[index];
            f.hops.push_back(Hop{d.node, static_cast<uint16_t>(d.port), 0, 0, UINT32_MAX, index});
            hop = &f.hops.back();
        }
        hop->bytes += size;
        hop->frames++;
        lastBin = &hop->lastBin;
    }
    if (*lastBin != bin)
    {
        *lastBin = bin;
        bs.flows++;
    }
}

void
PathMonitor::SampleBin()
{
    // Paused time of every port in the bin that just ended.
    const uint32_t cur = Bin(Simulator::Now());
    const uint32_t bin = cur == 0 ? 0 : cur - 1;
    AccountPause(bin);
    m_bins = std::max(m_bins, bin + 1);
    // Keep sampling while the simulation has work; the monitor alone must
    // not keep it running, nor several monitors each other.
    s_samplesRun++;
    const uint64_t events = Simulator::GetEventCount() - m_lastEventCount;
    const uint64_t samples = s_samplesRun - m_lastSamplesRun;
    if (Simulator::IsFinished())
    {
        return;
    }
    if (s_sampling > 1 && events <= samples)
    {
        m_idle = true;
        return;
    }
    ScheduleSample(m_bin);
}

void
PathMonitor::ScheduleSample(Time delay)
{
    // The counts the next sample compares against.
    m_lastEventCount = Simulator::GetEventCount();
    m_lastSamplesRun = s_samplesRun;
    m_binEvent = Simulator::Schedule(delay, &PathMonitor::SampleBin, this);
}

void
PathMonitor::StopSampling()
{
    m_binEvent.Cancel();
    m_idle = false;
    if (m_sampling)
    {
        m_sampling = false;
        s_sampling--;
    }
}

void
PathMonitor::AccountPause(uint32_t bin)
{
    // Paused time accrued since the last call goes to \p bin.
    for (auto& d : m_devices)
    {
        FabricNetDevice::Counters c = d.dev->GetCounters();
        int64_t paused = 0;
        for (const Time& t : c.pausedTime)
        {
            paused += t.GetPicoSeconds();
        }
        if (d.pausePs.size() <= bin)
        {
            d.pausePs.resize(bin + 1, 0);
        }
        d.pausePs[bin] += paused - d.pausedSoFarPs;
        d.pausedSoFarPs = paused;
    }
}

void
PathMonitor::Finish()
{
    StopSampling();
    const uint32_t bin = Bin(Simulator::Now());
    AccountPause(bin);
    m_bins = std::max(m_bins, m_binRows);
    m_bins = std::max(m_bins, bin + 1);
}

const std::vector<PathMonitor::Flow>&
PathMonitor::GetFlows() const
{
    return m_flows;
}

std::vector<PathMonitor::Path>
PathMonitor::GetPaths(uint32_t i) const
{
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
            if (h.sw == sw)
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
            Path next = path;
            next.hops.emplace_back(h->sw, h->port);
            const double part = total ? share * h->bytes / total : 0.0;
            FabricTopology::Endpoint peer = m_topo->GetSwitchPortPeer(h->sw, h->port);
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
    const uint32_t first = m_topo->GetHostAttachment(f.src).index;
    walk(first, Path(), static_cast<double>(f.payloadBytes));
    return paths;
}

std::vector<PathMonitor::GroupResult>
PathMonitor::ComputeGroups() const
{
    // Data bytes and flows per (switch, port) from the flows' hops.
    std::map<std::pair<uint32_t, uint16_t>, double> bytes;
    std::map<std::pair<uint32_t, uint16_t>, double> flows;
    std::map<std::pair<uint32_t, uint16_t>, uint32_t> elephants;
    for (const auto& f : m_flows)
    {
        for (const auto& h : f.hops)
        {
            bytes[{h.sw, h.port}] += static_cast<double>(h.bytes);
            flows[{h.sw, h.port}] += 1;
            if (f.payloadBytes >= m_elephant)
            {
                elephants[{h.sw, h.port}]++;
            }
        }
    }
    std::vector<GroupResult> out;
    for (const auto& g : m_topo->GetEcmpGroups())
    {
        GroupResult r;
        r.name = g.name;
        r.sw = g.sw;
        r.ports = g.ports;
        double total = 0;
        for (uint16_t p : g.ports)
        {
            r.bytes.push_back(bytes[{g.sw, p}]);
            r.flows.push_back(flows[{g.sw, p}]);
            total += r.bytes.back();
            if (elephants[{g.sw, p}] > 1)
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

uint64_t
PathMonitor::GetDeviceBytes(uint32_t dev) const
{
    m_devices.at(dev); // range check
    uint64_t s = 0;
    for (uint32_t b = 0; b < m_binRows; ++b)
    {
        s += GetBin(dev, b).bytes;
    }
    return s;
}

const PathMonitor::BinStats&
PathMonitor::GetBin(uint32_t dev, uint32_t b) const
{
    static const BinStats none;
    return b < m_binRows ? m_binStats[static_cast<std::size_t>(b) * m_nDevices + dev] : none;
}

uint32_t
PathMonitor::GetNDevices() const
{
    return static_cast<uint32_t>(m_devices.size());
}

Ptr<FabricNetDevice>
PathMonitor::GetDevice(uint32_t dev) const
{
    return m_devices.at(dev).dev;
}

std::string
PathMonitor::DeviceName(uint32_t i) const
{
    const Device& d = m_devices[i];
    if (d.host)
    {
        return "host" + std::to_string(d.node);
    }
    return m_topo->GetSwitch(d.node)->GetName() + ":p" + std::to_string(d.port);
}

std::string
PathMonitor::PathsCsv() const
{
    std::ostringstream os;
    os << "flow,src,dst,sport,bytes,frames,first_s,last_s,paths,path,path_bytes\n";
    for (uint32_t i = 0; i < m_flows.size(); ++i)
    {
        const Flow& f = m_flows[i];
        const auto paths = GetPaths(i);
        for (const auto& p : paths)
        {
            std::string hops;
            for (const auto& h : p.hops)
            {
                hops += (hops.empty() ? "" : ">") + m_topo->GetSwitch(h.first)->GetName() + ":p" +
                        std::to_string(h.second);
            }
            os << i << ',' << f.src << ',' << f.dst << ',' << f.srcPort << ',' << f.payloadBytes
               << ',' << f.frames << ',' << Num(f.first.GetSeconds()) << ','
               << Num(f.last.GetSeconds()) << ',' << paths.size() << ',' << hops << ','
               << Num(p.bytes) << '\n';
        }
    }
    return os.str();
}

std::string
PathMonitor::LinksCsv() const
{
    std::ostringstream os;
    os << "link,from,bin,t_start_s,bytes,data_bytes,utilization,flows,max_queue_bytes,pause_s\n";
    const double binS = m_bin.GetSeconds();
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        const Device& d = m_devices[i];
        const double bps = static_cast<double>(d.dev->GetBitRate());
        for (uint32_t b = 0; b < m_bins; ++b)
        {
            const BinStats& st = GetBin(i, b);
            const uint64_t bytes = st.bytes;
            const uint64_t data = st.dataBytes;
            const uint32_t flows = st.flows;
            const uint64_t q = st.maxQueue;
            const int64_t pause = b < d.pausePs.size() ? d.pausePs[b] : 0;
            if (bytes == 0 && pause == 0)
            {
                continue; // idle bins are left out (zero by definition)
            }
            // Utilization counts line bytes (FCS, preamble, IFG) per frame.
            os << i << ',' << DeviceName(i) << ',' << b << ',' << Num(b * binS) << ',' << bytes
               << ',' << data << ',' << Num(bytes * 8.0 / (bps * binS)) << ',' << flows << ',' << q
               << ',' << Num(pause * 1e-12) << '\n';
        }
    }
    return os.str();
}

std::string
PathMonitor::ImbalanceJson() const
{
    const auto groups = ComputeGroups();
    auto metricsOf = [&](const std::map<std::string, double>& bb,
                         const std::map<std::string, double>& ff) {
        std::ostringstream os;
        os << "\"fim_flows\": " << Num(ff.at("fim")) << ", \"fim_bytes\": " << Num(bb.at("fim"));
        for (const auto& m : ImbalanceMetric::All())
        {
            if (m->Name() != "fim")
            {
                os << ", \"" << m->Name() << "\": " << Num(bb.at(m->Name())) << ", \"" << m->Name()
                   << "_flows\": " << Num(ff.at(m->Name()));
            }
        }
        return os.str();
    };
    std::map<std::string, double> ob;
    std::map<std::string, double> of;
    for (const auto& m : ImbalanceMetric::All())
    {
        ob[m->Name()] = Overall(groups, m->Name(), false);
        of[m->Name()] = Overall(groups, m->Name(), true);
    }
    std::ostringstream os;
    os << "{\n  \"definition\": \"fim = sum|x_i - L/m| / (2 L (m-1)/m) per ECMP group, groups "
          "weighted by traffic (this project's definition)\",\n";
    os << "  \"overall\": {" << metricsOf(ob, of) << ", \"collisions\": " << Collisions(groups)
       << ", \"groups\": " << groups.size() << "},\n";
    os << "  \"groups\": [\n";
    for (std::size_t i = 0; i < groups.size(); ++i)
    {
        const auto& g = groups[i];
        os << "    {\"name\": \"" << g.name << "\", \"switch\": \""
           << m_topo->GetSwitch(g.sw)->GetName() << "\", \"ports\": [";
        for (std::size_t k = 0; k < g.ports.size(); ++k)
        {
            os << (k ? ", " : "") << g.ports[k];
        }
        os << "], \"bytes\": [";
        for (std::size_t k = 0; k < g.bytes.size(); ++k)
        {
            os << (k ? ", " : "") << Num(g.bytes[k]);
        }
        os << "], \"flows\": [";
        for (std::size_t k = 0; k < g.flows.size(); ++k)
        {
            os << (k ? ", " : "") << Num(g.flows[k]);
        }
        os << "], " << metricsOf(g.byBytes, g.byFlows) << ", \"collisions\": " << g.collisions
           << "}" << (i + 1 < groups.size() ? "," : "") << "\n";
    }
    os << "  ],\n";
    // Every metric over data bytes per time bin, fabric-wide (groups
    // weighted by their traffic in the bin).
    os << "  \"over_time\": [";
    const auto ecmp = m_topo->GetEcmpGroups();
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> devOf; // (switch, port) -> device
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        if (!m_devices[i].host)
        {
            devOf[{m_devices[i].node, m_devices[i].port}] = i;
        }
    }
    bool firstBin = true;
    for (uint32_t b = 0; b < m_bins; ++b)
    {
        std::map<std::string, double> num;
        double den = 0;
        for (const auto& g : ecmp)
        {
            std::vector<double> x;
            double total = 0;
            for (uint16_t p : g.ports)
            {
                x.push_back(static_cast<double>(GetBin(devOf[{g.sw, p}], b).dataBytes));
                total += x.back();
            }
            if (total > 0)
            {
                for (const auto& m : ImbalanceMetric::All())
                {
                    num[m->Name()] += total * m->Compute(x);
                }
                den += total;
            }
        }
        if (den > 0)
        {
            os << (firstBin ? "" : ", ") << "{\"bin\": " << b
               << ", \"fim_bytes\": " << Num(num["fim"] / den);
            for (const auto& m : ImbalanceMetric::All())
            {
                if (m->Name() != "fim")
                {
                    os << ", \"" << m->Name() << "\": " << Num(num[m->Name()] / den);
                }
            }
            os << "}";
            firstBin = false;
        }
    }
    os << "]\n}\n";
    return os.str();
}

std::string
PathMonitor::SummaryTable() const
{
    const auto groups = ComputeGroups();
    std::ostringstream os;
    char buf[200];
    std::snprintf(buf,
                  sizeof(buf),
                  "  monitor: %zu flows, %zu ECMP groups with traffic; FIM bytes %.4f, flows %.4f; "
                  "max/mean %.3f; CV %.4f; Jain %.4f; collisions %u\n",
                  m_flows.size(),
                  groups.size(),
                  Overall(groups, "fim", false),
                  Overall(groups, "fim", true),
                  Overall(groups, "max_mean", false),
                  Overall(groups, "cv", false),
                  Overall(groups, "jain", false),
                  Collisions(groups));
    os << buf;
    return os.str();
}

void
PathMonitor::WriteOutputs(const std::string& dir) const
{
    std::filesystem::create_directories(dir);
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream out(dir + "/" + name, std::ios::binary);
        out << text;
    };
    write("paths.csv", PathsCsv());
    write("links.csv", LinksCsv());
    write("imbalance.json", ImbalanceJson());

    // Plot data: utilization matrix (switch ports x bins), group loads, FIM.
    std::ostringstream heat;
    uint32_t rows = 0;
    for (uint32_t i = 0; i < m_devices.size(); ++i)
    {
        const Device& d = m_devices[i];
        if (d.host)
        {
            continue;
        }
        const double bps = static_cast<double>(d.dev->GetBitRate());
        for (uint32_t b = 0; b < m_bins; ++b)
        {
            const uint64_t bytes = GetBin(i, b).bytes;
            heat << b * m_bin.GetSeconds() * 1e3 << ' ' << rows << ' '
                 << bytes * 8.0 / (bps * m_bin.GetSeconds()) << '\n';
        }
        heat << '\n';
        ++rows;
    }
    write("plot-heat.dat", heat.str());
    std::ostringstream loads;
    for (const auto& g : ComputeGroups())
    {
        for (std::size_t k = 0; k < g.ports.size(); ++k)
        {
            loads << '"' << g.name << ":p" << g.ports[k] << "\" " << g.bytes[k] / 1e6 << '\n';
        }
    }
    write("plot-loads.dat", loads.str());
    std::ostringstream fimSeries;
    {
        const std::string json = ImbalanceJson();
        std::size_t pos = json.find("\"over_time\"");
        while ((pos = json.find("{\"bin\": ", pos)) != std::string::npos)
        {
            const uint32_t b = std::stoul(json.substr(pos + 8));
            const std::size_t f = json.find("\"fim_bytes\": ", pos);
            fimSeries << b * m_bin.GetSeconds() * 1e3 << ' ' << std::stod(json.substr(f + 13))
                      << '\n';
            pos = f;
        }
    }
    write("plot-fim.dat", fimSeries.str());
    std::ostringstream gp;
    gp << "set terminal pngcairo size 1000,600 noenhanced\n"
       << "set output '" << dir << "/link-utilization.png'\n"
       << "set title 'Switch egress utilization over time (" << rows << " ports)'\n"
       << "set xlabel 'time (ms)'\nset ylabel 'switch port'\nset cblabel 'utilization'\n"
       << "set cbrange [0:1]\nset view map\nset palette rgbformulae 22,13,-31\n"
       << "plot '" << dir << "/plot-heat.dat' using 1:2:3 with image notitle\n"
       << "set output '" << dir << "/uplink-load.png'\nset title 'Data bytes per ECMP member'\n"
       << "set style data histogram\nset style fill solid 0.8\nset xtics rotate by -60 font ',7'\n"
       << "set xlabel ''\nset ylabel 'MB'\nunset cbrange\n"
       << "plot '" << dir << "/plot-loads.dat' using 2:xtic(1) notitle\n"
       << "set output '" << dir << "/fim-over-time.png'\nset title 'FIM (bytes) over time'\n"
       << "set style data lines\nset xtics rotate by 0 font ',10'\nset xlabel 'time (ms)'\n"
       << "set ylabel 'FIM'\nset yrange [0:1]\n"
       << "plot '" << dir << "/plot-fim.dat' using 1:2 with linespoints notitle\n";
    write("plots.gp", gp.str());
    if (std::system("command -v gnuplot >/dev/null 2>&1") == 0)
    {
        const std::string cmd = "gnuplot '" + dir + "/plots.gp' 2>/dev/null";
        if (std::system(cmd.c_str()) != 0)
        {
            NS_LOG_WARN("gnuplot failed; plot data left in " << dir);
        }
    }
}

} // namespace ns3
