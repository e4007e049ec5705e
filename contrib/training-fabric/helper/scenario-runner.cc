/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ScenarioRunner: simulating a built scenario (Build() is in
 * scenario-builder.cc, the reports in scenario-reports.cc), and
 * RunScenarioFile, the whole of tf-run but its command line.
 */
#include "scenario-runner.h"

#include "collective-engine.h"
#include "fabric-engine-helper.h"
#include "run-progress.h"
#include "trace-runner.h"

#include "ns3/fabric-net-device.h"
#include "ns3/fabric-simulator-impl.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/link-events.h"
#include "ns3/path-monitor-helper.h"
#include "ns3/path-monitor.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/shared-buffer-mmu.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <unordered_map>

namespace ns3
{

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
    return m_monitor ? m_monitor->GetMonitor() : nullptr;
}

const PathMonitorHelper*
ScenarioRunner::GetMonitorHelper() const
{
    return m_monitor.get();
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
ScenarioRunner::AddSetupWallTime(double seconds)
{
    m_totals.setupWallS += seconds;
}

void
ScenarioRunner::SetProgress(RunProgress* progress)
{
    m_progress = progress;
}

void
ScenarioRunner::Phase(const std::string& what)
{
    if (m_progress)
    {
        m_progress->Phase(what);
    }
}

double
ScenarioRunner::DoneFraction() const
{
    // Bytes acknowledged of the bytes to send, where they are known up front
    // (flows, background), and collective instances finished of those to
    // run: the smaller share when both run. A trace's amount unfolds as it
    // runs: unknown (-1) without flows.
    double fraction = -1.0;
    if (!m_qps.empty())
    {
        uint64_t total = 0;
        uint64_t acked = 0;
        for (uint32_t i = 0; i < m_qps.size(); ++i)
        {
            total += m_log.GetFlows()[i].bytes;
            acked += m_qps[i]->GetBytesAcked();
        }
        fraction = total ? static_cast<double>(acked) / static_cast<double>(total) : -1.0;
    }
    if (m_engine)
    {
        const CollectiveWorkload& c = m_cfg.workload.collective;
        uint64_t done = 0;
        for (const auto& r : m_engine->GetRecords())
        {
            done += r.done ? 1 : 0;
        }
        const uint64_t total = static_cast<uint64_t>(c.iterations) * c.phases.size();
        const double share = total ? static_cast<double>(done) / static_cast<double>(total) : -1.0;
        fraction = fraction < 0 ? share : std::min(fraction, share);
    }
    return fraction;
}

bool
ScenarioRunner::AllDone() const
{
    if (m_distributed)
    {
        return m_localPending == 0;
    }
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
ScenarioRunner::LocalFlowEnd()
{
    if (--m_localPending == 0)
    {
        // Periodic sampling ends here; the run itself ends when every rank's
        // queue is empty, or at the scenario's stop (congestion-control timers,
        // DCQCN's for one, keep a rank's queue busy until then).
        m_localDone = Simulator::Now();
    }
}

void
ScenarioRunner::EnableWindows()
{
    // The switches batched (FabricEngineHelper::EnableWindows: a switch
    // reaches other nodes only by frames over its links, at least the
    // smallest link delay later, and never stops the run, the condition
    // under which FabricSimulatorImpl's windows give the global order's
    // results). Hosts stay in the global order (a host's event may stop the
    // run, and a workload may act on several hosts at once) but for the
    // case below. pcap stays off windows: it writes the frames of every
    // device in the order they are seen.
    if (!m_cfg.windows || m_distributed || m_cfg.pcap ||
        FabricEngineHelper::EnableWindows(m_topo).IsZero())
    {
        return;
    }
    FabricSimulatorImpl* sim = FabricSimulatorImpl::Current();
    // Hosts too, in a flows workload, while no flow can end it: a host's
    // events reach other nodes only by frames over its link, and its
    // flows' ends share the flow log, whose last acknowledgement stops the
    // run (HostsMayBatch). A collective's or a trace's hosts start each
    // other's sends at once: they stay in the global order.
    if (!m_engine && !m_traceRunner && !m_qps.empty())
    {
        for (uint32_t h = 0; h < m_topo->GetNHosts(); ++h)
        {
            sim->SetBatchedContext(m_topo->GetHostNode(h)->GetId(), true);
        }
        m_unreceived = 0;
        sim->SetWindowGuard(MakeCallback(&ScenarioRunner::HostsMayBatch, this));
    }
}

bool
ScenarioRunner::HostsMayBatch(Time /* end */)
{
    // The run stops at the last flow's acknowledgement (MaybeStop), and a
    // flow is acknowledged (RdmaQueuePair's send completion, cumulative)
    // only after its receiver has all of it in order (the receive
    // completion, FlowLog::Received). A flow not wholly received at a
    // round's start T gets its last byte at T or later, and the
    // acknowledgement sent then reaches the sender at least one link delay
    // later (host to switch; two on any fabric with switches): at least
    // the lookahead, the round's width, so after the round's end. So while
    // some flow is not wholly received (not started, its data not all
    // sent, or still in the fabric), no host's event of the round stops
    // the run. A flow received stays so (a flows workload posts each flow
    // once). The path monitor, once idle, restarts at the next frame with
    // an event of no context, which a batched host may not schedule.
    if (m_monitor && m_monitor->GetMonitor()->IsIdle())
    {
        return false;
    }
    const std::vector<FlowLog::Flow>& flows = m_log.GetFlows();
    while (m_unreceived < flows.size() && flows[m_unreceived].received)
    {
        ++m_unreceived;
    }
    return m_unreceived < flows.size();
}

void
ScenarioRunner::MaybeStop()
{
    if (m_distributed)
    {
        return; // LocalFlowEnd; ns-3's engine ends the run
    }
    // The run ends when the workload is done and every flow acknowledged.
    if (m_workloadDone && m_log.GetOutstanding() == 0)
    {
        Simulator::Stop();
    }
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
        if (!m_log.GetFlows()[s.id].posted || Simulator::Now() < m_log.GetFlows()[s.id].start)
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
    if (m_progress)
    {
        m_progress->Poll(); // redraws about once a second of wall time
    }
    if (!m_distributed || m_localPending > 0)
    {
        Simulator::Schedule(m_cfg.trace.interval, &ScenarioRunner::Sample, this);
    }
}

void
ScenarioRunner::Run()
{
    NS_ABORT_MSG_UNLESS(m_built && !m_ran, "ScenarioRunner::Run: Build() once, then Run() once");
    m_ran = true;
    if (m_distributed)
    {
        // No global stop (see m_distributed); no stall detector either: a
        // rank sees only its own switches' pauses.
        if (m_localPending > 0)
        {
            Simulator::Stop(m_cfg.stop);
            Simulator::Schedule(Time(0), &ScenarioRunner::Sample, this);
        }
    }
    else if (!m_log.GetFlows().empty() || m_engine || m_traceRunner)
    {
        Simulator::Stop(m_cfg.stop);
        Simulator::Schedule(Time(0), &ScenarioRunner::Sample, this);
        if (m_cfg.stallTimeout.IsStrictlyPositive())
        {
            m_stall = std::make_unique<StallDetector>(m_topo, m_cfg.stallTimeout);
            m_stall->Start(Callback<void>([]() { Simulator::Stop(); }));
        }
    }
    if (m_progress)
    {
        m_progress->Start(m_cfg.stop, [this]() { return DoneFraction(); });
    }
    EnableWindows();
    const auto t0 = std::chrono::steady_clock::now();
    Simulator::Run();
    const auto t1 = std::chrono::steady_clock::now();
    m_totals.windowed =
        FabricSimulatorImpl::Current() && FabricSimulatorImpl::Current()->IsWindowed();
    m_totals.hostRounds =
        FabricSimulatorImpl::Current() ? FabricSimulatorImpl::Current()->GetGuardedRounds() : 0;
    if (m_traceRunner)
    {
        m_traceRunner->ThrowIfFailed(); // a trace that cannot go on stopped the run
    }
    if (m_progress)
    {
        m_progress->Finish();
    }
    m_totals.simWallS = std::chrono::duration<double>(t1 - t0).count();
    // On several ranks, the end of this rank's part of the work.
    m_endTime = m_distributed && m_localPending == 0 ? m_localDone : Simulator::Now();
    m_totals.simTimeS = m_endTime.GetSeconds();
    m_totals.events = Simulator::GetEventCount();
    if (m_engine)
    {
        m_engine->SetUpRemaining(); // per-rank: every process lists every collective
    }
    Collect();
    if (m_monitor)
    {
        m_monitor->GetMonitor()->Finish();
        if (m_distributed)
        {
            GatherMonitor();
        }
    }
    if (m_monitor) // on several ranks, rank 0's only
    {
        // paths.csv: flows whose first frames start together in flows.csv's order.
        auto rows = std::make_shared<std::unordered_map<uint64_t, uint64_t>>();
        const auto& flows = m_log.GetFlows();
        for (uint64_t i = 0; i < flows.size(); ++i)
        {
            rows->try_emplace(RoceFlowClassifier::Key(flows[i].src, flows[i].dst, flows[i].srcPort),
                              i);
        }
        m_monitor->SetFlowOrder([rows](const RoceFlowClassifier::Tuple& t) {
            const auto it = rows->find(RoceFlowClassifier::Key(t.src, t.dst, t.srcPort));
            return it == rows->end() ? UINT64_MAX : it->second;
        });
        if (m_linkEvents)
        {
            for (const LinkEvents::Record& r : m_linkEvents->GetRecords())
            {
                m_monitor->AddTimeMark(r.at,
                                       std::to_string(r.nodeA) + "-" + std::to_string(r.nodeB) +
                                           (r.up ? " up " : " down ") + RateToText(r.rate));
            }
        }
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
ScenarioRunner::SetRankGather(RankGather gather)
{
    m_gather = std::move(gather);
}

void
ScenarioRunner::GatherMonitor()
{
    // Each rank's monitor saw its own ports only; rank 0 merges them all
    // (PathMonitor::Export, Absorb) and writes the files with the usual code.
    Ptr<PathMonitor> monitor = m_monitor->GetMonitor();
    const std::vector<std::string> all = m_gather(monitor->Export(m_endTime));
    const uint32_t rank = Simulator::GetSystemId();
    if (rank == 0)
    {
        monitor->Absorb(all, rank);
    }
    else
    {
        m_monitor.reset(); // rank 0 writes the monitor's files
    }
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
        t.outOfOrder += c.outOfOrder;
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
            // Frames lost on a dead link, switch ports and host NICs alike.
            t.drops[FabricSwitch::DROP_LINK_DOWN] += c.linkDownDrops;
            t.pfcPauseFrames += c.pfcPauseTx;
            t.pfcResumeFrames += c.pfcTx - c.pfcPauseTx;
            t.packetHops += c.txFrames + c.pfcTx;
        }
    }
}

int
RunScenarioFile(const std::string& path,
                const std::string& outDir,
                const std::vector<std::string>& sets,
                RunProgress* progress,
                const RankGather& gather)
{
    std::string out = outDir;
    try
    {
        const auto t0 = std::chrono::steady_clock::now();
        if (progress)
        {
            progress->Phase("reading " + path);
        }
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
        run.SetProgress(progress);
        run.SetRankGather(gather);
        run.AddSetupWallTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        run.Build();
        for (const std::string& w : run.GetWarnings())
        {
            std::cerr << "warning: " << path << ": " << w << "\n";
        }
        run.Run();
        if (progress)
        {
            progress->Phase("writing " + out + "/");
        }
        run.WriteOutputs(out);
        std::cout << run.ConsoleSummary() << "  results in " << out << "/\n";
        return run.GetExitCode();
    }
    catch (const ScenarioError& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return ExitCode::kBadInput;
    }
    catch (const TraceError& e) // a trace that breaks per-rank order as it runs
    {
        // Named as the reader's errors are (trace-workload-scenario.cc).
        std::cerr << "error: " << path << ": workload: " << e.what() << "\n";
        return ExitCode::kBadInput;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return ExitCode::kFailure;
    }
}

} // namespace ns3
