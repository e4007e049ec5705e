/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-runner.h"

#include "collective-engine.h"
#include "fabric-pcap-helper.h"
#include "fabric-routing-helper.h"
#include "fat-tree-helper.h"
#include "leaf-spine-helper.h"
#include "rail-optimized-helper.h"
#include "run-cost.h"
#include "topology-file-helper.h"
#include "torus-helper.h"
#include "trace-runner.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/mac48-address.h"
#include "ns3/path-monitor.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{
/// Quantile by linear interpolation between order statistics (sorted input).
double
Quantile(const std::vector<double>& sorted, double q)
{
    if (sorted.empty())
    {
        return 0.0;
    }
    double pos = q * (sorted.size() - 1);
    std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
}

/// Round to 9 significant digits so JSON output does not depend on the last bits.
double
Round9(double v)
{
    if (v == 0.0 || !std::isfinite(v))
    {
        return v;
    }
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", v);
    return std::strtod(buf, nullptr);
}

TypeId
CcTypeId(const std::string& name)
{
    // The congestion-control algorithms this build provides. Each name maps
    // to an RdmaCongestionOps TypeId; the NIC forks one per QP.
    if (name == "none")
    {
        return TypeId::LookupByName("ns3::RdmaCcNone");
    }
    TypeId tid;
    static const char* const kKnown[][2] = {{"dcqcn", "ns3::RdmaCcDcqcn"},
                                            {"hpcc", "ns3::RdmaCcHpcc"},
                                            {"timely", "ns3::RdmaCcTimely"},
                                            {"timely-patched", "ns3::RdmaCcPatchedTimely"},
                                            {"dctcp", "ns3::RdmaCcDctcp"}};
    for (const auto& k : kKnown)
    {
        if (name == k[0] && TypeId::LookupByNameFailSafe(k[1], &tid))
        {
            return tid;
        }
    }
    std::string avail = "none";
    for (const auto& k : kKnown)
    {
        if (TypeId::LookupByNameFailSafe(k[1], &tid))
        {
            avail += std::string(", ") + k[0];
        }
    }
    throw ScenarioError("nic.cc: \"" + name +
                        "\" is not available in this build (available: " + avail + ")");
}
} // namespace

ScenarioRunner::ScenarioRunner(const ScenarioConfig& cfg, const std::string& outDir)
    : m_cfg(cfg),
      m_outDir(outDir)
{
}

ScenarioRunner::~ScenarioRunner()
{
    if (m_built && !m_ran)
    {
        Simulator::Destroy();
    }
}

const ScenarioConfig&
ScenarioRunner::GetConfig() const
{
    return m_cfg;
}

Ptr<PathMonitor>
ScenarioRunner::GetMonitor() const
{
    return m_monitor;
}

Ptr<FabricTopology>
ScenarioRunner::GetTopology() const
{
    return m_topo;
}

const std::vector<FlowLog::Flow>&
ScenarioRunner::GetFlows() const
{
    return m_log.GetFlows();
}

const ScenarioRunner::Totals&
ScenarioRunner::GetTotals() const
{
    return m_totals;
}

const std::vector<std::string>&
ScenarioRunner::GetWarnings() const
{
    return m_warnings;
}

void
ScenarioRunner::Build()
{
    const auto wall0 = std::chrono::steady_clock::now();
    const std::string file = m_cfg.sourcePath.empty() ? "scenario" : m_cfg.sourcePath;
    RngSeedManager::SetSeed(m_cfg.seed);
    RngSeedManager::SetRun(1);
    Mac48Address::ResetAllocationIndex();

    const TopologyConfig& t = m_cfg.topology;
    std::unique_ptr<FabricTopologyHelper> helper;
    LeafSpineHelper* leafSpine = nullptr;
    TorusHelper* torus = nullptr;
    RailOptimizedHelper* rail = nullptr;
    if (t.type == "leaf-spine")
    {
        auto h = std::make_unique<LeafSpineHelper>();
        h->SetShape(t.leaves, t.spines, t.hostsPerLeaf, t.linksPerPair);
        h->SetHostLink(t.hostLink.rate, t.hostLink.delay);
        h->SetFabricLink(t.fabricLink.rate, t.fabricLink.delay);
        leafSpine = h.get();
        helper = std::move(h);
    }
    else if (t.type == "fat-tree")
    {
        auto h = std::make_unique<FatTreeHelper>();
        h->SetClos(t.pods, t.edgesPerPod, t.aggsPerPod, t.hostsPerEdge, t.coresPerAgg);
        h->SetHostLink(t.hostLink.rate, t.hostLink.delay);
        h->SetFabricLink(t.fabricLink.rate, t.fabricLink.delay);
        helper = std::move(h);
    }
    else if (t.type == "torus")
    {
        auto h = std::make_unique<TorusHelper>();
        h->SetDimensions(t.dims);
        h->SetWrap(t.wrap);
        for (uint32_t d = 0; d < t.dims.size(); ++d)
        {
            h->SetDimensionLink(d, t.dimLinks[d].rate, t.dimLinks[d].delay);
        }
        h->SetHostLink(t.hostLink.rate, t.hostLink.delay);
        torus = h.get();
        helper = std::move(h);
    }
    else if (t.type == "rail-optimized")
    {
        auto h = std::make_unique<RailOptimizedHelper>();
        h->SetShape(t.scaleUnits, t.serversPerUnit, t.nicsPerServer, t.spines);
        h->SetHostLink(t.hostLink.rate, t.hostLink.delay);
        h->SetFabricLink(t.fabricLink.rate, t.fabricLink.delay);
        h->SetIntraServerLink(t.nvlink.rate, t.nvlink.delay);
        rail = h.get();
        helper = std::move(h);
    }
    else
    {
        auto h = std::make_unique<TopologyFileHelper>();
        try
        {
            h->SetFile(t.file);
        }
        catch (const std::invalid_argument& e)
        {
            throw ScenarioError(file + ": topology.path: " + e.what());
        }
        helper = std::move(h);
    }
    FabricTopologyHelper& ls = *helper;

    const SwitchConfig& sw = m_cfg.sw;
    ls.SetMmuAttribute("BufferSize", UintegerValue(sw.bufferBytes));
    ls.SetMmuAttribute("PfcEnabled", BooleanValue(sw.pfc));
    ls.SetMmuAttribute("Alpha", DoubleValue(sw.alpha));
    ls.SetMmuAttribute("ReservedBytes", UintegerValue(sw.reservedBytes));
    ls.SetMmuAttribute("HeadroomBytes", UintegerValue(sw.headroomBytes.value_or(0)));
    ls.SetMmuAttribute("XonOffset", UintegerValue(sw.xonOffsetBytes));
    ls.SetMmuAttribute("MaxFrameBytes", UintegerValue(m_cfg.nic.mtu + roce::kDataHeaderBytes));
    ls.SetMmuAttribute("EcnEnabled", BooleanValue(sw.ecn.enabled));
    ls.SetMmuAttribute("EcnKmin", UintegerValue(sw.ecn.kminBytes));
    ls.SetMmuAttribute("EcnKmax", UintegerValue(sw.ecn.kmaxBytes));
    ls.SetMmuAttribute("EcnPmax", DoubleValue(sw.ecn.pmax));
    if (sw.scheduler == "wrr")
    {
        ls.SetDeviceAttribute("Scheduler", EnumValue(FabricNetDevice::WEIGHTED_RR));
        std::string w;
        for (std::size_t i = 0; i < sw.wrrWeights.size(); ++i)
        {
            w += (i ? "," : "") + std::to_string(sw.wrrWeights[i]);
        }
        if (!w.empty())
        {
            ls.SetDeviceAttribute("WrrWeights", StringValue(w));
        }
    }
    ls.SetDeviceAttribute("Mtu", UintegerValue(m_cfg.nic.mtu + roce::kDataHeaderBytes));

    const NicConfig& nic = m_cfg.nic;
    ls.SetNicAttribute("Mtu", UintegerValue(nic.mtu));
    ls.SetNicAttribute("AckInterval", UintegerValue(nic.ackInterval));
    ls.SetNicAttribute("RetransmitTimeout", TimeValue(nic.rto));
    TypeId cc = CcTypeId(nic.cc);
    ls.SetNicAttribute("CongestionControl", TypeIdValue(cc));
    // Congestion-control parameters: a "Profile" (DCQCN, TIMELY) goes first;
    // the NIC expands it into every parameter it sets, then the scenario's
    // own values override.
    std::vector<std::pair<std::string, std::string>> ccParams;
    for (const auto& kv : nic.ccParams)
    {
        struct TypeId::AttributeInformation info;
        if (!cc.LookupAttributeByName(kv.first, &info))
        {
            std::string valid;
            for (TypeId t = cc; t != RdmaCongestionOps::GetTypeId(); t = t.GetParent())
            {
                for (std::size_t i = 0; i < t.GetAttributeN(); ++i)
                {
                    valid += (valid.empty() ? "" : ", ") + t.GetAttribute(i).name;
                }
            }
            throw ScenarioError(file + ": nic.cc_params." + kv.first + ": unknown parameter of " +
                                nic.cc +
                                " (valid: " + (valid.empty() ? std::string("none") : valid) + ")");
        }
    }
    auto profile = nic.ccParams.find("Profile");
    if (profile != nic.ccParams.end())
    {
        ObjectFactory f(cc.GetName());
        Ptr<Object> proto = f.Create<Object>();
        if (!proto->SetAttributeFailSafe("Profile", StringValue(profile->second)))
        {
            throw ScenarioError(file + ": nic.cc_params.Profile: unknown profile \"" +
                                profile->second + "\"");
        }
        ccParams.emplace_back("Profile", profile->second);
    }
    for (const auto& kv : nic.ccParams)
    {
        if (kv.first != "Profile")
        {
            ccParams.emplace_back(kv.first, kv.second);
        }
    }
    ls.SetNicAttribute("CnpInterval", TimeValue(nic.cnpInterval));

    try
    {
        m_topo = ls.Install();
    }
    catch (const std::invalid_argument& e)
    {
        Simulator::Destroy();
        throw ScenarioError(file + ": topology/switch: " + e.what());
    }
    m_built = true;

    // Congestion-control parameters go to every QP's algorithm object.
    for (uint32_t h = 0; h < m_topo->GetNHosts(); ++h)
    {
        for (const auto& kv : ccParams)
        {
            m_topo->GetNic(h)->SetCongestionControlAttribute(kv.first, StringValue(kv.second));
        }
    }
    const RoutingConfig& r = m_cfg.routing;
    const auto hash = r.hash == "mix64" ? EcmpRouting::MIX64 : EcmpRouting::CRC32;
    const bool crcOffsets = r.hash != "crc32-plain";
    try
    {
        if (r.mode == "ecmp")
        {
            FabricRoutingHelper::InstallEcmp(m_topo, hash, r.seed, crcOffsets);
        }
        else if (r.mode == "dor")
        {
            FabricRoutingHelper::InstallEcmp(m_topo, hash, r.seed, crcOffsets);
            torus->InstallDimensionOrderRouting(m_topo);
        }
        else if (r.mode == "static")
        {
            FabricRoutingHelper::InstallStatic(m_topo, hash, r.seed, crcOffsets);
            for (const StaticPin& pin : r.pins)
            {
                const uint32_t via = leafSpine->GetSpineSwitch(pin.spine);
                if (pin.srcPort)
                {
                    FabricRoutingHelper::PinFlowVia(m_topo, pin.src, pin.dst, *pin.srcPort, via);
                }
                else
                {
                    FabricRoutingHelper::PinHostPairVia(m_topo, pin.src, pin.dst, via);
                }
            }
        }
        else if (r.mode == "balanced-static")
        {
            FabricRoutingHelper::InstallBalancedStatic(m_topo);
        }
        else
        {
            throw ScenarioError(file + ": routing.mode: unknown mode \"" + r.mode + "\"");
        }
        if (rail && t.railRouting)
        {
            rail->InstallRailRouting(m_topo);
        }
    }
    catch (const std::invalid_argument& e)
    {
        throw ScenarioError(file + ": routing.pins: " + e.what());
    }
    m_topo->AssignStreams(0);

    if (m_cfg.workload.type == "collective")
    {
        m_engine =
            std::make_unique<CollectiveEngine>(m_topo, m_cfg.workload.collective.priority, &m_log);
        Simulator::Schedule(Time(0), &ScenarioRunner::StartCollective, this);
    }
    else if (m_cfg.workload.type == "chakra" || m_cfg.workload.type == "text" ||
             m_cfg.workload.type == "gossip")
    {
        const TraceWorkload& tw = m_cfg.workload.trace;
        m_traceRunner = std::make_unique<TraceRunner>(m_topo,
                                                      tw.graphs,
                                                      tw.groups,
                                                      TraceCollectiveOptions{tw.algorithms,
                                                                             tw.chunks,
                                                                             tw.channels,
                                                                             tw.dims,
                                                                             tw.dimAlgorithms},
                                                      3,
                                                      &m_log);
        Simulator::Schedule(Time(0), [this]() {
            m_traceRunner->Start(MakeCallback(&ScenarioRunner::WorkloadDone, this));
        });
    }

    // Workload: one QP per flow, its message posted at the flow's start.
    // Collectives and traces add their flows to m_log as they post them.
    m_log.SetSelectors(m_cfg.trace.flows);
    m_log.SetAckedCallback(MakeCallback(&ScenarioRunner::MaybeStop, this));
    m_workloadDone = !m_engine && !m_traceRunner;
    const auto& flows = m_cfg.workload.flows;
    m_qps.resize(flows.size());
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const FlowSpec& f = flows[i];
        Ptr<RdmaQueuePair> qp =
            RdmaNic::Connect(m_topo->GetNic(f.src), m_topo->GetNic(f.dst), f.priority);
        qp->SetBaseRtt(m_topo->GetBaseRtt(f.src, f.dst, nic.mtu));
        qp->SetRecvCompleteCallback(
            [this, i](Ptr<RdmaQueuePair>, uint64_t, uint64_t) { m_log.Received(i); });
        qp->SetSendCompleteCallback([this, i](Ptr<RdmaQueuePair>, uint64_t) { m_log.Acked(i); });
        FlowLog::Flow rec;
        rec.src = f.src;
        rec.dst = f.dst;
        rec.srcPort = qp->GetSrcPort();
        rec.priority = f.priority;
        rec.bytes = f.bytes;
        rec.start = f.start;
        m_log.Add(rec, qp); // id i
        m_qps[i] = qp;
        Ptr<RdmaNic> src = m_topo->GetNic(f.src);
        const uint64_t bytes = f.bytes;
        Simulator::Schedule(f.start, [src, qp, bytes]() { src->PostSend(qp, bytes); });
    }

    if (m_cfg.monitor.enabled)
    {
        m_monitor = CreateObject<PathMonitor>();
        m_monitor->SetAttribute("BinWidth", TimeValue(m_cfg.monitor.bin));
        m_monitor->SetAttribute("ElephantBytes", UintegerValue(m_cfg.monitor.elephantBytes));
        m_monitor->Install(m_topo);
    }

    // What the run will cost and whether PFC can be lossless, before it starts.
    m_warnings = CheckRunCost(m_cfg, m_topo);

    if (m_cfg.pcap)
    {
        // One file per device: <dir>/pcap/<name>-<node>-<device>.pcap
        std::filesystem::create_directories(m_outDir + "/pcap");
        FabricPcapHelper pcap;
        pcap.EnablePcap(m_outDir + "/pcap/" + m_cfg.name, m_topo->GetDevices());
    }
    m_totals.setupWallS +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
}

void
ScenarioRunner::AddSetupWallTime(double seconds)
{
    m_totals.setupWallS += seconds;
}

bool
ScenarioRunner::AllDone() const
{
    if (m_log.GetOutstanding() > 0)
    {
        return false;
    }
    if (m_engine)
    {
        const CollectiveWorkload& c = m_cfg.workload.collective;
        uint64_t done = 0;
        for (const auto& r : m_engine->GetRecords())
        {
            done += r.done ? 1 : 0;
        }
        return done == static_cast<uint64_t>(c.iterations) * c.phases.size();
    }
    if (m_traceRunner)
    {
        for (const auto& r : m_traceRunner->GetRanks())
        {
            if (!r.done)
            {
                return false;
            }
        }
    }
    return true;
}

RunOutcome
ScenarioRunner::GetOutcome() const
{
    return m_outcome;
}

int
ScenarioRunner::GetExitCode() const
{
    return ExitCodeFor(m_outcome, m_cfg.fixedLength);
}

void
ScenarioRunner::StartCollective()
{
    const CollectiveWorkload& c = m_cfg.workload.collective;
    const CollectiveSpec& spec = c.phases[m_phase];
    m_engine->Start(spec, c.group, MakeCallback(&ScenarioRunner::CollectiveDone, this));
}

void
ScenarioRunner::CollectiveDone(uint32_t id)
{
    // Phases run back to back, iterations too, as a training loop's
    // collectives would without compute between them.
    const CollectiveWorkload& c = m_cfg.workload.collective;
    if (++m_phase == c.phases.size())
    {
        m_phase = 0;
        ++m_iteration;
    }
    if (m_iteration < c.iterations)
    {
        StartCollective();
    }
    else
    {
        WorkloadDone();
    }
}

void
ScenarioRunner::WorkloadDone()
{
    m_workloadDone = true;
    MaybeStop();
}

void
ScenarioRunner::MaybeStop()
{
    // The run ends when the workload is done and every flow acknowledged.
    if (m_workloadDone && m_log.GetOutstanding() == 0)
    {
        Simulator::Stop();
    }
}

std::string
ScenarioRunner::CollectivesCsv() const
{
    if (m_traceRunner)
    {
        return m_traceRunner->GetEngine().RecordsCsv();
    }
    return m_engine ? m_engine->RecordsCsv() : std::string();
}

void
ScenarioRunner::Sample()
{
    // The largest egress queue of any switch port, and the state of the
    // traced flows' congestion control.
    uint64_t maxQueue = 0;
    for (uint32_t s = 0; s < m_topo->GetNSwitches(); ++s)
    {
        Ptr<FabricSwitch> sw = m_topo->GetSwitch(s);
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            maxQueue = std::max(maxQueue, sw->GetPort(p)->GetTotalQueueBytes());
        }
    }
    m_queueSampleSum += static_cast<double>(maxQueue);
    m_queueSamples++;
    char line[160];
    for (const FlowLog::Sampled& s : m_log.GetSampled())
    {
        if (Simulator::Now() < m_log.GetFlows()[s.id].start)
        {
            continue;
        }
        const double alpha = s.qp->GetCongestionOps()->GetAlpha();
        std::snprintf(line,
                      sizeof(line),
                      "%s,%u,%.6f,%llu,%.3f,%s\n",
                      FormatSeconds(Simulator::Now()).c_str(),
                      s.id,
                      s.qp->GetRate().GetBitRate() / 1e9,
                      static_cast<unsigned long long>(s.qp->GetWindow()),
                      s.qp->GetLastRtt().GetSeconds() * 1e6,
                      std::isnan(alpha) ? "" : std::to_string(alpha).c_str());
        m_ccTrace += line;
    }
    Simulator::Schedule(m_cfg.trace.interval, &ScenarioRunner::Sample, this);
}

std::string
ScenarioRunner::CcTraceCsv() const
{
    return "time_s,flow,rate_gbps,window_bytes,rtt_us,alpha\n" + m_ccTrace;
}

void
ScenarioRunner::Run()
{
    NS_ABORT_MSG_UNLESS(m_built && !m_ran, "ScenarioRunner::Run: Build() once, then Run() once");
    m_ran = true;
    if (!m_log.GetFlows().empty() || m_engine || m_traceRunner)
    {
        Simulator::Stop(m_cfg.stop);
        Simulator::Schedule(Time(0), &ScenarioRunner::Sample, this);
        if (m_cfg.stallTimeout.IsStrictlyPositive())
        {
            m_stall = std::make_unique<StallDetector>(m_topo, m_cfg.stallTimeout);
            m_stall->Start(Callback<void>([]() { Simulator::Stop(); }));
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();
    m_totals.simWallS = std::chrono::duration<double>(t1 - t0).count();
    m_endTime = Simulator::Now();
    m_totals.simTimeS = m_endTime.GetSeconds();
    m_totals.events = Simulator::GetEventCount();
    Collect();
    if (m_monitor)
    {
        m_monitor->Finish();
    }
    m_outcome = AllDone() ? RunOutcome::COMPLETED
                          : (m_stall && m_stall->IsStalled() ? RunOutcome::STALLED
                                                             : RunOutcome::STOP_REACHED);
    if (m_outcome == RunOutcome::STALLED)
    {
        m_pauseCycle = m_stall->GetCycle();
    }
    else if (m_outcome == RunOutcome::STOP_REACHED)
    {
        m_pauseCycle = m_topo->FindPauseCycle();
    }
    m_stall.reset();
    m_totals.peakRssBytes = PeakRssBytes();
    m_qps.clear();
    m_log.ReleaseQps();
    m_topo = nullptr;
    Simulator::Destroy();
}

void
ScenarioRunner::Collect()
{
    Totals& t = m_totals;
    std::vector<FlowLog::Flow>& flows = m_log.GetFlows();
    t.flowsCompleted = flows.size() - m_log.GetOutstanding();
    m_log.SetIdealFcts(*m_topo, m_cfg.nic.mtu);
    for (uint32_t i = 0; i < m_qps.size(); ++i) // the flows workload: a QP per flow
    {
        t.bytesSent += flows[i].bytes;
        t.bytesAcked += m_qps[i]->GetBytesAcked();
        flows[i].retransmits = m_qps[i]->GetRetransmits();
        flows[i].timeouts = m_qps[i]->GetTimeouts();
        t.retransmits += flows[i].retransmits;
        t.timeouts += flows[i].timeouts;
    }
    if (m_engine || m_traceRunner)
    {
        for (const auto& qp : m_engine ? m_engine->GetQps() : m_traceRunner->GetQps())
        {
            t.bytesSent += qp->GetBytesPosted();
            t.bytesAcked += qp->GetBytesAcked();
            t.retransmits += qp->GetRetransmits();
            t.timeouts += qp->GetTimeouts();
        }
    }
    for (uint32_t h = 0; h < m_topo->GetNHosts(); ++h)
    {
        const RdmaNic::Counters& c = m_topo->GetNic(h)->GetCounters();
        t.bytesDelivered += c.bytesDelivered;
        t.dataPackets += c.dataTx;
        m_cnpSent += c.cnpTx;
    }
    for (uint32_t s = 0; s < m_topo->GetNSwitches(); ++s)
    {
        Ptr<FabricSwitch> sw = m_topo->GetSwitch(s);
        const FabricSwitch::Counters& c = sw->GetCounters();
        for (int k = 0; k < FabricSwitch::DROP_REASON_COUNT; ++k)
        {
            t.drops[k] += c.drops[k];
        }
        t.pausedEpisodes += c.xoffSent;
        t.ecnMarked += c.ecnMarked;
        t.maxBufferBytes = std::max(t.maxBufferBytes, sw->GetMmu()->GetMaxUsedBytes());
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            t.maxQueueBytes =
                std::max(t.maxQueueBytes, sw->GetPort(p)->GetCounters().maxQueueBytes);
        }
    }
    for (uint32_t l = 0; l < m_topo->GetNLinks(); ++l)
    {
        const auto& link = m_topo->GetLink(l);
        for (const auto& dev : {link.devA, link.devB})
        {
            const FabricNetDevice::Counters c = dev->GetCounters();
            t.pfcPauseFrames += c.pfcPauseTx;
            t.pfcResumeFrames += c.pfcTx - c.pfcPauseTx;
            t.packetHops += c.txFrames + c.pfcTx;
        }
    }
}

std::string
ScenarioRunner::SummaryJson() const
{
    const Totals& t = m_totals;
    nlohmann::ordered_json j;
    j["name"] = m_cfg.name;
    j["seed"] = m_cfg.seed;
    j["outcome"] = OutcomeName(m_outcome);
    j["sim_time_s"] = Round9(t.simTimeS);
    // The machine-dependent lines, all named *wall_s or peak_rss_*.
    j["wall_s"] = Round9(t.setupWallS + t.simWallS);
    j["setup_wall_s"] = Round9(t.setupWallS);
    j["simulation_wall_s"] = Round9(t.simWallS);
    j["peak_rss_bytes"] = t.peakRssBytes;
    j["events"] = t.events;
    const std::vector<FlowLog::Flow>& flows = m_log.GetFlows();
    j["flows_total"] = flows.size();
    j["flows_completed"] = t.flowsCompleted;
    j["bytes_sent"] = t.bytesSent;
    j["bytes_delivered"] = t.bytesDelivered;
    j["bytes_acked"] = t.bytesAcked;
    j["data_packets"] = t.dataPackets;
    j["retransmitted_packets"] = t.retransmits;
    j["timeouts"] = t.timeouts;
    nlohmann::ordered_json drops;
    uint64_t total = 0;
    for (int k = 0; k < FabricSwitch::DROP_REASON_COUNT; ++k)
    {
        drops[FabricSwitch::DropReasonName(static_cast<FabricSwitch::DropReason>(k))] = t.drops[k];
        total += t.drops[k];
    }
    drops["total"] = total;
    j["drops"] = drops;
    j["pfc_pause_frames"] = t.pfcPauseFrames;
    j["pfc_resume_frames"] = t.pfcResumeFrames;
    j["pfc_pause_episodes"] = t.pausedEpisodes;
    j["ecn_marked"] = t.ecnMarked;
    j["max_queue_bytes"] = t.maxQueueBytes;
    j["max_buffer_bytes"] = t.maxBufferBytes;
    j["packet_hops"] = t.packetHops;
    // The trace reader's warnings, then those of the checks Build() ran.
    std::vector<std::string> warnings = m_cfg.workload.trace.warnings;
    warnings.insert(warnings.end(), m_warnings.begin(), m_warnings.end());
    if (!warnings.empty())
    {
        j["warnings"] = warnings;
    }

    std::vector<double> slow;
    std::vector<double> fct;
    for (const auto& f : flows)
    {
        if (f.received)
        {
            const double fctS = (f.finish - f.start).GetSeconds();
            fct.push_back(fctS);
            slow.push_back(f.idealFct.IsPositive() ? fctS / f.idealFct.GetSeconds() : 1.0);
        }
    }
    std::sort(slow.begin(), slow.end());
    std::sort(fct.begin(), fct.end());
    nlohmann::ordered_json fs;
    double mean = 0;
    for (double s : slow)
    {
        mean += s;
    }
    fs["mean"] = Round9(slow.empty() ? 0.0 : mean / slow.size());
    fs["p50"] = Round9(Quantile(slow, 0.5));
    fs["p99"] = Round9(Quantile(slow, 0.99));
    fs["max"] = Round9(slow.empty() ? 0.0 : slow.back());
    j["fct_slowdown"] = fs;
    j["fct_max_s"] = Round9(fct.empty() ? 0.0 : fct.back());
    nlohmann::ordered_json cc;
    cc["algorithm"] = m_cfg.nic.cc;
    cc["fct_slowdown_mean"] = fs["mean"];
    cc["fct_slowdown_p99"] = fs["p99"];
    cc["pfc_pause_frames"] = t.pfcPauseFrames;
    cc["max_queue_bytes"] = t.maxQueueBytes;
    cc["mean_queue_bytes"] =
        Round9(m_queueSamples ? m_queueSampleSum / static_cast<double>(m_queueSamples) : 0.0);
    cc["cnp_sent"] = m_cnpSent;
    j["cc"] = cc;
    nlohmann::ordered_json unfinished; // written when the run did not complete
    if (m_engine)
    {
        const auto& recs = m_engine->GetRecords();
        nlohmann::ordered_json cj;
        uint64_t done = 0;
        double busbw = 0;
        for (const auto& r : recs)
        {
            if (r.done)
            {
                ++done;
                const double dur = (r.finish - r.start).GetSeconds();
                busbw += dur > 0 ? r.bytes * 8.0 / dur / 1e9 * r.busFactor : 0.0;
            }
        }
        cj["phases"] = m_cfg.workload.collective.phases.size();
        cj["instances"] = recs.size();
        cj["completed"] = done;
        cj["mean_busbw_gbps"] = Round9(done ? busbw / done : 0.0);
        j["collectives"] = cj;
        // Every rank is busy until the last collective ends: with no compute,
        // all of its communication is exposed (ASTRA-sim's definition).
        nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
        const Time end = (!recs.empty() && recs.back().done) ? recs.back().finish : m_endTime;
        const auto& group = m_cfg.workload.collective.group;
        for (std::size_t r = 0; r < group.size(); ++r)
        {
            ranks.push_back({{"rank", r},
                             {"host", group[r]},
                             {"finish_s", Round9(end.GetSeconds())},
                             {"compute_s", 0.0},
                             {"exposed_comm_s", Round9(end.GetSeconds())}});
        }
        j["ranks"] = ranks;
        unfinished["collectives_unfinished"] =
            m_cfg.workload.collective.iterations * m_cfg.workload.collective.phases.size() - done;
    }
    if (m_traceRunner)
    {
        // ASTRA-sim's per-rank view: finish, compute, and the communication
        // not hidden behind compute.
        nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
        const auto& stats = m_traceRunner->GetRanks();
        uint64_t done = 0;
        for (std::size_t r = 0; r < stats.size(); ++r)
        {
            const Time finish = stats[r].done ? stats[r].finish : m_endTime;
            ranks.push_back({{"rank", r},
                             {"finish_s", Round9(finish.GetSeconds())},
                             {"compute_s", Round9(stats[r].compute.GetSeconds())},
                             {"exposed_comm_s", Round9((finish - stats[r].compute).GetSeconds())},
                             {"done", stats[r].done}});
            done += stats[r].done ? 1 : 0;
        }
        j["ranks"] = ranks;
        j["collectives"] = {{"instances", m_traceRunner->GetEngine().GetRecords().size()}};
        unfinished["ranks_unfinished"] = stats.size() - done;
    }
    if (m_outcome != RunOutcome::COMPLETED)
    {
        if (t.flowsCompleted < flows.size())
        {
            unfinished["flows_unfinished"] = flows.size() - t.flowsCompleted;
        }
        unfinished["bytes_unacked"] = t.bytesSent - t.bytesAcked;
        unfinished["reason"] = m_outcome == RunOutcome::STALLED
                                   ? "stalled: no frame left any queue of a PFC pause cycle for "
                                     "stall_timeout (" +
                                         TimeToText(m_cfg.stallTimeout) + ")"
                                   : std::string("stop time reached");
        if (!m_pauseCycle.empty())
        {
            unfinished["pfc_pause_cycle"] = m_pauseCycle;
        }
        j["unfinished"] = unfinished;
    }
    return j.dump(2) + "\n";
}

std::string
ScenarioRunner::FlowsCsv() const
{
    return m_log.Csv();
}

void
ScenarioRunner::WriteOutputs(const std::string& dir) const
{
    std::filesystem::create_directories(dir);
    auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream out(dir + "/" + name, std::ios::binary);
        out << text;
        if (!out)
        {
            throw std::runtime_error("cannot write " + dir + "/" + name);
        }
    };
    write("summary.json", SummaryJson());
    write("flows.csv", FlowsCsv());
    write("scenario.json", ScenarioToJson(m_cfg));
    if (!m_cfg.trace.flows.empty())
    {
        write("cc_trace.csv", CcTraceCsv());
    }
    if (m_engine || m_traceRunner)
    {
        write("collectives.csv", CollectivesCsv());
    }
    if (m_monitor)
    {
        m_monitor->WriteOutputs(dir);
    }
}

std::string
ScenarioRunner::ConsoleSummary() const
{
    const Totals& t = m_totals;
    std::ostringstream os;
    char buf[256];
    std::string what;
    if (m_traceRunner)
    {
        uint64_t done = 0;
        for (const auto& r : m_traceRunner->GetRanks())
        {
            done += r.done ? 1 : 0;
        }
        what = std::to_string(done) + "/" + std::to_string(m_traceRunner->GetRanks().size()) +
               " ranks finished";
    }
    else if (m_engine)
    {
        uint64_t done = 0;
        for (const auto& r : m_engine->GetRecords())
        {
            done += r.done ? 1 : 0;
        }
        what = std::to_string(done) + "/" + std::to_string(m_engine->GetRecords().size()) +
               " collectives completed";
    }
    else
    {
        what = std::to_string(t.flowsCompleted) + "/" + std::to_string(m_log.GetFlows().size()) +
               " flows completed";
    }
    std::snprintf(buf,
                  sizeof(buf),
                  " in %.6f s simulated (%.2f s wall after %.2f s of set-up, %llu events, %.2f M "
                  "events/s, peak RSS %.1f MB)\n",
                  t.simTimeS,
                  t.simWallS,
                  t.setupWallS,
                  static_cast<unsigned long long>(t.events),
                  t.simWallS > 0 ? t.events / t.simWallS / 1e6 : 0.0,
                  t.peakRssBytes / 1e6);
    os << m_cfg.name << ": " << what << buf;
    uint64_t drops = 0;
    for (auto d : t.drops)
    {
        drops += d;
    }
    std::snprintf(buf,
                  sizeof(buf),
                  "  delivered %llu of %llu bytes; drops %llu; PFC pause frames %llu; ECN marks "
                  "%llu; max queue %llu B\n",
                  static_cast<unsigned long long>(t.bytesDelivered),
                  static_cast<unsigned long long>(t.bytesSent),
                  static_cast<unsigned long long>(drops),
                  static_cast<unsigned long long>(t.pfcPauseFrames),
                  static_cast<unsigned long long>(t.ecnMarked),
                  static_cast<unsigned long long>(t.maxQueueBytes));
    os << buf;
    if (m_engine)
    {
        for (const auto& r : m_engine->GetRecords())
        {
            const double dur = (r.finish - r.start).GetSeconds();
            const double algbw = r.done && dur > 0 ? r.bytes * 8.0 / dur / 1e9 : 0.0;
            std::snprintf(
                buf,
                sizeof(buf),
                "  collective %u: %s/%s of %llu B on %zu ranks: %s in %.3f ms, algbw %.2f "
                "Gb/s, busbw %.2f Gb/s\n",
                r.id,
                r.type.c_str(),
                r.algorithm.c_str(),
                static_cast<unsigned long long>(r.bytes),
                r.group.size(),
                r.done ? "done" : "NOT finished",
                dur * 1e3,
                algbw,
                algbw * r.busFactor);
            os << buf;
        }
    }
    if (m_monitor)
    {
        os << m_monitor->SummaryTable();
    }
    if (!m_pauseCycle.empty())
    {
        os << "  WARNING: stalled in a PFC pause cycle (deadlock):";
        for (const auto& q : m_pauseCycle)
        {
            os << " " << q;
        }
        os << "\n";
    }
    if (m_outcome == RunOutcome::STALLED)
    {
        os << "  stopped at " << FormatSeconds(m_endTime)
           << " s: no frame left the cycle for stall_timeout (" << TimeToText(m_cfg.stallTimeout)
           << ")\n";
    }
    else if (m_outcome == RunOutcome::STOP_REACHED)
    {
        os << "  NOT finished: stop (" << TimeToText(m_cfg.stop) << ") came first"
           << (m_cfg.fixedLength ? " (a fixed-length run)" : "") << "\n";
    }
    return os.str();
}

int
RunScenarioCommandLine(int argc, char** argv)
{
    const char* usage = "usage: tf-run SCENARIO.json [--out DIR] [--set key.path=value ...]";
    std::string path;
    std::string out;
    std::vector<std::string> sets;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a == "--out" || a == "--set")
        {
            if (i + 1 >= argc)
            {
                std::cerr << "tf-run: " << a << " needs a value\n" << usage << "\n";
                return ExitCode::kBadInput;
            }
            (a == "--out" ? out : (sets.emplace_back(), sets.back())) = argv[++i];
        }
        else if (a == "-h" || a == "--help")
        {
            std::cout << usage << "\n";
            return ExitCode::kCompleted;
        }
        else if (!a.empty() && a[0] == '-')
        {
            std::cerr << "tf-run: unknown option " << a << "\n" << usage << "\n";
            return ExitCode::kBadInput;
        }
        else if (path.empty())
        {
            path = a;
        }
        else
        {
            std::cerr << "tf-run: more than one scenario file given\n" << usage << "\n";
            return ExitCode::kBadInput;
        }
    }
    if (path.empty())
    {
        std::cerr << usage << "\n";
        return ExitCode::kBadInput;
    }
    try
    {
        const auto t0 = std::chrono::steady_clock::now();
        ScenarioConfig cfg = LoadScenarioFile(path, sets);
        for (const std::string& w : cfg.workload.trace.warnings)
        {
            std::cerr << "warning: " << w << "\n";
        }
        // Outputs are checked before anything is built or simulated.
        const std::string outWhere =
            out.empty() ? path + ": name: the output directory " : std::string("--out ");
        if (out.empty())
        {
            out = "results/" + cfg.name;
        }
        const std::string outError = PrepareOutputDirectory(out);
        if (!outError.empty())
        {
            std::cerr << "error: " << outWhere << out << ": " << outError << "\n";
            return ExitCode::kBadInput;
        }
        ScenarioRunner run(cfg, out);
        run.AddSetupWallTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        run.Build();
        for (const std::string& w : run.GetWarnings())
        {
            std::cerr << "warning: " << path << ": " << w << "\n";
        }
        run.Run();
        run.WriteOutputs(out);
        std::cout << run.ConsoleSummary() << "  results in " << out << "/\n";
        return run.GetExitCode();
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return ExitCode::kBadInput;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return ExitCode::kFailure;
    }
}

} // namespace ns3
