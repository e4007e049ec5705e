/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Collective tests: transfer graphs (bytes per rank, step counts, acyclic
 * dependencies) and completion times on an idle fabric against the
 * bandwidth/latency formulas.
 */
#include "ns3/collective-engine.h"
#include "ns3/collective-plan.h"
#include "ns3/fabric-routing-helper.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;

namespace
{
CollectiveSpec
Spec(const std::string& type, const std::string& algo, uint64_t bytes, uint32_t n)
{
    CollectiveSpec s;
    s.type = type;
    s.algorithm = algo;
    s.bytes = bytes;
    s.ranks = n;
    return s;
}

void
ExpectAcyclic(const CollectivePlan& p)
{
    // Dependencies only point backwards: the graph is acyclic and a
    // transfer's prerequisites exist before it.
    for (uint32_t i = 0; i < p.transfers.size(); ++i)
    {
        for (uint32_t d : p.transfers[i].deps)
        {
            ASSERT_LT(d, i);
        }
    }
}
} // namespace

TEST(CollectivePlan, BytesPerRankMatchTheTextbook)
{
    const uint64_t s = 8 * 1024 * 1024; // divisible by every group size below
    // Ring all-reduce: 2(N-1) steps of S/N from every rank: 2(N-1)/N S each.
    CollectivePlan ring = PlanCollective(Spec("all-reduce", "ring", s, 8));
    EXPECT_EQ(ring.transfers.size(), 2u * 7 * 8);
    EXPECT_DOUBLE_EQ(ring.busFactor, 2.0 * 7 / 8);
    ExpectAcyclic(ring);
    // Reduce-scatter and all-gather alone: (N-1)/N S.
    for (const char* t : {"reduce-scatter", "all-gather"})
    {
        for (const char* a : {"ring", "direct", "halving-doubling"})
        {
            CollectivePlan p = PlanCollective(Spec(t, a, s, 8));
            ExpectAcyclic(p);
            for (uint32_t r = 0; r < 8; ++r)
            {
                EXPECT_EQ(BytesSentBy(p, r), s / 8 * 7) << t << " " << a << " rank " << r;
            }
        }
    }
    // All-reduce: 2(N-1)/N S per rank for ring, direct, halving-doubling and
    // the hierarchical 2 x 4 (S/2 + 3/8 S, twice).
    for (const char* a : {"ring", "direct", "halving-doubling"})
    {
        CollectivePlan p = PlanCollective(Spec("all-reduce", a, s, 8));
        ExpectAcyclic(p);
        for (uint32_t r = 0; r < 8; ++r)
        {
            EXPECT_EQ(BytesSentBy(p, r), s / 8 * 14) << a << " rank " << r;
        }
    }
    CollectiveSpec h = Spec("all-reduce", "hierarchical", s, 8);
    h.dims = {2, 4};
    CollectivePlan hp = PlanCollective(h);
    ExpectAcyclic(hp);
    for (uint32_t r = 0; r < 8; ++r)
    {
        EXPECT_EQ(BytesSentBy(hp, r), s / 8 * 14) << "hierarchical rank " << r;
    }
    // Sizes that do not divide: a hierarchical all-reduce still moves
    // 2 (N-1) S bytes in all. Each dimension d's reduce-scatter and
    // all-gather move (n_d - 1) x the bytes a group holds, and the groups of
    // dimension d hold S x N / (n_0 ... n_d) together, so the total is
    // 2 S N sum_d (n_d - 1) / (n_0 ... n_d) = 2 S (N - 1). (Rounding each
    // rank's share down lost 10 of 98 bytes for S = 7 on 2 x 2 x 2.)
    for (const auto& [bytes, dims, channels, chunks] :
         std::vector<std::tuple<uint64_t, std::vector<uint32_t>, uint32_t, uint32_t>>{
             {7, {2, 2, 2}, 1, 1},
             {1001, {2, 4}, 1, 1},
             {1001, {3, 2}, 1, 1},
             {1001, {4, 2}, 1, 1},
             {65472, {2, 2, 2}, 8, 8},
             {1000003, {3, 5}, 2, 3}})
    {
        uint32_t n = 1;
        for (uint32_t d : dims)
        {
            n *= d;
        }
        CollectiveSpec odd = Spec("all-reduce", "hierarchical", bytes, n);
        odd.dims = dims;
        odd.channels = channels;
        odd.chunks = chunks;
        CollectivePlan op = PlanCollective(odd);
        ExpectAcyclic(op);
        uint64_t total = 0;
        for (uint32_t r = 0; r < n; ++r)
        {
            total += BytesSentBy(op, r);
        }
        EXPECT_EQ(total, 2 * (n - 1) * bytes) << bytes << " B on " << n << " ranks";
    }
    // Halving-doubling: 2 log2 N steps of N transfers.
    EXPECT_EQ(PlanCollective(Spec("all-reduce", "halving-doubling", s, 8)).transfers.size(),
              2u * 3 * 8);
    // All-to-all direct: S/N to each of the N-1 others.
    CollectivePlan a2a = PlanCollective(Spec("all-to-all", "direct", s, 8));
    EXPECT_EQ(a2a.transfers.size(), 8u * 7);
    EXPECT_EQ(BytesSentBy(a2a, 3), s / 8 * 7);
    // Double binary tree: each tree moves half the data up and down every
    // edge: every non-root sends S/2 up in one tree and is sent S/2 down.
    CollectivePlan dbt = PlanCollective(Spec("all-reduce", "double-binary-tree", s, 7));
    ExpectAcyclic(dbt);
    EXPECT_EQ(dbt.transfers.size(), 2u * 2 * 6); // 2 trees x (6 up + 6 down)
}

TEST(CollectivePlan, ChunksAndChannelsSplitTheDataExactly)
{
    CollectiveSpec s = Spec("all-reduce", "ring", 1000003, 5);
    s.chunks = 3;
    s.channels = 2;
    CollectivePlan p = PlanCollective(s);
    EXPECT_EQ(p.transfers.size(), 2u * 3 * 2 * 4 * 5);
    uint64_t total = 0;
    for (const auto& t : p.transfers)
    {
        total += t.bytes;
        EXPECT_LT(t.channel, 2u);
    }
    // Every byte crosses 2(N-1)/N x N = 2(N-1) links in all: 8 x 1,000,003.
    EXPECT_EQ(total, 8u * 1000003u);
}

TEST(CollectivePlan, RingSendsEverySegmentButOnePerPhase)
{
    // 5 ranks, S = 5k + 3 bytes: the segments are k + 1 or k bytes. In the
    // reduce-scatter a rank sends every segment but one once, and again in
    // the all-gather: 2S minus two segments, i.e. 2(N-1)/N S to within 2
    // bytes (8k + 4.8 +- 1.2 here). A ring that sent one segment over and
    // over would send 8 (k + 1) or 8k.
    const uint64_t k = 1000;
    const uint64_t s = 5 * k + 3;
    CollectivePlan p = PlanCollective(Spec("all-reduce", "ring", s, 5));
    for (uint32_t r = 0; r < 5; ++r)
    {
        EXPECT_NEAR(double(BytesSentBy(p, r)), 8.0 / 5 * s, 1.2) << "rank " << r;
    }
}

TEST(CollectivePlan, NonPowerOfTwoHalvingDoublingFallsBack)
{
    // 6 ranks: ranks 4, 5 fold onto 0, 1 (S each), 4 ranks run
    // halving-doubling (2 x 2 steps), the result goes back (S each).
    const uint64_t s = 4096 * 12;
    CollectivePlan p = PlanCollective(Spec("all-reduce", "halving-doubling", s, 6));
    ExpectAcyclic(p);
    EXPECT_EQ(p.transfers.size(), 2u + 4 * 4 + 2u);
    EXPECT_EQ(BytesSentBy(p, 4), s);
    EXPECT_EQ(BytesSentBy(p, 5), s);
    EXPECT_THROW(PlanCollective(Spec("reduce-scatter", "halving-doubling", s, 6)),
                 std::invalid_argument);
    EXPECT_THROW(PlanCollective(Spec("all-to-all", "ring", s, 6)), std::invalid_argument);
    CollectiveSpec bad = Spec("all-reduce", "hierarchical", s, 6);
    bad.dims = {4, 2};
    EXPECT_THROW(PlanCollective(bad), std::invalid_argument);
}

namespace
{
/// Run one collective on 8 hosts of one 100 Gb/s leaf (1 us links); return seconds.
double
RunOnOneLeaf(const CollectiveSpec& spec)
{
    LeafSpineHelper ls;
    ls.SetShape(1, 1, 8);
    Ptr<FabricTopology> topo = ls.Install();
    CollectiveEngine engine(topo);
    std::vector<uint32_t> group{0, 1, 2, 3, 4, 5, 6, 7};
    engine.Start(spec, group);
    Simulator::Run();
    const auto& rec = engine.GetRecords().at(0);
    EXPECT_TRUE(rec.done);
    Simulator::Destroy();
    return (rec.finish - rec.start).GetSeconds();
}

// B: payload bandwidth. A full data frame is 4178 line bytes for 4096 of
// payload; in these collectives every host sends and receives at once, so
// each link direction also carries the ACK (62 B + 24 B = 86 line bytes, one
// per data frame) of the opposite direction's data: B = 100 Gb/s x 4096 /
// (4178 + 86). A step between two hosts of one leaf crosses 2 links; its
// latency beyond the payload serialization is the last frame stored and
// forwarded once (4178 x 8 / 100e9 = 0.33424 us) plus 2 x 1 us of propagation.
constexpr double kB = 100e9 * 4096 / (4178 + 86);
constexpr double kAlpha = 4178 * 8 / 100e9 + 2e-6;
constexpr uint64_t kS = 64ull * 1024 * 1024; // S/8 and S/2^k are whole frames
// The formulas are exact up to the order in which the frames of consecutive
// transfers, and the ACKs between them, interleave at the start and end of
// each transfer, which they do not follow: allow two full-frame line times
// per transfer a rank sends (ring: 14 x 2 x 334.24 ns = 9.4 us of 9.8 ms).
constexpr double kPerTransfer = 2 * 4178 * 8 / 100e9;
} // namespace

TEST(CollectiveTiming, RingAllReduceMatchesTheFormula)
{
    // 2(N-1)/N S/B + 2(N-1) alpha, N = 8: 7/4 x 64 MiB / B + 14 alpha.
    const double expected = 2.0 * 7 / 8 * kS * 8 / kB + 14 * kAlpha;
    const double t = RunOnOneLeaf(Spec("all-reduce", "ring", kS, 8));
    EXPECT_NEAR(t, expected, 14 * kPerTransfer);
}

TEST(CollectiveTiming, HalvingDoublingAllReduceMatchesTheFormula)
{
    // Same bandwidth term, 2 log2 N = 6 step latencies.
    const double expected = 2.0 * 7 / 8 * kS * 8 / kB + 6 * kAlpha;
    const double t = RunOnOneLeaf(Spec("all-reduce", "halving-doubling", kS, 8));
    EXPECT_NEAR(t, expected, 6 * kPerTransfer);
}

TEST(CollectiveTiming, AllToAllMatchesTheFormula)
{
    // Each rank sends (N-1)/N S through its port (and receives as much):
    // (N-1)/N S/B plus one step latency; 7 transfers per rank.
    const double expected = 7.0 / 8 * kS * 8 / kB + kAlpha;
    const double t = RunOnOneLeaf(Spec("all-to-all", "direct", kS, 8));
    EXPECT_NEAR(t, expected, 7 * kPerTransfer);
}

TEST(CollectiveTiming, ChunksAndChannelsKeepTheBandwidthBound)
{
    // Pipelining 4 chunks over 2 channels changes the latency term, not the
    // bandwidth term: at least 2(N-1)/N S/B (every rank's link carries that
    // much), at most that plus the unpipelined ring's 2(N-1) step latencies
    // (pipelining hides latency, it adds none).
    CollectiveSpec s = Spec("all-reduce", "ring", kS, 8);
    s.chunks = 4;
    s.channels = 2;
    const double bound = 2.0 * 7 / 8 * kS * 8 / kB;
    const double t = RunOnOneLeaf(s);
    EXPECT_GE(t, bound);
    EXPECT_LE(t, bound + 14 * kAlpha);
}

TEST(CollectiveScenario, VerbatimWorkloadWritesCollectivesCsv)
{
    ScenarioConfig cfg = LoadScenarioFile(
        "examples/incast-8to1.json",
        {R"(workload={"type": "collective", "collective": "all-reduce", "algorithm": "ring", "bytes": "64MB", "group": "all", "chunks": 4, "channels": 2, "iterations": 1})"});
    EXPECT_EQ(cfg.workload.collective.group.size(), 16u);
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    // 2(N-1)/N x S per rank: 16 x 30/16 x 64 MB = 1.92 GB moved, all of it
    // delivered (the run stops at the last arrival, before the last ACKs).
    EXPECT_EQ(run.GetTotals().bytesSent, 1920000000u);
    EXPECT_EQ(run.GetTotals().bytesDelivered, 1920000000u);
    // The one row of collectives.csv, by value.
    std::istringstream in(run.CollectivesCsv());
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    std::vector<std::string> col;
    std::istringstream fields(row);
    for (std::string c; std::getline(fields, c, ',');)
    {
        col.push_back(c);
    }
    ASSERT_EQ(col.size(), 13u) << row;
    EXPECT_EQ(row.rfind("0,all-reduce,ring,64000000,16,0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15,", 0),
              0u)
        << row;
    const double start = std::stod(col[6]);
    const double finish = std::stod(col[7]);
    const double dur = std::stod(col[8]);
    EXPECT_NEAR(dur, finish - start, 1e-12);
    // nccl-tests: algbw = S / t, busbw = algbw x 2(N-1)/N.
    EXPECT_NEAR(std::stod(col[9]), 64e6 * 8 / dur / 1e9, 1e-6);
    EXPECT_NEAR(std::stod(col[10]), 64e6 * 8 / dur / 1e9 * 30 / 16, 1e-6);
    // 2(N-1) steps x N ranks x 4 chunks x 2 channels transfers; completed.
    EXPECT_EQ(col[11], "3840");
    EXPECT_EQ(col[12], "1");
    // Every rank's link carries 30/16 x 64 MB at most at the payload rate B
    // (the ring's two leaf-crossing edges go opposite ways, so no fabric link
    // carries more); the latency on top is at most the unpipelined ring's
    // 30 steps, each at most a cross-leaf hop: 3 frames stored and forwarded
    // plus 4 cables.
    const double bound = 30.0 / 16 * 64e6 * 8 / kB;
    EXPECT_GE(dur, bound);
    EXPECT_LE(dur, bound + 30 * (3 * 4178 * 8 / 100e9 + 4e-6));
    // No compute: each rank's communication is all exposed, until the end.
    const auto summary = nlohmann::json::parse(run.SummaryJson());
    ASSERT_EQ(summary.at("ranks").size(), 16u);
    for (const auto& r : summary.at("ranks"))
    {
        EXPECT_NEAR(r.at("finish_s").get<double>(), finish, 1e-9);
        EXPECT_EQ(r.at("compute_s").get<double>(), 0.0);
        EXPECT_NEAR(r.at("exposed_comm_s").get<double>(), finish, 1e-9);
    }
}

TEST(CollectiveScenario, BadCollectiveIsAScenarioError)
{
    try
    {
        LoadScenarioFile(
            "examples/incast-8to1.json",
            {R"(workload={"type": "collective", "collective": "all-to-all", "algorithm": "ring", "bytes": 1000})"});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("workload.algorithm"), std::string::npos) << e.what();
    }
}

TEST(CollectivePlan, BroadcastReduceBarrier)
{
    // Broadcast of S from rank 0 along the chain 0 -> 1 -> ... -> N-1: every
    // rank but the last forwards S; reduce is the mirror; a barrier is one
    // byte from every rank to every other.
    const uint64_t s = 4096 * 10;
    CollectivePlan b = PlanCollective(Spec("broadcast", "chain", s, 5));
    ExpectAcyclic(b);
    EXPECT_EQ(b.transfers.size(), 4u);
    EXPECT_EQ(BytesSentBy(b, 0), s);
    EXPECT_EQ(BytesSentBy(b, 4), 0u);
    CollectivePlan r = PlanCollective(Spec("reduce", "chain", s, 5));
    EXPECT_EQ(BytesSentBy(r, 0), 0u);
    EXPECT_EQ(BytesSentBy(r, 4), s);
    CollectivePlan bar = PlanCollective(Spec("barrier", "chain", 0, 5));
    EXPECT_EQ(bar.transfers.size(), 20u);
    EXPECT_EQ(BytesSentBy(bar, 2), 4u);
}

TEST(CollectiveTiming, TinyRingAllReduceIsTwoNMinusOneStepLatencies)
{
    // 8 x 4096 B: every ring step moves one full frame from rank i to rank
    // i + 1 on the same leaf, and a rank sends its step k + 1 only when the
    // frame of step k has reached it: the latency term alone, to the
    // picosecond. A step is s + d to the leaf and s + d on to the next host
    // (s = 4178 x 8 / 100e9 = 334.24 ns, d = 1 us). From the second step on,
    // the receiver's port first sends the ACK of the frame that just arrived
    // (a = 86 x 8 / 100e9 = 6.88 ns), then the next step's frame:
    //   T = 2(N-1) (2s + 2d) + (2(N-1) - 1) a = 14 x 2.66848 + 13 x 0.00688 us.
    const double t = RunOnOneLeaf(Spec("all-reduce", "ring", 8 * 4096, 8));
    const double s = 4178 * 8 / 100e9;
    const double a = 86 * 8 / 100e9;
    EXPECT_NEAR(t, 14 * (2 * s + 2e-6) + 13 * a, 1e-12);
}
