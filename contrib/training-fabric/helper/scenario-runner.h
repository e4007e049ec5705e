/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Runs a scenario file: builds the fabric, injects the workload, simulates,
 * and writes summary.json and flows.csv.
 */
#ifndef SCENARIO_RUNNER_H
#define SCENARIO_RUNNER_H

#include "ns3/fabric-switch.h"
#include "ns3/flow-log.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/run-control.h"
#include "ns3/scenario-config.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class CollectiveEngine;
class TraceRunner;
class FabricTopology;
class PathMonitor;
class LinkEvents;
class PathMonitorHelper;
class RdmaQueuePair;
class RunProgress;

/**
 * Gathers one byte string from every MPI rank to rank 0: rank 0 gets every
 * rank's, in rank order, the others nothing. A collective call: every rank
 * makes it. tf-run --mpi's is an MPI_Gatherv (mpi/rank-gather.h); the
 * runner needs one for the path monitor on several ranks.
 */
using RankGather = std::function<std::vector<std::string>(const std::string& mine)>;

/**
 * \ingroup training-fabric
 * \brief One run of a ScenarioConfig.
 *
 * \code
 *   ScenarioConfig cfg = LoadScenarioFile("examples/incast-8to1.json", {});
 *   ScenarioRunner run(cfg);
 *   run.Build();                 // throws ScenarioError on an impossible fabric
 *   run.Run();                   // until all flows complete, or cfg.stop
 *   run.WriteOutputs("results/incast-8to1");
 * \endcode
 *
 * The runner owns the simulation: Run() calls Simulator::Destroy() at the
 * end, so one process may run several scenarios one after another.
 */
class ScenarioRunner
{
  public:
    /**
     * \param cfg the scenario
     * \param outDir where pcap files go when the scenario asks for them
     *        (WriteOutputs takes its own directory)
     */
    explicit ScenarioRunner(const ScenarioConfig& cfg, const std::string& outDir = ".");
    ~ScenarioRunner();

    /// Report set-up phases and the run's progress there (null: silent, the
    /// default). Outputs are the same either way.
    void SetProgress(RunProgress* progress);
    /// On several MPI ranks, gather the ranks' path monitors to rank 0 with
    /// \p gather (call before Build). Rank 0 then writes the monitor's files
    /// for the whole fabric, the other ranks none.
    void SetRankGather(RankGather gather);
    /// Build topology, routing and workload. Throws ScenarioError.
    void Build();
    /// Simulate. Call once, after Build().
    void Run();

    /// \return how Run() ended
    RunOutcome GetOutcome() const;
    /// \return tf-run's exit code for this run (ExitCodeFor)
    int GetExitCode() const;
    /**
     * Count \p seconds of wall time spent before the runner existed (reading
     * the scenario and its traces) in the set-up time summary.json reports.
     */
    void AddSetupWallTime(double seconds);

    /// \return summary.json text (deterministic except the wall_s line)
    std::string SummaryJson() const;
    /// \return flows.csv text (deterministic)
    std::string FlowsCsv() const;
    /// \return cc_trace.csv text: per traced flow and sample, rate, window, RTT, alpha
    std::string CcTraceCsv() const;
    /// \return collectives.csv text (collective workloads), else empty
    std::string CollectivesCsv() const;
    /**
     * \return fct_by_size.csv text: the slowdown of the flows received, by
     * size (SlowdownBySize, 20 buckets); with \p backgroundOnly, of the
     * `background` flows only (fct_by_size_background.csv)
     */
    std::string FctBySizeCsv(bool backgroundOnly = false) const;
    /**
     * Write summary.json, flows.csv, fct_by_size.csv (and
     * fct_by_size_background.csv with a background) and the resolved
     * scenario.json to \p dir, and the other outputs the scenario asks for.
     */
    void WriteOutputs(const std::string& dir) const;
    /// \return a few human-readable lines for the console
    std::string ConsoleSummary() const;

    /// Every flow: the flows workload's, and every message collectives and traces posted.
    const std::vector<FlowLog::Flow>& GetFlows() const;
    const ScenarioConfig& GetConfig() const;
    /// \return the path monitor (null unless the scenario enables it)
    Ptr<PathMonitor> GetMonitor() const;
    /// \return the path monitor's helper, which writes its files (null unless enabled)
    const PathMonitorHelper* GetMonitorHelper() const;
    /// \return the fabric after Build() (null before), to add hooks or flows
    Ptr<FabricTopology> GetTopology() const;

    /// Fabric-wide counters gathered at the end of Run().
    struct Totals
    {
        double simTimeS{0};
        double setupWallS{0};     //!< reading inputs (AddSetupWallTime) and Build()
        double simWallS{0};       //!< Simulator::Run()
        uint64_t peakRssBytes{0}; //!< of the process, at the end of Run()
        uint64_t events{0};
        uint64_t flowsCompleted{0};
        uint64_t bytesSent{0};      //!< payload bytes of all flows (posted)
        uint64_t bytesDelivered{0}; //!< in-order payload bytes accepted by receivers
        uint64_t bytesAcked{0};     //!< payload bytes acknowledged at senders
        uint64_t dataPackets{0};    //!< data packets sent by NICs (retransmissions included)
        uint64_t retransmits{0};
        uint64_t timeouts{0};
        uint64_t outOfOrder{0}; //!< data packets that arrived beyond the expected PSN
        uint64_t drops[FabricSwitch::DROP_REASON_COUNT]{}; //!< by FabricSwitch::DropReason
        uint64_t pfcPauseFrames{0};  //!< PFC frames with a non-zero timer (switches and NICs)
        uint64_t pfcResumeFrames{0}; //!< PFC frames with timer 0
        uint64_t pausedEpisodes{0};  //!< XOFF transitions at switch ingresses
        uint64_t ecnMarked{0};
        uint64_t maxQueueBytes{0};  //!< largest egress queue of any switch port
        uint64_t maxBufferBytes{0}; //!< largest occupancy of any switch buffer
        uint64_t packetHops{0};     //!< data and control frames transmitted by all devices
        bool windowed{false}; //!< the run used lookahead windows (`windows`; not in summary.json)
        /// Rounds of the lookahead windows in which the hosts ran batched too
        /// (a flows workload, while no flow could end it; not in summary.json)
        uint64_t hostRounds{0};
    };

    const Totals& GetTotals() const;
    /// \return what Build() found doubtful but allowed (one line each; also in summary.json)
    const std::vector<std::string>& GetWarnings() const;

  private:
    void Sample();
    void StartCollective();
    void CollectiveDone(uint32_t id);
    void WorkloadDone();
    void MaybeStop();
    /// Under FabricSimulatorImpl, with `windows`: switches' events in lookahead
    /// windows, and hosts' while HostsMayBatch.
    void EnableWindows();
    /// The window guard for the hosts: true while no flow can be acknowledged
    /// completely by \p end (some flow is not yet wholly received)
    /// and the path monitor (if any) samples.
    bool HostsMayBatch(Time end);
    void Collect();
    /// \return whether every flow, collective and rank has finished
    bool AllDone() const;
    /// Share of the workload done for the progress line, or -1 if unknown.
    double DoneFraction() const;
    void Phase(const std::string& what);

    ScenarioConfig m_cfg;
    std::string m_outDir;
    std::unique_ptr<CollectiveEngine> m_engine;
    std::unique_ptr<TraceRunner> m_traceRunner;
    std::unique_ptr<StallDetector> m_stall;
    RunOutcome m_outcome{RunOutcome::STOP_REACHED};
    Time m_endTime; //!< simulated time when Run() ended
    std::unique_ptr<PathMonitorHelper> m_monitor;
    Ptr<LinkEvents> m_linkEvents; //!< the scenario's `events` (null: none)
    uint32_t m_iteration{0};
    uint32_t m_phase{0};
    Ptr<FabricTopology> m_topo;
    FlowLog m_log;
    std::vector<Ptr<RdmaQueuePair>> m_qps; //!< the flows workload's, by flow
    std::size_t m_unreceived{0};           //!< HostsMayBatch: the flows before it are received
    bool m_workloadDone{false};            //!< stop once every flow is acknowledged
    Totals m_totals;
    std::vector<std::string> m_warnings;   //!< from Build()'s checks
    std::vector<std::string> m_pauseCycle; //!< a PFC deadlock cycle, if the run stalled
    std::string m_ccTrace;                 //!< cc_trace.csv rows
    double m_queueSampleSum{0};            //!< sum of sampled largest switch queues
    uint64_t m_queueSamples{0};
    uint64_t m_cnpSent{0};
    // On several MPI ranks (ranks > 1) no rank can stop the others: a rank
    // counts the flow ends it sees (acks of its hosts' flows, receptions at
    // its hosts), and once they are all in it stops sampling; the run ends
    // when every rank's queue is empty or at the scenario's stop.
    bool m_distributed{false};
    uint64_t m_localPending{0}; //!< flow ends this rank still waits for
    Time m_localDone;           //!< when the last of them came
    void LocalFlowEnd();
    RankGather m_gather; //!< SetRankGather
    /// Rank 0: absorb every rank's monitor; the others: give theirs, keep none.
    void GatherMonitor();
    bool m_built{false};
    bool m_ran{false};
    RunProgress* m_progress{nullptr};
};

/**
 * What `tf-run SCENARIO.json [--out DIR] [--set k=v ...]` does once its
 * command line is read (tools/tf-run.cc): load the scenario with \p sets
 * applied, check the output directory (\p outDir, or results/<name> when
 * empty), build, run, write the outputs; warnings and errors on stderr, the
 * console summary on stdout; with \p progress, the set-up phases and the
 * run's progress line on it. Under MPI, \p gather is the ranks' (SetRankGather).
 * \return the process exit code (ExitCode: 0 completed, 1 failure, 2 bad
 *         input, 3 stop reached with work unfinished, 4 stalled)
 */
int RunScenarioFile(const std::string& path,
                    const std::string& outDir,
                    const std::vector<std::string>& sets,
                    RunProgress* progress = nullptr,
                    const RankGather& gather = nullptr);

} // namespace ns3

#endif /* SCENARIO_RUNNER_H */
