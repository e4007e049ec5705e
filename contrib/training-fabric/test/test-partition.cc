/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The split of a fabric over MPI ranks (FabricPartition) and what a build
 * without MPI says when asked for ranks. Expected ranks follow from the
 * block rule: block i of n goes to rank floor(i * ranks / n).
 */
#include "ns3/fabric-partition.h"
#include "ns3/fat-tree-helper.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/type-id.h"

#include <gtest/gtest.h>
#include <stdexcept>
#include <vector>

using namespace ns3;

using V = std::vector<uint32_t>;

TEST(FabricPartition, FatTreePodsK4OnTwoRanks)
{
    // k = 4: 4 pods of 2 edge + 2 aggregation switches and 2 x 2 hosts, 4
    // cores. Pods 0,1 -> rank 0 (0*2/4 = 0, 1*2/4 = 0), pods 2,3 -> rank 1;
    // cores 0,1 -> 0 and 2,3 -> 1 by the same rule over 4 cores.
    const FabricPartition p = FabricPartition::Pods(4, 2, 2, 2, 4, 2);
    EXPECT_EQ(p.scheme, "pods");
    EXPECT_EQ(p.switchRank, (V{0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1}));
    EXPECT_EQ(p.hostRank, (V{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}));
}

TEST(FabricPartition, LeafSpineAndTorusSlabs)
{
    // 3 leaves on 2 ranks: 0*2/3 = 0, 1*2/3 = 0, 2*2/3 = 1; 2 spines: 0, 1.
    const FabricPartition ls = FabricPartition::Leaves(3, 2, 2, 2);
    EXPECT_EQ(ls.switchRank, (V{0, 0, 1, 0, 1}));
    EXPECT_EQ(ls.hostRank, (V{0, 0, 0, 0, 1, 1}));
    // 2 x 3 torus: last coordinate c = v / 2 (slabs of 2 vertices); 3 slabs
    // on 2 ranks: 0, 0, 1. Host v rides with vertex v.
    const FabricPartition t = FabricPartition::Slabs({2, 3}, 2);
    EXPECT_EQ(t.switchRank, (V{0, 0, 0, 0, 1, 1}));
    EXPECT_EQ(t.hostRank, t.switchRank);
}

TEST(FabricPartition, MoreRanksThanBlocksIsRefused)
{
    EXPECT_THROW(FabricPartition::Pods(4, 2, 2, 2, 4, 5), std::invalid_argument);
    EXPECT_THROW(FabricPartition::Leaves(2, 2, 2, 3), std::invalid_argument);
    EXPECT_THROW(FabricPartition::Slabs({8, 2}, 3), std::invalid_argument);
    EXPECT_THROW(FabricPartition::Pods(4, 2, 2, 2, 4, 0), std::invalid_argument);
}

TEST(FabricPartition, RanksWithoutMpiIsOneLineError)
{
    // This test program does not link the MPI library: no remote channel.
    TypeId tid;
    if (TypeId::LookupByNameFailSafe("ns3::FabricRemoteChannel", &tid))
    {
        GTEST_SKIP() << "built with the remote channel";
    }
    FatTreeHelper ft;
    ft.SetK(4);
    ft.SetRanks(2);
    EXPECT_THROW(ft.Install(), std::invalid_argument);
    Simulator::Destroy();
    // The scenario keys: a partition that is not the shape's is named.
    ScenarioConfig cfg = ParseScenarioText(
        R"({"topology": {"type": "leaf-spine"}, "partition": "pods",
            "workload": {"type": "flows", "flows": []}})",
        {},
        "p.json");
    EXPECT_EQ(cfg.partition, "pods");
    EXPECT_EQ(cfg.ranks, 1u);
    ScenarioRunner run(cfg);
    try
    {
        run.Build();
        FAIL() << "partition pods accepted for a leaf-spine";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find(
                      "partition: expected \"auto\" or \"leaves\" for this topology, got \"pods\""),
                  std::string::npos)
            << e.what();
    }
}

TEST(FabricPartition, RanksWithoutTheMpiEngineIsOneLineError)
{
    // "ranks" above 1 outside ns-3's distributed engines (tf-run without
    // --mpi): links between ranks would hand frames to an MPI nobody set up
    // (tf-run crashed), so the scenario is refused, naming the way to run it.
    ScenarioConfig cfg = ParseScenarioText(
        R"({"topology": {"type": "leaf-spine"}, "ranks": 2,
            "workload": {"type": "flows", "flows": [{"src": 0, "dst": 7, "bytes": 1000}]}})",
        {},
        "r.json");
    EXPECT_EQ(cfg.ranks, 2u);
    ScenarioRunner run(cfg);
    try
    {
        run.Build();
        FAIL() << "ranks 2 accepted without the MPI engine";
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  "r.json: ranks: 2 ranks need ns-3's MPI engine: run ./tf run r.json --ranks 2 "
                  "(mpirun -np 2 tf-run ... --mpi granted|null), which sets ranks; without it "
                  "ranks must be 1");
    }
}
