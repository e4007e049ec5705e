/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The per-rank completion mode of collectives (workload.sync "rank"): the
 * plans' dependencies are arrivals at the waiting transfer's source (what
 * lets each MPI rank run its own hosts), and a rank moves on to its next
 * collective (or trace node) as soon as its own part is done, at times
 * derived from serialization and propagation.
 */
#include "ns3/collective-engine.h"
#include "ns3/collective-plan.h"
#include "ns3/fabric-topology.h"
#include "ns3/flow-log.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/text-trace.h"
#include "ns3/trace-runner.h"
#include "ns3/trace-workload.h"

#include <gtest/gtest.h>
#include <sstream>
#include <stdexcept>

using namespace ns3;

TEST(CollectiveSync, EveryDependencyArrivesAtTheWaitingTransfersSource)
{
    // Every algorithm x type x small group x channel/chunk split: a transfer
    // from rank r only waits for transfers that arrive at r (data received
    // before it is forwarded), so the MPI rank owning r sees all it waits for.
    uint32_t plans = 0;
    for (const char* type : {"all-reduce",
                             "reduce-scatter",
                             "all-gather",
                             "all-to-all",
                             "broadcast",
                             "reduce",
                             "barrier"})
    {
        for (const char* algo :
             {"ring", "direct", "halving-doubling", "double-binary-tree", "hierarchical"})
        {
            for (uint32_t n = 2; n <= 8; ++n)
            {
                for (uint32_t split : {1u, 2u, 3u})
                {
                    CollectiveSpec s;
                    s.type = type;
                    s.algorithm = algo;
                    s.bytes = 6007; // not a multiple of any piece count: uneven pieces
                    s.ranks = n;
                    s.channels = split;
                    s.chunks = 4 - split;
                    if (s.algorithm == "hierarchical")
                    {
                        s.dims =
                            n % 2 == 0 ? std::vector<uint32_t>{2, n / 2} : std::vector<uint32_t>{n};
                        s.dimAlgorithms = {n == 8 ? "halving-doubling" : "ring", "direct"};
                    }
                    CollectivePlan p;
                    try
                    {
                        p = PlanCollective(s);
                    }
                    catch (const std::invalid_argument&)
                    {
                        continue; // not a combination the algorithm does
                    }
                    ++plans;
                    for (const Transfer& t : p.transfers)
                    {
                        for (uint32_t d : t.deps)
                        {
                            ASSERT_EQ(p.transfers[d].dst, t.src)
                                << type << " " << algo << " n=" << n << " split " << split;
                        }
                    }
                }
            }
        }
    }
    // The combinations that exist, over 7 sizes x 3 splits (21 each):
    // all-reduce with all 5 algorithms (105), reduce-scatter and all-gather
    // with ring and direct (21 + 21 each) and halving-doubling on 2, 4, 8
    // ranks (9 each), all-to-all with direct (21), broadcast, reduce and
    // barrier with any algorithm name (105 each): 543. None was skipped.
    EXPECT_EQ(plans, 543u);
}

namespace
{
// Two hosts on one leaf, 100 Gb/s links of 1 us (LeafSpineHelper's
// defaults). A message of b <= 4096 B is one frame of b + 82 line bytes
// (preamble and gap 20, Ethernet 14 + FCS 4, IPv4 20, UDP 8, BTH 12,
// ICRC 4); it is stored and forwarded once by the leaf: it arrives
// 2 (b + 82) x 8 / 100e9 + 2 us after it is posted. Its ACK (86 line bytes)
// comes back 2 x 86 x 8 / 100e9 + 2 us later.
constexpr int64_t kPs = 1;

constexpr int64_t
ArrivalPs(int64_t b)
{
    return 2 * (b + 82) * 80 * kPs + 2000000; // 8 bits at 100 Gb/s: 80 ps
}

constexpr int64_t kAckPs = 2 * 86 * 80 + 2000000;

struct PerRankRun
{
    std::vector<CollectiveEngine::Record> records;
    std::vector<FlowLog::Flow> flows;
    bool allDone{false};
};

/// Two all-to-alls of 2001 B on hosts {0, 1} per rank; \p local: hosts this "process" owns.
PerRankRun
RunTwoAllToAlls(std::vector<bool> local)
{
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    Ptr<FabricTopology> topo = ls.Install();
    FlowLog log;
    CollectiveEngine engine(topo, 3, &log);
    CollectiveSpec a2a;
    a2a.type = "all-to-all";
    a2a.algorithm = "direct";
    a2a.bytes = 2001; // rank 0 sends 2001 / 2 = 1000 B to rank 1, rank 1 sends 1001 B to rank 0
    PerRankRun out;
    engine.PlanPerRank({a2a},
                       2,
                       {0, 1},
                       Callback<bool, uint32_t>([local](uint32_t h) { return bool(local[h]); }),
                       Callback<void>([&out]() { out.allDone = true; }));
    Simulator::Schedule(Time(0), &CollectiveEngine::StartPerRank, &engine);
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    engine.SetUpRemaining();
    out.records = engine.GetRecords();
    out.flows = log.GetFlows();
    log.ReleaseQps();
    Simulator::Destroy();
    return out;
}
} // namespace

TEST(CollectiveSync, EachRankMovesOnWhenItsOwnPartIsDone)
{
    const PerRankRun r = RunTwoAllToAlls({true, true});
    ASSERT_TRUE(r.allDone);
    ASSERT_EQ(r.records.size(), 2u);
    // Collective 0, both posted at 0. Rank 0's part: 1001 B arrive at
    // ArrivalPs(1001), its 1000 B are acknowledged at ArrivalPs(1000) +
    // kAckPs, the later. Rank 1's: its 1001 B acknowledged at
    // ArrivalPs(1001) + kAckPs, 160 ps later than rank 0's (one byte twice).
    const int64_t done0 = ArrivalPs(1000) + kAckPs; // 4,186.88 ns
    const int64_t done1 = ArrivalPs(1001) + kAckPs; // 4,187.04 ns
    EXPECT_EQ(r.records[0].start.GetPicoSeconds(), 0);
    EXPECT_EQ(r.records[0].finish.GetPicoSeconds(), done1); // the last rank's
    // Collective 1 starts on rank 0 at done0, before rank 1 finished
    // collective 0: no barrier. Its start is the first rank's.
    EXPECT_EQ(r.records[1].start.GetPicoSeconds(), done0);
    EXPECT_LT(r.records[1].start, r.records[0].finish);
    // Rank 1 posts at done1: rank 0's part ends with its ack at done0 +
    // ArrivalPs(1000) + kAckPs, rank 1's at done1 + ArrivalPs(1001) + kAckPs.
    EXPECT_EQ(r.records[1].finish.GetPicoSeconds(), done1 + ArrivalPs(1001) + kAckPs);
    EXPECT_TRUE(r.records[0].done && r.records[1].done);
    // Flows: collective 0's two transfers in plan order (rank 0's first),
    // then collective 1's, with the starts above.
    ASSERT_EQ(r.flows.size(), 4u);
    EXPECT_EQ(r.flows[2].src, 0u);
    EXPECT_EQ(r.flows[2].start.GetPicoSeconds(), done0);
    EXPECT_EQ(r.flows[3].start.GetPicoSeconds(), done1);
    EXPECT_EQ(r.flows[3].finish.GetPicoSeconds(), done1 + ArrivalPs(1001));
}

TEST(CollectiveSync, AProcessPostsOnlyItsOwnHostsTransfers)
{
    // As an MPI rank owning host 0 only: rank 0 posts, rank 1 (another
    // process's) does not, so rank 0 waits for 1001 B that never come.
    const PerRankRun r = RunTwoAllToAlls({true, false});
    EXPECT_FALSE(r.allDone);
    ASSERT_EQ(r.records.size(), 2u); // SetUpRemaining lists collective 1 too
    EXPECT_TRUE(r.records[0].started);
    EXPECT_FALSE(r.records[0].done);
    EXPECT_FALSE(r.records[1].started);
    ASSERT_EQ(r.flows.size(), 4u);
    EXPECT_TRUE(r.flows[0].posted && r.flows[0].received && r.flows[0].completed);
    EXPECT_FALSE(r.flows[1].posted);
    EXPECT_FALSE(r.flows[2].posted || r.flows[3].posted);
}

TEST(CollectiveSync, EmptyTransfersAreRefused)
{
    // 3 B over 2 channels x 2 chunks leave empty pieces; on several MPI ranks
    // an empty transfer would end at its destination at once.
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    Ptr<FabricTopology> topo = ls.Install();
    CollectiveEngine engine(topo);
    CollectiveSpec s;
    s.bytes = 3;
    s.channels = 2;
    s.chunks = 2;
    EXPECT_THROW(engine.PlanPerRank({s},
                                    1,
                                    {0, 1},
                                    Callback<bool, uint32_t>([](uint32_t) { return true; }),
                                    Callback<void>()),
                 std::invalid_argument);
    Simulator::Destroy();
}

TEST(CollectiveSync, ScenarioKeyRunsPerRankAndEndsWhenEveryRankIsDone)
{
    // The same two all-to-alls as above through a scenario file: 2001 B
    // between hosts 0 and 1 (one leaf of incast-8to1's fabric), twice. Rank 1
    // sends the extra byte both times, so rank 0 is done first and starts
    // collective 1 before collective 0's last rank finished.
    ScenarioConfig cfg = LoadScenarioFile(
        "examples/incast-8to1.json",
        {R"(workload={"type": "collective", "collective": "all-to-all", "algorithm": "direct", "bytes": 2001, "group": [0, 1], "iterations": 2, "sync": "rank"})"});
    EXPECT_EQ(cfg.workload.collective.sync, "rank");
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    EXPECT_EQ(run.GetOutcome(), RunOutcome::COMPLETED);
    std::istringstream in(run.CollectivesCsv());
    std::string line;
    std::getline(in, line); // header
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line))
    {
        rows.emplace_back();
        std::istringstream fields(line);
        for (std::string c; std::getline(fields, c, ',');)
        {
            rows.back().push_back(c);
        }
    }
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][12], "1");
    EXPECT_EQ(rows[1][12], "1");
    EXPECT_LT(std::stod(rows[1][6]), std::stod(rows[0][7])); // no barrier
    // Every transfer is a flow of its collective, posted and acknowledged.
    ASSERT_EQ(run.GetFlows().size(), 4u);
    for (const FlowLog::Flow& f : run.GetFlows())
    {
        EXPECT_TRUE(f.posted && f.received && f.completed);
    }
    // A bad value is one line naming the key.
    try
    {
        LoadScenarioFile(
            "examples/incast-8to1.json",
            {R"(workload={"type": "collective", "bytes": 2001, "group": [0, 1], "sync": "all"})"});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("workload.sync"), std::string::npos) << e.what();
    }
}

namespace
{
// Two ranks on the two hosts above: an all-to-all of 2001 B (rank 0 sends
// 1000 B, rank 1 1001 B), then 1 us of compute each; then rank 0 sends
// 500 B to rank 1, whose receive waits from the start.
const char* kTwoRankTrace = "rank 0\n"
                            "1: coll all-to-all 2001\n"
                            "2: comp 1 after 1\n"
                            "3: send 500 to 1 tag 7 after 2\n"
                            "rank 1\n"
                            "1: coll all-to-all 2001\n"
                            "2: comp 1 after 1\n"
                            "3: recv 500 from 0 tag 7\n";

struct TraceRun
{
    std::vector<TraceRunner::RankStats> ranks;
    std::vector<FlowLog::Flow> flows;
    bool done{false};
};

/// kTwoRankTrace; \p perRank: sync "rank", this process owning the hosts \p local.
TraceRun
RunTwoRankTrace(bool perRank, std::vector<bool> local = {true, true})
{
    std::vector<TraceGraph> g = ParseTextTrace(kTwoRankTrace, "inline.txt");
    ValidateWorkload(g, {});
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 2);
    Ptr<FabricTopology> topo = ls.Install();
    FlowLog log;
    TraceRunner run(topo, g, {}, {}, 3, &log);
    if (perRank)
    {
        run.SetPerRank(Callback<bool, uint32_t>([local](uint32_t h) { return bool(local[h]); }));
    }
    TraceRun out;
    Simulator::Schedule(Time(0), [&run, &out]() {
        run.Start(Callback<void>([&out]() { out.done = true; }));
    });
    Simulator::Stop(MilliSeconds(1));
    Simulator::Run();
    out.ranks = run.GetRanks();
    out.flows = log.GetFlows();
    log.ReleaseQps();
    Simulator::Destroy();
    return out;
}
} // namespace

TEST(CollectiveSync, TraceRanksCompleteTheirOwnPartOfACollective)
{
    const TraceRun r = RunTwoRankTrace(true);
    ASSERT_TRUE(r.done);
    // Node indices: 0 the all-to-all, 1 the compute, 2 the send / receive.
    // Rank 0's all-to-all is done when its 1000 B are acknowledged (its
    // 1001 B arrived earlier), rank 1's when its 1001 B are: 160 ps later.
    const int64_t done0 = ArrivalPs(1000) + kAckPs; // 4,186.88 ns
    const int64_t done1 = ArrivalPs(1001) + kAckPs; // 4,187.04 ns
    EXPECT_EQ(r.ranks[0].nodeFinish[0].GetPicoSeconds(), done0);
    EXPECT_EQ(r.ranks[1].nodeFinish[0].GetPicoSeconds(), done1);
    // Rank 0 moves on before rank 1's part of the collective is done.
    EXPECT_EQ(r.ranks[0].nodeStart[1].GetPicoSeconds(), done0);
    EXPECT_LT(r.ranks[0].nodeStart[1], r.ranks[1].nodeFinish[0]);
    // Rank 0 posts its 500 B after its 1 us of compute, on an idle fabric:
    // the receive completes on rank 1 when they arrive, the send on rank 0
    // when they are acknowledged, after which each rank is done (rank 1's
    // compute ended at done1 + 1 us, before the arrival).
    const int64_t sent = done0 + 1000000;
    EXPECT_EQ(r.ranks[0].nodeStart[2].GetPicoSeconds(), sent);
    EXPECT_EQ(r.ranks[1].nodeFinish[2].GetPicoSeconds(), sent + ArrivalPs(500));
    EXPECT_EQ(r.ranks[0].nodeFinish[2].GetPicoSeconds(), sent + ArrivalPs(500) + kAckPs);
    EXPECT_EQ(r.ranks[1].finish.GetPicoSeconds(), sent + ArrivalPs(500));
    EXPECT_EQ(r.ranks[0].finish.GetPicoSeconds(), sent + ArrivalPs(500) + kAckPs);
    // Flows from the start: the send first, then the all-to-all's transfers.
    ASSERT_EQ(r.flows.size(), 3u);
    EXPECT_EQ(r.flows[0].node, 3);
    EXPECT_EQ(r.flows[0].start.GetPicoSeconds(), sent);
    EXPECT_EQ(r.flows[1].collective, 0);
    EXPECT_EQ(r.flows[2].finish.GetPicoSeconds(), ArrivalPs(1001));
}

TEST(CollectiveSync, TraceCollectiveModeCompletesEveryMemberAtTheLastArrival)
{
    // The default: the all-to-all completes on both ranks when its last
    // transfer (rank 1's 1001 B) arrives, acknowledgements not waited for.
    const TraceRun r = RunTwoRankTrace(false);
    ASSERT_TRUE(r.done);
    EXPECT_EQ(r.ranks[0].nodeFinish[0].GetPicoSeconds(), ArrivalPs(1001));
    EXPECT_EQ(r.ranks[1].nodeFinish[0].GetPicoSeconds(), ArrivalPs(1001));
}

TEST(CollectiveSync, ATraceProcessRunsOnlyItsOwnHostsRanks)
{
    // As the MPI rank owning host 0: rank 1 never runs here, so rank 0's
    // all-to-all waits for 1001 B that never come; every flow is listed.
    const TraceRun r = RunTwoRankTrace(true, {true, false});
    EXPECT_FALSE(r.done);
    EXPECT_TRUE(r.ranks[0].local);
    EXPECT_FALSE(r.ranks[1].local);
    EXPECT_EQ(r.ranks[1].nodeStart[2], Time(-1)); // its receive never issued
    EXPECT_EQ(r.ranks[0].nodeFinish[0], Time(-1));
    ASSERT_EQ(r.flows.size(), 3u);
    EXPECT_FALSE(r.flows[0].posted); // the send waits for the all-to-all
    EXPECT_TRUE(r.flows[1].posted && r.flows[1].completed);
    EXPECT_FALSE(r.flows[2].posted);
}
