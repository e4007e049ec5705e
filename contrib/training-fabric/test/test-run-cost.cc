/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The cost estimate made before a run and the refusals it leads to: the
 * path monitor's series, the periodic samples, cc_trace.csv rows, the bytes
 * the workload moves, collective plan sizes, and PFC headroom. Each limit is
 * checked on both sides: the last setting under it runs, the first over it
 * is one error line naming the key and the limit. Builds small fabrics, runs
 * nothing.
 */
#include "ns3/collective-plan.h"
#include "ns3/fabric-topology.h"
#include "ns3/run-cost.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// The incast example: 2 leaves x 8 hosts, 2 spines, stop 100 ms. Links: 16
// host links + 2 x 2 leaf-spine links = 20, so 40 link directions; switch
// ports: 2 leaves x (8 + 2) + 2 spines x 2 = 24.
const char* kIncastFile = "examples/incast-8to1.json";

/// The ScenarioError of loading and building the incast example with \p sets ("" if none).
std::string
BuildError(const std::vector<std::string>& sets, std::vector<std::string>* warnings = nullptr)
{
    try
    {
        ScenarioRunner run(LoadScenarioFile(kIncastFile, sets));
        run.Build();
        if (warnings)
        {
            *warnings = run.GetWarnings();
        }
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

/// Whether \p error names \p key and contains \p text.
::testing::AssertionResult
Names(const std::string& error, const std::string& key, const std::string& text)
{
    if (error.rfind(std::string(kIncastFile) + ": " + key + ": ", 0) == 0 &&
        error.find(text) != std::string::npos && error.find('\n') == std::string::npos)
    {
        return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure() << "got: " << error;
}

} // namespace

TEST(RunCost, EstimateCountsTheFabricAndTheRun)
{
    ScenarioRunner run(LoadScenarioFile(kIncastFile, {"monitor={\"bin\": \"10us\"}"}));
    run.Build();
    const RunCost c = EstimateRunCost(run.GetConfig(), run.GetTopology());
    EXPECT_EQ(c.linkDirections, 40u);
    EXPECT_EQ(c.switchPorts, 24u);
    // 100 ms / 10 us = 10,000 bins x 40 directions x 40 B.
    EXPECT_EQ(c.monitorBins, 10000u);
    EXPECT_EQ(c.monitorBytes, 10000u * 40u * 40u);
    // Samples at 0, 10 us, ..., 100 ms: 10,001, each visiting 24 ports.
    EXPECT_EQ(c.samples, 10001u);
    EXPECT_EQ(c.sampleVisits, 10001u * 24u);
    EXPECT_EQ(c.ccTraceRows, 0u);
    // 8 senders x 1 MB.
    EXPECT_EQ(c.workloadBytes, 8000000u);
    // 3 x 4178 B frames + 84 B PFC frame + 2 x 12.5e9 B/s x 1 us = 37,618 B.
    EXPECT_EQ(c.requiredHeadroom, 37618u);
    EXPECT_EQ(c.headroomPort, "100Gbps port with 1us cables");
}

TEST(RunCost, MonitorSeriesAreBoundedByMemory)
{
    // 1 GiB / (40 directions x 40 B) = 671,088 bins: 1 us bins make 100,000
    // (160 MB), 100 ns bins 1,000,000 (1.6 GB).
    EXPECT_EQ(BuildError({"monitor={\"bin\": \"1us\"}"}), "");
    EXPECT_TRUE(Names(BuildError({"monitor={\"bin\": \"100ns\"}"}),
                      "monitor.bin",
                      "100ns bins until stop (100ms) on 40 link directions would hold up to "
                      "1600000000 bytes of per-link series (limit 1073741824)"));
    // Below the monitor's finest bin it is a scenario error, not an ns-3 abort.
    EXPECT_TRUE(Names(BuildError({"monitor={\"bin\": \"999ps\"}"}),
                      "monitor.bin",
                      "expected at least 1ns"));
}

TEST(RunCost, SamplingIsBoundedByVisitsAndRows)
{
    // Visits: (100 ms / interval + 1) x 24 ports <= 10^10. 1 ns: 2.4 x 10^9;
    // 100 ps: 2.4 x 10^10.
    EXPECT_EQ(BuildError({"trace.interval=\"1ns\""}), "");
    EXPECT_TRUE(Names(BuildError({"trace.interval=\"100ps\""}),
                      "trace.interval",
                      "takes 1000000001 samples of 24 switch ports and 0 traced flows, "
                      "24000000024 visits (limit 10000000000)"));
    // Rows: samples x 8 traced flows <= 1.6 x 10^7. 100 ns: 8,000,008 rows;
    // 50 ns: 16,000,008.
    const std::string all = "trace.flows=[0, 1, 2, 3, 4, 5, 6, 7]";
    EXPECT_EQ(BuildError({all, "trace.interval=\"100ns\""}), "");
    EXPECT_TRUE(Names(BuildError({all, "trace.interval=\"50ns\""}),
                      "trace.flows",
                      "makes 16000008 rows of cc_trace.csv for 8 flows (limit 16000000)"));
}

TEST(RunCost, WorkloadBytesStayInsideTheCounters)
{
    // A 16-rank all-reduce of 10^15 B per rank: at most 3 x 10^15 x 16 =
    // 4.8 x 10^16 B per iteration; 20 iterations are 9.6 x 10^17 (under
    // 10^18), 21 are 1.008 x 10^18.
    const std::string coll = "workload={\"type\": \"collective\", \"algorithm\": "
                             "\"double-binary-tree\", \"bytes\": 1000000000000000, "
                             "\"iterations\": ";
    EXPECT_EQ(BuildError({coll + "20}"}), "");
    EXPECT_TRUE(Names(BuildError({coll + "21}"}),
                      "workload",
                      "it would post up to 1008000000000000000 payload bytes in all (limit "
                      "1000000000000000000"));
}

TEST(RunCost, PlanSizeIsBoundedBeforePlanning)
{
    // Ring all-reduce: 2 N (N - 1) transfers per chunk and channel.
    CollectiveSpec ring;
    ring.ranks = 16;
    ring.bytes = 1 << 20;
    EXPECT_EQ(PlanTransfersBound(ring), 2u * 16 * 15);
    EXPECT_EQ(PlanCollective(ring).transfers.size(), 2u * 16 * 15); // the bound is exact here
    // Every algorithm's plan stays under its bound.
    for (const char* algorithm : {"direct", "halving-doubling", "double-binary-tree"})
    {
        for (uint32_t n : {2u, 5u, 16u, 17u})
        {
            CollectiveSpec s = ring;
            s.algorithm = algorithm;
            s.ranks = n;
            s.chunks = 3;
            s.channels = 2;
            EXPECT_LE(PlanCollective(s).transfers.size(), PlanTransfersBound(s))
                << algorithm << " " << n;
        }
    }
    // 2237 ranks: 2 x 2237 x 2236 = 10,003,864 transfers, over 10^7; 2236
    // ranks: 9,994,920. Refused before a byte is planned.
    ring.ranks = 2236;
    EXPECT_EQ(CheckPlanSize(ring), "");
    ring.ranks = 2237;
    EXPECT_EQ(CheckPlanSize(ring).rfind("all-reduce/ring on 2237 ranks with 1 chunks and 1 "
                                        "channels would plan up to 10003864 transfers (limit "
                                        "10000000)",
                                        0),
              0u)
        << CheckPlanSize(ring);
    // A 65,536-rank ring (8.6 x 10^9 transfers) used to be planned, and fail.
    try
    {
        ParseScenarioText(R"({"topology": {"leaves": 256, "hosts_per_leaf": 256},
                             "workload": {"type": "collective", "bytes": "1MB"}})",
                          {},
                          "big.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("big.json: workload.algorithm: all-reduce/ring on "
                                             "65536 ranks"),
                  std::string::npos)
            << e.what();
    }
}

TEST(RunCost, HeadroomBelowWhatPfcNeedsIsRefusedUnlessAllowed)
{
    // 37,618 B is what a 100 Gb/s port with 1 us cables needs (see above).
    EXPECT_EQ(BuildError({"switch.headroom=37618"}), "");
    EXPECT_TRUE(Names(BuildError({"switch.headroom=37617"}),
                      "switch.headroom",
                      "37617 B is below the 37618 B that PFC needs at a 100Gbps port with 1us "
                      "cables"));
    // Allowed: a warning instead, and none without PFC (no headroom then).
    std::vector<std::string> warnings;
    EXPECT_EQ(BuildError({"switch.headroom=8000", "switch.allow_small_headroom=true"}, &warnings),
              "");
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].rfind("switch.headroom: 8000 B is below the 37618 B", 0), 0u);
    EXPECT_EQ(BuildError({"switch.headroom=8000", "switch.pfc=false"}, &warnings), "");
    EXPECT_TRUE(warnings.empty());
}
