/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * How runs end: a PFC deadlock stops the run when it stalls (not at stop),
 * every unfinished run has a non-zero exit code unless it is a fixed-length
 * run, outputs are checked before the simulation, and summary.json splits
 * the wall time and reports the peak RSS.
 */
#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/fabric-topology.h"
#include "ns3/run-control.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/**
 * A 4-vertex ring with wrap and dimension-order routing, every NPU sending to
 * the one two hops away: each link's buffer waits for the next one, and with
 * a 400 KB buffer PFC closes the cycle (test-topologies shows the cycle is
 * there by 5 ms). The stop is 50 ms: only the stall detector ends it earlier.
 */
const char* kRing = R"({
    "name": "ring-deadlock",
    "topology": {"type": "torus", "dims": [4], "wrap": true,
                 "link": {"rate": "100Gbps", "delay": "1us"},
                 "host_link": {"rate": "400Gbps", "delay": "100ns"}},
    "switch": {"buffer": "400KB"},
    "routing": {"mode": "dor"},
    "workload": {"type": "flows", "flows": [
        {"src": 0, "dst": 2, "bytes": "20MB"}, {"src": 1, "dst": 3, "bytes": "20MB"},
        {"src": 2, "dst": 0, "bytes": "20MB"}, {"src": 3, "dst": 1, "bytes": "20MB"}]},
    "stop": "50ms"})";

const char* kIncastFile = "examples/incast-8to1.json";

struct RunResult
{
    RunOutcome outcome;
    int exitCode;
    nlohmann::json summary;
};

RunResult
RunText(const std::string& text, const std::vector<std::string>& sets)
{
    ScenarioRunner run(ParseScenarioText(text, sets, "run.json"));
    run.Build();
    run.Run();
    return RunResult{run.GetOutcome(), run.GetExitCode(), nlohmann::json::parse(run.SummaryJson())};
}

RunResult
RunFile(const std::string& path, const std::vector<std::string>& sets)
{
    ScenarioRunner run(LoadScenarioFile(path, sets));
    run.Build();
    run.Run();
    return RunResult{run.GetOutcome(), run.GetExitCode(), nlohmann::json::parse(run.SummaryJson())};
}

/// tf-run's exit code and stderr for scenario \p path, `--out` \p out and `--set` \p sets.
int
CommandLine(const std::string& path,
            const std::string& out,
            const std::vector<std::string>& sets,
            std::string& err)
{
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const int rc = RunScenarioFile(path, out, sets);
    err = ::testing::internal::GetCapturedStderr();
    ::testing::internal::GetCapturedStdout();
    return rc;
}

} // namespace

TEST(StallDetection, ADeadlockEndsTheRunWhenItStalls)
{
    // Checks every 1 ms / 4 = 250 us; the cycle first seen at check time T
    // is declared stalled at the check T + 1 ms, exactly, and the run stops
    // there. T is after 0 and, as the cycle exists by 5 ms, at most one
    // check period later: 1 ms < end <= 6.25 ms, not 50 ms.
    const RunResult r = RunText(kRing, {"stall_timeout=\"1ms\""});
    EXPECT_EQ(r.outcome, RunOutcome::STALLED);
    EXPECT_EQ(r.exitCode, 4);
    const double end = r.summary["sim_time_s"].get<double>();
    EXPECT_GT(end, 0.001);
    EXPECT_LE(end, 0.00625);
    // A multiple of the check period: the stall is declared at a check.
    EXPECT_NEAR(std::fmod(end, 0.00025), 0.0, 1e-12) << end;
    EXPECT_EQ(r.summary["outcome"], "stalled");
    const auto& u = r.summary["unfinished"];
    EXPECT_EQ(u["flows_unfinished"], 4);
    EXPECT_EQ(u["reason"],
              "stalled: no frame left any queue of a PFC pause cycle for stall_timeout (1ms)");
    // The four ring links, each the next one's upstream, in class 3.
    ASSERT_EQ(u["pfc_pause_cycle"].size(), 4u);
    for (const auto& q : u["pfc_pause_cycle"])
    {
        EXPECT_EQ(q.get<std::string>().substr(q.get<std::string>().size() - 2), ":3") << q;
    }
}

TEST(StallDetection, ACycleThatStillLetsFramesThroughIsNoStall)
{
    // The same ring, but every 100 us from 300 us (the cycle has formed by
    // 250 us: a 1 ms detector sees it at its first check) one queue of the
    // cycle is resumed (PFC timer 0 from its peer): it sends frames until
    // the peer pauses it again. The same cycle is there at the next checks,
    // but its queue was not paused for the whole interval: frames left, so
    // it is no stall, and the frames let through slowly drain the ring: the
    // four flows complete. A detector that looked at the cycle alone would
    // stop the run at 2.5 ms (2 ms after the first check that saw it).
    ScenarioRunner run(
        ParseScenarioText(kRing, {"stall_timeout=\"2ms\"", "stop=\"20ms\""}, "r.json"));
    run.Build();
    Ptr<FabricTopology> topo = run.GetTopology();
    std::vector<FabricTopology::SwitchQueue> cycle;
    Simulator::Schedule(MicroSeconds(300), [&]() {
        cycle = topo->FindPauseCycleQueues();
        if (cycle.empty())
        {
            return;
        }
        const FabricTopology::Endpoint peer = topo->GetSwitchPortPeer(cycle[0].sw, cycle[0].port);
        Ptr<FabricNetDevice> dev = topo->GetSwitch(peer.index)->GetPort(peer.port);
        for (int k = 0; k < 190; ++k) // until 0.3 ms + 18.9 ms, before stop
        {
            Simulator::Schedule(MicroSeconds(100 * k),
                                &FabricNetDevice::SendPfc,
                                dev,
                                cycle[0].cls,
                                0);
        }
    });
    run.Run();
    ASSERT_FALSE(cycle.empty()) << "no pause cycle at 300 us: the premise of the test";
    EXPECT_EQ(run.GetOutcome(), RunOutcome::COMPLETED);
    EXPECT_EQ(run.GetExitCode(), 0);
}

TEST(StallDetection, WithoutDetectionTheRunLastsUntilStop)
{
    // stall_timeout 0 turns the detector off: the run ends at stop (20 ms),
    // the end-of-run check still reports the cycle, and the exit code says
    // that stop came first.
    const RunResult r = RunText(kRing, {"stall_timeout=0", "stop=\"20ms\""});
    EXPECT_EQ(r.outcome, RunOutcome::STOP_REACHED);
    EXPECT_EQ(r.exitCode, 3);
    EXPECT_DOUBLE_EQ(r.summary["sim_time_s"].get<double>(), 0.02);
    EXPECT_EQ(r.summary["unfinished"]["reason"], "stop time reached");
    EXPECT_EQ(r.summary["unfinished"]["pfc_pause_cycle"].size(), 4u);
}

TEST(StallDetection, PausesWithoutACycleAreNoStall)
{
    // The incast pauses its senders' uplinks (PFC frames are sent) but
    // up-down routing on a leaf-spine has no cyclic buffer dependency: even
    // a 1 us stall_timeout (checks every 250 ns) must not end it early.
    const RunResult r = RunFile(kIncastFile, {"stall_timeout=\"1us\""});
    EXPECT_EQ(r.outcome, RunOutcome::COMPLETED);
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_GT(r.summary["pfc_pause_frames"].get<uint64_t>(), 0u);
    EXPECT_EQ(r.summary["flows_completed"], 8);
    EXPECT_FALSE(r.summary.contains("unfinished"));
}

TEST(ExitCodes, UnfinishedRunsFailUnlessFixedLength)
{
    // The incast needs 0.66 ms; a 100 us stop leaves all 8 flows unfinished.
    const RunResult stopped = RunFile(kIncastFile, {"stop=\"100us\""});
    EXPECT_EQ(stopped.outcome, RunOutcome::STOP_REACHED);
    EXPECT_EQ(stopped.exitCode, 3);
    EXPECT_EQ(stopped.summary["outcome"], "stop_reached");
    const RunResult fixed = RunFile(kIncastFile, {"stop=\"100us\"", "fixed_length=true"});
    EXPECT_EQ(fixed.outcome, RunOutcome::STOP_REACHED);
    EXPECT_EQ(fixed.exitCode, 0);
    EXPECT_EQ(RunFile(kIncastFile, {}).exitCode, 0);
    // The same through tf-run's entry point.
    std::string err;
    const std::string out = ::testing::TempDir() + "exit-codes";
    EXPECT_EQ(CommandLine(kIncastFile, out, {"stop=\"100us\""}, err), 3);
    EXPECT_EQ(CommandLine(kIncastFile, out, {}, err), 0);
}

TEST(ExitCodes, UnfinishedCollectivesReportTheEndOfTheRun)
{
    // A 64 MB ring all-reduce on 16 hosts cannot finish in 100 us: the
    // ranks' finish is the end of the run (it used to read 0, the clock of
    // a simulator created after the run's was destroyed).
    const RunResult r = RunFile(kIncastFile,
                                {"workload={\"type\": \"collective\", "
                                 "\"phases\": [{\"bytes\": \"64MB\"}, {\"bytes\": \"1MB\"}]}",
                                 "stop=\"100us\""});
    EXPECT_EQ(r.exitCode, 3);
    // Two phases, one iteration: two collectives, none done.
    EXPECT_EQ(r.summary["unfinished"]["collectives_unfinished"], 2);
    for (const auto& rank : r.summary["ranks"])
    {
        EXPECT_DOUBLE_EQ(rank["finish_s"].get<double>(), 0.0001);
    }
}

TEST(Outputs, AreCheckedBeforeTheRun)
{
    std::string err;
    const std::string file = ::testing::TempDir() + "out-is-a-file";
    std::ofstream(file) << "x";
    EXPECT_EQ(CommandLine(kIncastFile, file, {}, err), 2);
    EXPECT_EQ(err, "error: --out " + file + ": it is a file, not a directory\n");
    EXPECT_EQ(CommandLine(kIncastFile, file + "/sub", {}, err), 2);
    EXPECT_EQ(err,
              "error: --out " + file + "/sub: cannot create the directory (Not a directory)\n");
    // A directory nobody may write in (whoever runs the test, root included).
    EXPECT_EQ(CommandLine(kIncastFile, "/proc/self", {}, err), 2);
    EXPECT_EQ(err.rfind("error: --out /proc/self: cannot write in the directory (", 0), 0u) << err;
    EXPECT_EQ(PrepareOutputDirectory(::testing::TempDir() + "new/nested/dir"), "");
}

TEST(Summary, WallTimeIsSplitAndPeakRssReported)
{
    const RunResult r = RunFile(kIncastFile, {});
    const double setup = r.summary["setup_wall_s"].get<double>();
    const double sim = r.summary["simulation_wall_s"].get<double>();
    EXPECT_GT(setup, 0.0);
    EXPECT_GT(sim, 0.0);
    // wall_s is their sum (each rounded to 9 significant digits).
    EXPECT_NEAR(r.summary["wall_s"].get<double>(), setup + sim, 1e-8 * (setup + sim));
    // ns-3 and the module alone take several MB; no test process reaches 64 GB.
    const uint64_t rss = r.summary["peak_rss_bytes"].get<uint64_t>();
    EXPECT_GT(rss, 4u << 20);
    EXPECT_LT(rss, 64ULL << 30);
    EXPECT_LE(rss, PeakRssBytes()); // a process's peak never falls
}
