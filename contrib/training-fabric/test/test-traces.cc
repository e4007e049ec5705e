/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Execution-trace tests: Chakra ET framing (hand-built bytes), round trips,
 * the errors bad traces get, the text format, and execution order and timing.
 */
#include "ns3/execution-trace.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/text-trace.h"
#include "ns3/trace-generator.h"
#include "ns3/trace-runner.h"
#include "ns3/trace-workload.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace ns3;

namespace
{
std::string
Bytes(std::initializer_list<int> b)
{
    std::string s;
    for (int c : b)
    {
        s.push_back(static_cast<char>(c));
    }
    return s;
}

// GlobalMetadata{version "0.0.4"}: field 1 (tag 0x0A), length 5, "0.0.4";
// 7 bytes, framed by the varint 0x07.
const std::string kMeta = Bytes({0x07, 0x0A, 0x05, '0', '.', '0', '.', '4'});

void
ExpectError(const std::string& bytes, const std::string& expected)
{
    try
    {
        TraceGraph g = ParseChakra(bytes, "bad.et", 0);
        ValidateGraph(g);
        FAIL() << "accepted; expected " << expected;
    }
    catch (const TraceError& e)
    {
        const std::string msg = e.what();
        EXPECT_EQ(msg.rfind("bad.et", 0), 0u) << msg;
        EXPECT_NE(msg.find(expected), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos);
    }
}
} // namespace

TEST(ChakraReader, AcceptsAHandBuiltByteSequence)
{
    // Node{id 1 (08 01), name "c" (12 01 63), type COMP = 4 (18 04),
    // duration_micros 10 (38 0A)}: 9 bytes, framed by 0x09. A second node
    // with every proto3 default omitted but type COMP and data_deps [1]
    // (2A 01 01, packed) and id 2: 08 02 18 04 2A 01 01 = 7 bytes.
    const std::string bytes = kMeta + Bytes({0x09,
                                             0x08,
                                             0x01,
                                             0x12,
                                             0x01,
                                             'c',
                                             0x18,
                                             0x04,
                                             0x38,
                                             0x0A,
                                             0x07,
                                             0x08,
                                             0x02,
                                             0x18,
                                             0x04,
                                             0x2A,
                                             0x01,
                                             0x01});
    TraceGraph g = ParseChakra(bytes, "hand.et", 0);
    EXPECT_EQ(g.version, "0.0.4");
    ASSERT_EQ(g.nodes.size(), 2u);
    EXPECT_EQ(g.nodes[0].id, 1u);
    EXPECT_EQ(g.nodes[0].name, "c");
    EXPECT_EQ(g.nodes[0].kind, TraceNode::COMP);
    EXPECT_EQ(g.nodes[0].durationMicros, 10u);
    EXPECT_EQ(g.nodes[1].id, 2u);
    EXPECT_EQ(g.nodes[1].durationMicros, 0u);
    EXPECT_EQ(g.nodes[1].dataDeps, std::vector<uint64_t>({1}));
    ValidateGraph(g);
}

TEST(ChakraReader, LengthPrefixesOfSeveralVarintBytes)
{
    // A node of 137 bytes: id 1 (08 01), name of 130 'n' (12, length 130 =
    // varint 82 01, the bytes), type COMP (18 04). Its length prefix 137 =
    // 0b1'0001001 takes two varint bytes, low group first: 0x89 0x01.
    const std::string name(130, 'n');
    const std::string node = Bytes({0x08, 0x01, 0x12, 0x82, 0x01}) + name + Bytes({0x18, 0x04});
    ASSERT_EQ(node.size(), 137u);
    TraceGraph g = ParseChakra(kMeta + Bytes({0x89, 0x01}) + node, "long.et", 0);
    ASSERT_EQ(g.nodes.size(), 1u);
    EXPECT_EQ(g.nodes[0].name, name);
    EXPECT_EQ(g.nodes[0].kind, TraceNode::COMP);
    // And the writer frames it the same way.
    EXPECT_EQ(SerializeChakra(g).substr(kMeta.size(), 2), Bytes({0x89, 0x01}));
}

TEST(ChakraReader, RejectsBadStreamsWithClearErrors)
{
    const std::string node = Bytes({0x04, 0x08, 0x01, 0x18, 0x04});
    ExpectError(kMeta + node.substr(0, 3), "truncated node message #0");
    ExpectError(kMeta + Bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}),
                "bad varint");
    ExpectError(kMeta + Bytes({0x80}), "truncated length prefix");
    ExpectError("", "empty trace");
    // type 12 is no NodeType.
    ExpectError(kMeta + Bytes({0x04, 0x08, 0x05, 0x18, 0x0C}), "node 5: unknown node type 12");
    // A cycle: node 1 depends on 2, node 2 on 1.
    ExpectError(kMeta + Bytes({0x07, 0x08, 0x01, 0x18, 0x04, 0x2A, 0x01, 0x02}) +
                    Bytes({0x07, 0x08, 0x02, 0x18, 0x04, 0x2A, 0x01, 0x01}),
                "on a dependency cycle");
    // type 0 (INVALID_NODE) is a node ASTRA-sim skips, not an error; a
    // dependency on a node absent from the file counts as met, and is counted.
    TraceGraph g = ParseChakra(kMeta + Bytes({0x04, 0x08, 0x05, 0x18, 0x00}) +
                                   Bytes({0x07, 0x08, 0x01, 0x18, 0x04, 0x2A, 0x01, 0x09}),
                               "ok.et",
                               0);
    EXPECT_EQ(g.nodes[0].kind, TraceNode::INVALID);
    EXPECT_TRUE(g.nodes[0].IsSkipped());
    EXPECT_EQ(ValidateGraph(g), 1u);
}

TEST(ChakraReader, GeneratedGraphRoundTrips)
{
    std::vector<TraceGraph> g = ParseTextTrace("rank 0\n"
                                               "1: comp 10 name fwd\n"
                                               "2: send 1MB to 1 tag 7 after 1\n"
                                               "3: coll all-reduce 4MB after 1 group dp\n"
                                               "rank 1\n"
                                               "1: recv 1MB from 0 tag 7\n"
                                               "2: coll all-reduce 4MB after 1 group dp\n"
                                               "3: comp 5 after 2 ctrl 1\n",
                                               "two.txt");
    ASSERT_EQ(g.size(), 2u);
    for (const TraceGraph& a : g)
    {
        TraceGraph b = ParseChakra(SerializeChakra(a), "rt.et", a.rank);
        ASSERT_EQ(b.nodes.size(), a.nodes.size());
        for (std::size_t i = 0; i < a.nodes.size(); ++i)
        {
            const TraceNode& x = a.nodes[i];
            const TraceNode& y = b.nodes[i];
            EXPECT_EQ(x.id, y.id);
            EXPECT_EQ(x.name, y.name);
            EXPECT_EQ(x.kind, y.kind);
            EXPECT_EQ(x.dataDeps, y.dataDeps);
            EXPECT_EQ(x.ctrlDeps, y.ctrlDeps);
            EXPECT_EQ(x.durationMicros, y.durationMicros);
            EXPECT_EQ(x.commType, y.commType);
            EXPECT_EQ(x.commSize, y.commSize);
            EXPECT_EQ(x.commSrc, y.commSrc);
            EXPECT_EQ(x.commDst, y.commDst);
            EXPECT_EQ(x.commTag, y.commTag);
            EXPECT_EQ(x.pgName, y.pgName);
        }
    }
    ValidateWorkload(g, {{"dp", {0, 1}}});
}

TEST(ChakraReader, MismatchedSendRecvIsNamed)
{
    std::vector<TraceGraph> g = ParseTextTrace("rank 0\n1: send 1MB to 1 tag 1\n"
                                               "rank 1\n1: recv 2MB from 0 tag 1\n",
                                               "mm.txt");
    try
    {
        ValidateWorkload(g, {});
        FAIL();
    }
    catch (const TraceError& e)
    {
        EXPECT_NE(std::string(e.what()).find("has no matching"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("node 1"), std::string::npos) << e.what();
    }
    EXPECT_THROW(ParseTextTrace("rank 0\n1: jump 3\n", "x.txt"), TraceError);
    // Found by the fuzzer: a send whose peer rank is missing, and a
    // dependency id too large for 64 bits.
    EXPECT_THROW(ParseTextTrace("rank 0\n1: send 1MB to\n", "x.txt"), TraceError);
    EXPECT_THROW(ParseTextTrace("rank 0\n1: comp 5 after 388888888888888888888888\n", "x.txt"),
                 TraceError);
    EXPECT_THROW(ParseTextTrace("1: comp 3\n", "x.txt"), TraceError);
}

TEST(TextTrace, RanksTagsAndOptionsAreReadExactlyOrRefused)
{
    // Ranks and tags are Chakra's int32 comm_src/comm_dst/comm_tag: 2^32 + 1
    // must not wrap to 1 (a send "to 4294967297" reaching rank 1, a tag
    // 4294967297 matching tag 1). An option given twice (the second would
    // replace the first) and a dependency list with a trailing comma are
    // refused; each error names the file and line.
    auto expectError = [](const std::string& text, const std::string& expected) {
        try
        {
            ParseTextTrace(text, "t.txt");
            FAIL() << "accepted: " << text;
        }
        catch (const TraceError& e)
        {
            const std::string msg = e.what();
            EXPECT_EQ(msg.rfind("t.txt: line 2: ", 0), 0u) << msg;
            EXPECT_NE(msg.find(expected), std::string::npos) << msg;
        }
    };
    expectError("rank 0\n1: send 4KB to 4294967297 tag 1\n",
                "expected a rank of at most 2147483647, got 4294967297");
    expectError("rank 0\n1: send 4KB to 1 tag 4294967297\n",
                "expected a tag of at most 2147483647, got 4294967297");
    expectError("rank 0\n1: recv 4KB from 2147483648 tag 1\n", "at most 2147483647");
    expectError("rank 0\n3: comp 1 after 1 after 2\n", "\"after\" given twice");
    expectError("rank 0\n3: comp 1 name a name b\n", "\"name\" given twice");
    expectError("rank 0\n3: comp 1 after 1,\n", "expected node ids");
    // The largest int32 is a valid tag, and one of each option is fine.
    const auto g = ParseTextTrace("rank 0\n1: send 4KB to 1 tag 2147483647 name s after 2 ctrl 2\n"
                                  "2: comp 1\nrank 1\n1: recv 4KB from 0 tag 2147483647\n",
                                  "t.txt");
    EXPECT_EQ(g[0].nodes[0].commTag, 2147483647);
    EXPECT_EQ(g[0].nodes[0].commDst, 1);
    EXPECT_EQ(g[0].nodes[0].name, "s");
}

namespace
{
/**
 * Parse and validate the text trace \p text, run it on one 100 Gb/s leaf
 * with a host per rank (rank r on host r) until it ends, hand the runner to
 * \p check, then tear the simulation down. \p algorithms: per collective type.
 */
void
RunTextTrace(const std::string& text,
             const std::function<void(const TraceRunner&)>& check,
             const std::map<std::string, std::string>& algorithms = {})
{
    std::vector<TraceGraph> g = ParseTextTrace(text, "inline.txt");
    ValidateWorkload(g, {});
    LeafSpineHelper ls;
    ls.SetShape(1, 1, static_cast<uint32_t>(std::max<std::size_t>(g.size(), 2)));
    Ptr<FabricTopology> topo = ls.Install();
    TraceCollectiveOptions o;
    o.algorithms = algorithms;
    TraceRunner run(topo, g, {}, o);
    run.Start();
    Simulator::Run();
    check(run);
    Simulator::Destroy();
}
} // namespace

TEST(TraceRunner, DependencyOrderAndComputeAddExactly)
{
    // Rank 0: compute 10 us, send 1 MB to rank 1, compute 5 us after the
    // send. Rank 1: receive, then compute 7 us. Compute time is the sum of
    // compute durations exactly; no node starts before its dependencies end.
    RunTextTrace("rank 0\n"
                 "1: comp 10\n"
                 "2: send 1MB to 1 after 1\n"
                 "3: comp 5 after 2\n"
                 "rank 1\n"
                 "1: recv 1MB from 0\n"
                 "2: comp 7 after 1\n",
                 [](const TraceRunner& run) {
                     const auto& ranks = run.GetRanks();
                     ASSERT_TRUE(ranks[0].done && ranks[1].done);
                     EXPECT_EQ(ranks[0].compute, MicroSeconds(15));
                     EXPECT_EQ(ranks[1].compute, MicroSeconds(7));
                     for (uint32_t r = 0; r < 2; ++r)
                     {
                         const TraceGraph& gr = run.GetGraphs()[r];
                         for (std::size_t i = 0; i < gr.nodes.size(); ++i)
                         {
                             for (uint64_t d : gr.nodes[i].dataDeps)
                             {
                                 std::size_t j = 0;
                                 while (gr.nodes[j].id != d)
                                 {
                                     ++j;
                                 }
                                 EXPECT_GE(ranks[r].nodeStart[i], ranks[r].nodeFinish[j]);
                             }
                         }
                     }
                     // The send starts at 10 us; rank 1's compute starts
                     // when the 1 MB arrives, and takes exactly 7 us. 1 MB =
                     // 244 full frames (4178 line bytes, s = 334.24 ns at
                     // 100 Gb/s) and one of 576 B (658 line bytes, s' =
                     // 52.64 ns) over h = 2 links of d = 1 us, stored and
                     // forwarded once: (n - 1 + h - 1) s + s' + h d =
                     // 245 s + s' + 2 d = 83.94144 us.
                     const Time arrival =
                         MicroSeconds(10) + PicoSeconds(245 * 334240 + 52640 + 2000000);
                     EXPECT_EQ(ranks[1].nodeStart[1], arrival);
                     EXPECT_EQ(ranks[1].finish, arrival + MicroSeconds(7));
                     EXPECT_EQ(ranks[0].finish - ranks[0].nodeStart[2], MicroSeconds(5));
                 });
}

TEST(TraceRunner, ControlDependenciesOrderNodesLikeDataDependencies)
{
    // Rank 0: the send (node 2) waits for node 1 (10 us of compute) by a
    // control dependency only, though its resource (the GPU's
    // communication) is free: it starts at 10 us, and its 1 MB arrives one
    // unloaded FCT later. Node 3 (7 us) has no dependency but shares the
    // GPU's compute with node 1 (one COMP at a time, ready nodes in
    // ascending id, as ASTRA-sim's HardwareResource): 10 us to 17 us.
    RunTextTrace("rank 0\n1: comp 10\n2: send 1MB to 1 ctrl 1\n3: comp 7\n"
                 "rank 1\n1: recv 1MB from 0\n",
                 [](const TraceRunner& run) {
                     const auto& r = run.GetRanks().at(0);
                     ASSERT_TRUE(r.done);
                     EXPECT_EQ(r.nodeStart[1], MicroSeconds(10));
                     EXPECT_EQ(r.nodeStart[2], MicroSeconds(10));
                     EXPECT_EQ(r.nodeFinish[2], MicroSeconds(17));
                     // The receive ends no earlier than 10 us + 1 MB at
                     // 100 Gb/s, and no later than 10 us + its unloaded FCT:
                     // 245 frames (ceil(1e6 / 4096)) of 82 line bytes beyond
                     // their payload, one full frame (4178) stored and
                     // forwarded at the leaf, 2 x 1 us.
                     const double end = run.GetRanks().at(1).finish.GetSeconds();
                     EXPECT_GE(end, 10e-6 + 8e6 / 100e9);
                     EXPECT_LE(end, 10e-6 + (1e6 + 245 * 82 + 4178) * 8 / 100e9 + 2e-6 + 1e-12);
                 });
}

TEST(TraceRunner, CollectivesJoinAcrossRanks)
{
    // Four ranks: rank r computes 10 r us, then all join one all-reduce; the
    // collective starts when the last (rank 3) arrives at 30 us.
    std::string text;
    for (int r = 0; r < 4; ++r)
    {
        text += "rank " + std::to_string(r) + "\n1: comp " + std::to_string(10 * r) +
                "\n2: coll all-reduce 1MB after 1\n";
    }
    RunTextTrace(text,
                 [](const TraceRunner& run) {
                     const auto& rec = run.GetEngine().GetRecords();
                     ASSERT_EQ(rec.size(), 1u);
                     EXPECT_EQ(rec[0].start, MicroSeconds(30));
                     for (const auto& r : run.GetRanks())
                     {
                         EXPECT_TRUE(r.done);
                         EXPECT_EQ(r.finish, rec[0].finish);
                     }
                 },
                 {{"all-reduce", "ring"}});
}

TEST(TraceScenario, ChakraAndTextWorkloadsRunFromScenarioFiles)
{
    // The sample traces in traces/ (written by tf-trace-gen), in the
    // scenario form the issue names, and the text format.
    const std::string base = R"({"topology": {"type": "leaf-spine", "leaves": 2, "spines": 2,
        "hosts_per_leaf": 8}, "workload": )";
    for (
        const char* w :
        {R"({"type": "chakra", "prefix": "traces/pipeline8/pipeline8", "comm_groups": "traces/pipeline8/groups.json"})",
         R"({"type": "text", "path": "traces/text/two-stage.txt"})"})
    {
        ScenarioRunner run(ParseScenarioText(base + w + "}", {}, "trace.json"));
        run.Build();
        run.Run();
        // Every rank done; exposed communication = finish - compute (no
        // overlap of compute and communication on one rank).
        const auto summary = nlohmann::json::parse(run.SummaryJson());
        ASSERT_FALSE(summary.at("ranks").empty());
        for (const auto& r : summary.at("ranks"))
        {
            EXPECT_TRUE(r.at("done").get<bool>()) << r;
            EXPECT_NEAR(r.at("exposed_comm_s").get<double>(),
                        r.at("finish_s").get<double>() - r.at("compute_s").get<double>(),
                        2e-9)
                << r;
        }
    }
    // The text trace's compute adds up: 50 + 80 us per rank.
    ScenarioRunner run(
        ParseScenarioText(base + R"({"type": "text", "path": "traces/text/two-stage.txt"}})",
                          {},
                          "t.json"));
    run.Build();
    run.Run();
    EXPECT_NE(run.SummaryJson().find("\"compute_s\": 0.00013,"), std::string::npos)
        << run.SummaryJson();
    // A collective the chosen algorithm cannot plan is caught when the
    // scenario is read, not in the middle of the run.
    try
    {
        ParseScenarioText(base + R"({"type": "chakra", "prefix": "traces/dp16/dp16",
            "algorithms": {"all-reduce": "hierarchical"}, "dims": [4, 2]}})",
                          {},
                          "h.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("dims must multiply"), std::string::npos) << e.what();
    }
    // A missing trace is a scenario error naming the file.
    try
    {
        ParseScenarioText(base + R"({"type": "chakra", "prefix": "traces/none/none"}})",
                          {},
                          "m.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("traces/none/none.0.et"), std::string::npos)
            << e.what();
    }
}

TEST(TraceGenerator, WrittenAndReadBackGivesTheSameGraph)
{
    for (const char* pattern : {"dp", "moe", "pipeline", "gossip"})
    {
        std::vector<TraceGraph> gen = GenerateTrace(pattern, 4, 3, 1000000, 50);
        ValidateWorkload(gen, {});
        for (const TraceGraph& a : gen)
        {
            TraceGraph b = ParseChakra(SerializeChakra(a), "gen.et", a.rank);
            ASSERT_EQ(b.nodes.size(), a.nodes.size()) << pattern;
            for (std::size_t i = 0; i < a.nodes.size(); ++i)
            {
                EXPECT_EQ(a.nodes[i].id, b.nodes[i].id);
                EXPECT_EQ(a.nodes[i].kind, b.nodes[i].kind);
                EXPECT_EQ(a.nodes[i].dataDeps, b.nodes[i].dataDeps);
                EXPECT_EQ(a.nodes[i].durationMicros, b.nodes[i].durationMicros);
                EXPECT_EQ(a.nodes[i].commSize, b.nodes[i].commSize);
                EXPECT_EQ(a.nodes[i].commType, b.nodes[i].commType);
                EXPECT_EQ(a.nodes[i].commSrc, b.nodes[i].commSrc);
                EXPECT_EQ(a.nodes[i].commDst, b.nodes[i].commDst);
                EXPECT_EQ(a.nodes[i].commTag, b.nodes[i].commTag);
            }
        }
    }
    EXPECT_THROW(GenerateTrace("nope", 4, 1, 1, 1), TraceError);
}

TEST(TraceGenerator, GossipPartnersAndDelayByOne)
{
    // Every learner sends one model and receives one per step; the ring
    // partner is the successor; random partners change with the step.
    auto partners = [](const std::vector<TraceGraph>& g, uint32_t step) {
        std::vector<int32_t> to;
        for (const TraceGraph& r : g)
        {
            for (const TraceNode& n : r.nodes)
            {
                if (n.kind == TraceNode::COMM_SEND && n.commTag == static_cast<int32_t>(step))
                {
                    to.push_back(n.commDst);
                }
            }
        }
        return to;
    };
    const auto ring = GenerateGossip(8, 4, 1000, 10, false, false, 1);
    ValidateWorkload(ring, {});
    EXPECT_EQ(partners(ring, 0), std::vector<int32_t>({1, 2, 3, 4, 5, 6, 7, 0}));
    const auto rnd = GenerateGossip(8, 4, 1000, 10, true, false, 1);
    ValidateWorkload(rnd, {}); // every send has its receive
    std::set<std::vector<int32_t>> distinct;
    for (uint32_t s = 0; s < 4; ++s)
    {
        std::vector<int32_t> p = partners(rnd, s);
        std::vector<int32_t> sorted = p;
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, std::vector<int32_t>({0, 1, 2, 3, 4, 5, 6, 7})); // a permutation
        distinct.insert(p);
    }
    EXPECT_GT(distinct.size(), 1u);
    // Synchronous: compute of step 1 waits for the receive of step 0; delay
    // by one: it does not (only compute of step 2 waits for it).
    const auto sync = GenerateGossip(2, 3, 1000, 10, false, false, 1);
    const auto lag = GenerateGossip(2, 3, 1000, 10, false, true, 1);
    auto computeDeps = [](const TraceGraph& g, uint32_t step) {
        for (const TraceNode& n : g.nodes)
        {
            if (n.name == "compute" + std::to_string(step))
            {
                return n.dataDeps.size();
            }
        }
        return std::size_t(99);
    };
    EXPECT_EQ(computeDeps(sync[0], 1), 2u); // previous compute + receive of step 0
    EXPECT_EQ(computeDeps(lag[0], 1), 1u);  // previous compute only
    EXPECT_EQ(computeDeps(lag[0], 2), 2u);  // + receive of step 0
}

TEST(ChakraReader, GzipTracesReadLikePlainOnes)
{
    // traces/text/two-stage-gz.0.et is `gzip -c two-stage.0.et` (starts 1f 8b).
    TraceGraph plain = ReadChakraFile("traces/text/two-stage.0.et", 0);
    TraceGraph gz = ReadChakraFile("traces/text/two-stage-gz.0.et", 0);
    EXPECT_EQ(SerializeChakra(gz), SerializeChakra(plain));
    EXPECT_EQ(gz.nodes.size(), 4u);
    // A damaged gzip stream is an error, not a crash.
    std::ifstream in("traces/text/two-stage-gz.0.et", std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_THROW(ParseChakra(bytes.substr(0, bytes.size() / 2), "cut.et.gz", 0), TraceError);
}
