/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Chakra traces as ASTRA-sim reads them. The fixtures are written here with
 * the protobuf API from the published Chakra schema, in the shapes ASTRA-sim's
 * examples and Chakra's PyTorch converter produce: microbenchmarks (one
 * COMM_COLL per rank), a custom collective (sends without comm_src, receives
 * without comm_dst), a PyTorch-converted trace (ctrl_deps to absent parent
 * ops, process groups in a METADATA node, CPU-side communication without
 * comm_size, a double comm_size). Expected times come from the ring and
 * direct bounds, derived in the comments.
 */
#include "et_def.pb.h"

#include "ns3/execution-trace.h"
#include "ns3/fabric-topology.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/text-trace.h"
#include "ns3/trace-runner.h"
#include "ns3/trace-workload.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <google/protobuf/util/delimited_message_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;
using EtNode = ChakraProtoMsg::Node;

namespace
{
// One 100 Gb/s leaf, 1 us links. B is the payload bandwidth of a host port
// that also carries the ACKs of the data it receives (one 86-line-byte ACK
// per 4178-line-byte data frame): 100 Gb/s x 4096 / (4178 + 86), in bytes/s.
// A step between two hosts of the leaf costs alpha beyond serialization: one
// full frame stored and forwarded at the leaf (4178 x 8 / 100e9 s) plus two
// 1 us propagation delays.
constexpr double kB = 100e9 / 8 * 4096 / (4178 + 86);
constexpr double kAlpha = 4178 * 8 / 100e9 + 2e-6;
constexpr uint64_t kMiB = 1 << 20;

/// A folder for one test's files, removed at the end.
struct TempDir
{
    std::string path;

    TempDir()
    {
        char t[] = "/tmp/tf-astra-XXXXXX";
        path = mkdtemp(t);
    }

    ~TempDir()
    {
        std::filesystem::remove_all(path);
    }
};

ChakraProtoMsg::AttributeProto*
Attr(EtNode& n, const std::string& name)
{
    ChakraProtoMsg::AttributeProto* a = n.add_attr();
    a->set_name(name);
    return a;
}

EtNode
MakeNode(uint64_t id, const std::string& name, ChakraProtoMsg::NodeType type)
{
    EtNode n;
    n.set_id(id);
    n.set_name(name);
    n.set_type(type);
    return n;
}

/// An ASTRA-sim microbenchmark node: is_cpu_op (bool), comm_type and
/// comm_size (int64), as examples/workload/microbenchmarks has them.
EtNode
Collective(uint64_t id, ChakraProtoMsg::CollectiveCommType type, int64_t size)
{
    EtNode n = MakeNode(id, "coll" + std::to_string(id), ChakraProtoMsg::COMM_COLL_NODE);
    Attr(n, "is_cpu_op")->set_bool_val(false);
    Attr(n, "comm_type")->set_int64_val(type);
    Attr(n, "comm_size")->set_int64_val(size);
    return n;
}

/// Write <prefix>.<rank>.et with protobuf's own length-delimited writer.
void
WriteEt(const std::string& prefix,
        uint32_t rank,
        const std::vector<EtNode>& nodes,
        const ChakraProtoMsg::GlobalMetadata& meta = {})
{
    std::ofstream out(prefix + "." + std::to_string(rank) + ".et", std::ios::binary);
    ASSERT_TRUE(google::protobuf::util::SerializeDelimitedToOstream(meta, &out));
    for (const EtNode& n : nodes)
    {
        ASSERT_TRUE(google::protobuf::util::SerializeDelimitedToOstream(n, &out));
    }
}

/// Run a chakra workload on one leaf of \p hosts hosts; the runner ran.
std::unique_ptr<ScenarioRunner>
RunChakra(const std::string& prefix, uint32_t hosts, const std::string& extra = "")
{
    const std::string text = R"({"topology": {"type": "leaf-spine", "leaves": 1, "spines": 1,
        "hosts_per_leaf": )" +
                             std::to_string(hosts) +
                             R"(, "host_link": {"rate": "100Gbps", "delay": "1us"},
        "fabric_link": {"rate": "100Gbps", "delay": "1us"}},
        "workload": {"type": "chakra", "prefix": ")" +
                             prefix + R"(", "comm_groups": "empty")" + extra + "}}";
    auto run = std::make_unique<ScenarioRunner>(ParseScenarioText(text, {}, "astra.json"));
    run->Build();
    run->Run();
    return run;
}

/// collectives.csv rows: (bytes column, duration in seconds), "" fields dropped.
std::vector<std::pair<uint64_t, double>>
Collectives(const ScenarioRunner& run)
{
    std::vector<std::pair<uint64_t, double>> rows;
    std::istringstream in(run.CollectivesCsv());
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line))
    {
        std::vector<std::string> f;
        std::stringstream ss(line);
        std::string x;
        while (std::getline(ss, x, ','))
        {
            f.push_back(x);
        }
        EXPECT_EQ(f.back(), "1") << line; // completed
        rows.emplace_back(std::stoull(f[3]), std::stod(f[8]));
    }
    return rows;
}
} // namespace

TEST(AstraMicrobenchmark, AllGatherMovesGroupSizeTimesCommSize)
{
    // ASTRA-sim's all_gather/16npus_1MB: every rank one ALL_GATHER of
    // comm_size 1 MiB, the input of one rank (Ring::Ring: each of the N-1
    // steps sends comm_size). 16 ranks each send 15 MiB: no faster than
    // 15 MiB at the payload line rate 12.5 GB/s x 4096/4178 (1.2835 ms), and
    // as a ring with ACKs sharing the ports 15 x (1 MiB / B + alpha).
    TempDir dir;
    const std::string prefix = dir.path + "/all_gather";
    for (uint32_t r = 0; r < 16; ++r)
    {
        WriteEt(prefix, r, {Collective(0, ChakraProtoMsg::ALL_GATHER, kMiB)});
    }
    auto run = RunChakra(prefix, 16);
    const auto rows = Collectives(*run);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].first, 16 * kMiB); // nccl-tests' size: the output buffer
    EXPECT_EQ(run->GetTotals().bytesSent, 16 * 15 * kMiB);
    const double t = rows[0].second;
    EXPECT_GE(t, 15.0 * kMiB / (12.5e9 * 4096 / 4178));
    const double ring = 15 * (kMiB / kB + kAlpha);
    EXPECT_NEAR(t / ring, 1.0, 0.02) << t << " vs " << ring;
}

TEST(AstraMicrobenchmark, AllReduceReduceScatterAllToAllSizes)
{
    // 8 ranks, one after the other: all-reduce, reduce-scatter and
    // all-to-all of comm_size S = 8 MiB (nccl-tests' size: ring steps of
    // 1 MiB, as in the all-gather test), then an all-gather of comm_size
    // c = 1 MiB (nccl-tests' size 8 MiB). Bytes each rank sends, and times:
    //   all-reduce ring      2(N-1)/N S   2(N-1)/N S/B + 2(N-1) alpha
    //   reduce-scatter ring   (N-1)/N S    (N-1)/N S/B +  (N-1) alpha
    //   all-to-all direct     (N-1)/N S    (N-1)/N S/B +        alpha
    //   all-gather ring       (N-1) c      (N-1) c/B   +  (N-1) alpha
    TempDir dir;
    const std::string prefix = dir.path + "/mb";
    const ChakraProtoMsg::CollectiveCommType types[] = {ChakraProtoMsg::ALL_REDUCE,
                                                        ChakraProtoMsg::REDUCE_SCATTER,
                                                        ChakraProtoMsg::ALL_TO_ALL,
                                                        ChakraProtoMsg::ALL_GATHER};
    const uint64_t commSize[] = {8 * kMiB, 8 * kMiB, 8 * kMiB, kMiB};
    for (uint32_t r = 0; r < 8; ++r)
    {
        std::vector<EtNode> nodes;
        for (uint64_t i = 0; i < 4; ++i)
        {
            nodes.push_back(Collective(i, types[i], commSize[i]));
            if (i > 0)
            {
                nodes.back().add_data_deps(i - 1);
            }
        }
        WriteEt(prefix, r, nodes);
    }
    auto run = RunChakra(prefix, 8);
    const auto rows = Collectives(*run);
    ASSERT_EQ(rows.size(), 4u);
    const double s = 8 * kMiB;
    const double expected[] = {14.0 / 8 * s / kB + 14 * kAlpha,
                               7.0 / 8 * s / kB + 7 * kAlpha,
                               7.0 / 8 * s / kB + kAlpha,
                               7.0 * kMiB / kB + 7 * kAlpha};
    for (int i = 0; i < 4; ++i)
    {
        EXPECT_EQ(rows[i].first, 8 * kMiB) << i; // S in collectives.csv
        EXPECT_NEAR(rows[i].second / expected[i], 1.0, 0.02)
            << i << ": " << rows[i].second << " vs " << expected[i];
    }
    // 8 ranks x ((14 + 7 + 7) MiB + 7 MiB).
    EXPECT_EQ(run->GetTotals().bytesSent, 8 * 35 * kMiB);
}

TEST(AstraCustomCollective, SendsWithoutSrcAndRecvsWithoutDstAreTheOwnRanks)
{
    // A ring all-reduce written as ASTRA-sim's custom collectives are: per
    // round, a SEND of 128 KiB to the next rank (comm_dst, no comm_src),
    // a RECV from the previous one (comm_src, no comm_dst) after the SEND,
    // and a 7 us reduction after the RECV; 2(N-1) = 14 rounds on 8 ranks.
    // A SEND completes when acknowledged: a round is 128 KiB / B + alpha,
    // the ACK's way back (two ACK frames of 86 line bytes and 2 x 1 us; the
    // links are idle then, every rank's message ending together) and 7 us.
    TempDir dir;
    const std::string prefix = dir.path + "/custom_allreduce";
    const int64_t m = 128 * 1024;
    for (uint32_t r = 0; r < 8; ++r)
    {
        std::vector<EtNode> nodes;
        for (uint64_t k = 0; k < 14; ++k)
        {
            EtNode send = MakeNode(3 * k, "send", ChakraProtoMsg::COMM_SEND_NODE);
            if (k > 0)
            {
                send.add_data_deps(3 * k - 1);
            }
            Attr(send, "comm_type")->set_int64_val(5); // as the examples carry it; unused
            Attr(send, "comm_size")->set_int64_val(m);
            Attr(send, "comm_dst")->set_int32_val((r + 1) % 8);
            Attr(send, "comm_tag")->set_int32_val(0);
            EtNode recv = MakeNode(3 * k + 1, "recv", ChakraProtoMsg::COMM_RECV_NODE);
            recv.add_data_deps(3 * k);
            Attr(recv, "comm_size")->set_int64_val(m);
            Attr(recv, "comm_src")->set_int32_val((r + 7) % 8);
            Attr(recv, "comm_tag")->set_int32_val(0);
            EtNode comp = MakeNode(3 * k + 2, "reduce", ChakraProtoMsg::COMP_NODE);
            comp.add_data_deps(3 * k + 1);
            comp.set_duration_micros(7);
            nodes.insert(nodes.end(), {send, recv, comp});
        }
        WriteEt(prefix, r, nodes);
    }
    auto run = RunChakra(prefix, 8);
    EXPECT_EQ(run->GetTotals().bytesSent, 8u * 14 * m);
    const double round = m / kB + kAlpha + (2 * 86 * 8 / 100e9 + 2e-6) + 7e-6;
    const double t = run->GetTotals().simTimeS;
    EXPECT_NEAR(t / (14 * round), 1.0, 0.02) << t << " vs " << 14 * round;
    // Every send is a flow (node id, no collective) on the pair's shared QP.
    ASSERT_EQ(run->GetFlows().size(), 8u * 14);
    EXPECT_EQ(run->GetFlows()[0].node, 0);
    EXPECT_EQ(run->GetFlows()[0].collective, -1);
}

namespace
{
/// Rank r of a PyTorch-converted trace, in the converter's shapes: a METADATA
/// process-group node, CPU ops whose ctrl_deps name the absent root op 1, a
/// CPU-side COMM_COLL without comm_size, the GPU all-reduce (comm_size a
/// double, pg_name "1" for ranks 0-1 and "2" for ranks 2-3) and a GPU kernel
/// of zero duration. Unknown attributes and inputs/outputs throughout.
std::vector<EtNode>
PyTorchRank(uint32_t r)
{
    auto cpuOp = [](uint64_t id, const std::string& name, ChakraProtoMsg::NodeType type) {
        EtNode n = MakeNode(id, name, type);
        n.add_ctrl_deps(1); // the thread's root op, not in the file
        Attr(n, "rf_id")->set_int64_val(static_cast<int64_t>(id) * 3);
        Attr(n, "op_schema")->set_string_val("aten::" + name + "(Tensor self) -> Tensor");
        Attr(n, "is_cpu_op")->set_bool_val(true);
        n.mutable_inputs()->set_values("[[1, 2, 3, 4, 0, 16]]");
        n.mutable_inputs()->set_shapes("[[1024, 256]]");
        n.mutable_inputs()->set_types("['Tensor(float)']");
        n.mutable_outputs()->set_values("[]");
        return n;
    };
    EtNode meta = MakeNode(10, "## process_group:init ##", ChakraProtoMsg::METADATA_NODE);
    meta.add_ctrl_deps(1);
    Attr(meta, "is_cpu_op")->set_bool_val(true);
    meta.mutable_inputs()->set_values(
        "['[{\"pg_name\": \"0\", \"pg_desc\": \"default_pg\", \"backend_config\": "
        "\"cuda:nccl\", \"ranks\": [], \"group_size\": 4, \"group_count\": 3}, {\"pg_name\": "
        "\"1\", \"pg_desc\": \"undefined\", \"backend_config\": \"cuda:nccl\", \"ranks\": [0, "
        "1], \"group_size\": 2, \"group_count\": 3}, {\"pg_name\": \"2\", \"pg_desc\": "
        "\"undefined\", \"backend_config\": \"cuda:nccl\", \"ranks\": [2, 3], \"group_size\": "
        "2, \"group_count\": 3}]']");
    EtNode mul = cpuOp(11, "mul", ChakraProtoMsg::COMP_NODE);
    mul.add_data_deps(10);
    mul.set_duration_micros(10);
    EtNode add = cpuOp(12, "add", ChakraProtoMsg::COMP_NODE);
    add.add_data_deps(10);
    add.set_duration_micros(10);
    EtNode cpuComm = cpuOp(13, "record_param_comms", ChakraProtoMsg::COMM_COLL_NODE);
    cpuComm.add_data_deps(12);
    Attr(cpuComm, "comm_type")->set_int64_val(ChakraProtoMsg::ALL_REDUCE);
    EtNode kernel =
        MakeNode(14, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", ChakraProtoMsg::COMM_COLL_NODE);
    kernel.add_ctrl_deps(13);
    kernel.add_data_deps(13);
    Attr(kernel, "is_cpu_op")->set_bool_val(false);
    Attr(kernel, "comm_type")->set_int64_val(ChakraProtoMsg::ALL_REDUCE);
    Attr(kernel, "comm_size")->set_double_val(1048576.0);
    Attr(kernel, "pg_name")->set_string_val(r < 2 ? "1" : "2");
    Attr(kernel, "stream")->set_int64_val(7);
    EtNode gpu =
        MakeNode(15, "void at::native::vectorized_elementwise_kernel", ChakraProtoMsg::COMP_NODE);
    gpu.add_data_deps(14);
    Attr(gpu, "is_cpu_op")->set_bool_val(false);
    return {meta, mul, add, cpuComm, kernel, gpu};
}

ChakraProtoMsg::GlobalMetadata
PyTorchMetadata()
{
    ChakraProtoMsg::GlobalMetadata m;
    auto* a = m.add_attr();
    a->set_name("schema");
    a->set_string_val("1.1.1-chakra.0.0.4");
    a = m.add_attr();
    a->set_name("pid");
    a->set_uint64_val(4242);
    return m;
}
} // namespace

TEST(AstraPyTorchTrace, RunsWithAbsentParentsMetadataGroupsAndCpuResources)
{
    TempDir dir;
    const std::string prefix = dir.path + "/pt";
    for (uint32_t r = 0; r < 4; ++r)
    {
        WriteEt(prefix, r, PyTorchRank(r), PyTorchMetadata());
    }
    std::vector<TraceGraph> graphs = ReadChakraPrefix(prefix);
    CommGroups groups;
    AddMetadataGroups(graphs, groups);
    EXPECT_EQ(groups.at("1"), std::vector<uint32_t>({0, 1}));
    EXPECT_EQ(groups.at("2"), std::vector<uint32_t>({2, 3}));
    EXPECT_EQ(groups.at("0"), std::vector<uint32_t>({0, 1, 2, 3})); // empty ranks: every rank
    const std::vector<std::string> warnings = ValidateWorkload(graphs, groups);
    // One line per kind: 4 ranks x 4 ctrl_deps on op 1; 4 CPU-side COMM_COLL.
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_EQ(warnings[0].rfind("16 dependencies on nodes absent", 0), 0u) << warnings[0];
    EXPECT_EQ(warnings[1].rfind("4 communication nodes on the CPU side", 0), 0u) << warnings[1];

    LeafSpineHelper ls;
    ls.SetShape(1, 1, 4);
    Ptr<FabricTopology> topo = ls.Install();
    TraceRunner run(topo, graphs, groups);
    run.Start();
    Simulator::Run();
    // The two CPU ops are ready together but share the CPU: add (id 12)
    // starts when mul (id 11) ends, at 10 us; the skipped CPU-side node
    // takes no time, so the all-reduce starts at 20 us: 1 MiB on a pair,
    // ring: 2 steps of 512 KiB: S/B + 2 alpha. The GPU kernel of zero
    // duration takes 1 ns, the only GPU compute time.
    const auto& rec = run.GetEngine().GetRecords();
    ASSERT_EQ(rec.size(), 2u);
    EXPECT_EQ(rec[0].group, std::vector<uint32_t>({0, 1}));
    EXPECT_EQ(rec[1].group, std::vector<uint32_t>({2, 3}));
    const double ar = kMiB / kB + 2 * kAlpha;
    for (uint32_t r = 0; r < 4; ++r)
    {
        const auto& s = run.GetRanks()[r];
        ASSERT_TRUE(s.done);
        EXPECT_EQ(s.nodeStart[2], MicroSeconds(10)); // add
        EXPECT_EQ(s.nodeStart[4], MicroSeconds(20)); // the all-reduce
        EXPECT_EQ(s.compute, NanoSeconds(1));
        EXPECT_EQ(s.finish - s.nodeFinish[4], NanoSeconds(1));
        EXPECT_NEAR((s.nodeFinish[4] - s.nodeStart[4]).GetSeconds() / ar, 1.0, 0.02);
    }
    Simulator::Destroy();
}

TEST(AstraPyTorchTrace, ReadAndWrittenBackIsTheSameMessages)
{
    // Everything not interpreted (attributes, inputs/outputs, GlobalMetadata
    // attributes, a field this schema does not know) survives SerializeChakra
    // and tf-trace-gen convert: the messages compare equal.
    TempDir dir;
    const std::string prefix = dir.path + "/pt";
    std::vector<EtNode> nodes = PyTorchRank(0);
    nodes[1].GetReflection()->MutableUnknownFields(&nodes[1])->AddVarint(99, 7);
    WriteEt(prefix, 0, nodes, PyTorchMetadata());
    WriteEt(prefix, 1, PyTorchRank(1), PyTorchMetadata());
    auto messages = [](const std::string& bytes) {
        std::istringstream in(bytes);
        google::protobuf::io::IstreamInputStream zin(&in);
        ChakraProtoMsg::GlobalMetadata meta;
        bool clean = false;
        EXPECT_TRUE(google::protobuf::util::ParseDelimitedFromZeroCopyStream(&meta, &zin, &clean));
        std::vector<EtNode> out;
        EtNode n;
        while (google::protobuf::util::ParseDelimitedFromZeroCopyStream(&n, &zin, &clean))
        {
            out.push_back(n);
            n.Clear(); // the parser merges into what it is given
        }
        return std::make_pair(meta, out);
    };
    auto same = [&](const std::string& a, const std::string& b) {
        const auto x = messages(a);
        const auto y = messages(b);
        EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(x.first, y.first));
        ASSERT_EQ(x.second.size(), y.second.size());
        for (std::size_t i = 0; i < x.second.size(); ++i)
        {
            EXPECT_TRUE(
                google::protobuf::util::MessageDifferencer::Equals(x.second[i], y.second[i]))
                << x.second[i].DebugString() << " vs " << y.second[i].DebugString();
        }
    };
    auto slurp = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    };
    const std::string original = slurp(prefix + ".0.et");
    same(original, SerializeChakra(ReadChakraFile(prefix + ".0.et", 0)));
    const char* bin = std::getenv("TF_BIN_DIR");
    ASSERT_NE(bin, nullptr);
    const std::string cmd = std::string(bin) + "/tf-trace-gen convert " + prefix + " --out " +
                            dir.path + "/copy > /dev/null 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    same(original, slurp(dir.path + "/copy.0.et"));
    // A value given in the graph replaces the attribute's, in the file's kind
    // when it reads the same, and only that changes.
    TraceGraph g = ReadChakraFile(prefix + ".0.et", 0);
    g.nodes[4].commSize = 2 * kMiB;
    auto changed = messages(SerializeChakra(g)).second;
    auto expected = messages(original).second;
    expected[4].mutable_attr(2)->set_int64_val(2 * kMiB); // was the double 1048576.0
    EXPECT_TRUE(google::protobuf::util::MessageDifferencer::Equals(changed[4], expected[4]))
        << changed[4].DebugString();
}

TEST(AstraAttributes, ReadAsTheFeederReadsThem)
{
    TempDir dir;
    const std::string prefix = dir.path + "/a";
    auto read = [&](const EtNode& n) {
        WriteEt(prefix, 0, {n});
        return ReadChakraFile(prefix + ".0.et", 0).nodes.at(0);
    };
    // Integer kinds convert; the first attribute of a name counts.
    EtNode n = MakeNode(1, "x", ChakraProtoMsg::COMM_COLL_NODE);
    Attr(n, "comm_type")->set_uint32_val(ChakraProtoMsg::ALL_TO_ALL);
    Attr(n, "comm_size")->set_fixed64_val(4096);
    Attr(n, "comm_size")->set_int64_val(1);
    Attr(n, "is_cpu_op")->set_int32_val(1);
    Attr(n, "involved_dim")->mutable_bool_list()->add_values(false);
    TraceNode t = read(n);
    EXPECT_EQ(t.commType, ChakraProtoMsg::ALL_TO_ALL);
    EXPECT_EQ(t.commSize, 4096u);
    EXPECT_TRUE(t.isCpuOp);
    EXPECT_EQ(t.involvedDim, std::vector<bool>({false}));
    // Kinds ASTRA-sim cannot read are one-line errors naming node and
    // attribute, on a node it reads them on (comm_src: a send's).
    auto expectError = [&](const char* attr, auto set, const std::string& text) {
        EtNode b = MakeNode(5,
                            "b",
                            std::string(attr) == "comm_src" ? ChakraProtoMsg::COMM_SEND_NODE
                                                            : ChakraProtoMsg::COMM_COLL_NODE);
        set(Attr(b, attr));
        try
        {
            read(b);
            FAIL() << attr << " accepted";
        }
        catch (const TraceError& e)
        {
            EXPECT_NE(std::string(e.what()).find("node 5: " + std::string(attr) + ": " + text),
                      std::string::npos)
                << e.what();
        }
    };
    expectError(
        "comm_size",
        [](auto* a) { a->set_string_val("1MB"); },
        "expected a non-negative whole number of bytes");
    expectError(
        "comm_size",
        [](auto* a) { a->set_double_val(1.5); },
        "expected a non-negative whole number of bytes");
    expectError(
        "comm_src",
        [](auto* a) { a->set_int32_val(-1); },
        "expected a rank");
    expectError(
        "involved_dim",
        [](auto* a) { a->set_bool_val(true); },
        "expected a bool_list");
    EXPECT_THROW(read(MakeNode(2, "y", static_cast<ChakraProtoMsg::NodeType>(8))), TraceError);
}

TEST(AstraGroups, DefaultGroupFilesAndUnknownNames)
{
    // pg_name "0" is every rank even when a file defines groups; with no
    // group defined at all, any name is every rank (one warning line); with
    // groups, an unknown name is an error.
    std::vector<TraceGraph> g = ParseTextTrace("rank 0\n1: coll all-reduce 1MB group 0\n"
                                               "2: coll all-reduce 1MB group 7 after 1\n"
                                               "rank 1\n1: coll all-reduce 1MB group 0\n"
                                               "2: coll all-reduce 1MB group 7 after 1\n",
                                               "g.txt");
    EXPECT_EQ(FindGroup("0", {{"0", {1}}}), nullptr);
    EXPECT_EQ(FindGroup("", {{"1", {0, 1}}}), nullptr);
    const std::vector<std::string> w = ValidateWorkload(g, {});
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0].rfind("2 collectives name a process group", 0), 0u) << w[0];
    EXPECT_THROW(ValidateWorkload(g, {{"1", {0, 1}}}), TraceError);
    EXPECT_TRUE(ValidateWorkload(g, {{"7", {0, 1}}}).empty());
    // The project's sample files load with ASTRA-sim's integer keys.
    EXPECT_EQ(ReadCommGroups("traces/dp16/groups.json", 16).count("1"), 1u);
    // A scenario's "comm_groups": "empty" is no file, as in ASTRA-sim.
    EXPECT_NO_THROW(ParseScenarioText(
        R"({"topology": {"type": "leaf-spine", "hosts_per_leaf": 8}, "workload": {"type": "chakra",
            "prefix": "traces/pipeline8/pipeline8", "comm_groups": "empty"}})",
        {},
        "e.json"));
    // Text traces still reject a dependency on a node that is not there.
    try
    {
        ParseTextTrace("rank 0\n1: comp 5\n2: comp 5 after 3\n", "typo.txt");
        FAIL();
    }
    catch (const TraceError& e)
    {
        EXPECT_NE(std::string(e.what()).find("typo.txt: line 3: node 3 is not in rank 0"),
                  std::string::npos)
            << e.what();
    }
}

TEST(AstraInvolvedDim, SplitsTheGroupOverTheWorkloadDims)
{
    // dims [2, 4]: rank = i1 + 2 i2. Dimension 1 alone: pairs differing in
    // i1, {0,1} {2,3} {4,5} {6,7}; dimension 2 alone: {0,2,4,6} {1,3,5,7}.
    // An all-gather's size is then comm_size x the sub-group's size.
    TraceCollectiveOptions o;
    o.dims = {2, 4};
    o.algorithms = {{"all-reduce", "hierarchical"}};
    o.dimAlgorithms = {"direct", "ring"};
    std::vector<uint32_t> group{10, 11, 12, 13, 14, 15, 16, 17}; // hosts of ranks 0..7
    TraceNode n;
    n.kind = TraceNode::COMM_COLL;
    n.commType = ChakraProtoMsg::ALL_GATHER;
    n.commSize = 1000;
    n.involvedDim = {true, false};
    auto c = PlanTraceCollective(n, group, o);
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[1].members, std::vector<uint32_t>({12, 13}));
    EXPECT_EQ(c[1].spec.bytes, 2000u);
    n.involvedDim = {false, true, false}; // the third entry has no dimension
    c = PlanTraceCollective(n, group, o);
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[1].members, std::vector<uint32_t>({11, 13, 15, 17}));
    EXPECT_EQ(c[1].spec.bytes, 4000u);
    // A hierarchical all-reduce over one dimension runs that dimension's
    // algorithm; over all of them, hierarchical as configured.
    n.commType = ChakraProtoMsg::ALL_REDUCE;
    c = PlanTraceCollective(n, group, o);
    EXPECT_EQ(c[0].spec.algorithm, "ring");
    EXPECT_EQ(c[0].spec.bytes, 1000u);
    n.involvedDim = {true, true};
    c = PlanTraceCollective(n, group, o);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].spec.algorithm, "hierarchical");
    EXPECT_EQ(c[0].spec.dims, std::vector<uint32_t>({2, 4}));
}

TEST(AstraInvolvedDim, NamedProcessGroupsIgnoreInvolvedDimAndDims)
{
    // ASTRA-sim plans a collective that names a communicator group from
    // that group (Sys::generate_all_reduce and its siblings take the
    // group's plan; CommunicatorGroup::get_collective_plan): a group of
    // every NPU runs over all dimensions, a smaller one as one ring-like
    // dimension over its members, with Ring in place of a
    // multi-dimensional implementation. involved_dim shapes only the
    // default group (pg_name "" or "0").
    TraceCollectiveOptions o;
    o.dims = {2, 4};
    o.algorithms = {{"all-reduce", "hierarchical"}};
    o.dimAlgorithms = {"direct", "ring"};
    const std::vector<uint32_t> world{0, 1, 2, 3, 4, 5, 6, 7};
    TraceNode n;
    n.kind = TraceNode::COMM_COLL;
    n.commType = ChakraProtoMsg::ALL_REDUCE;
    n.commSize = 1000;
    n.involvedDim = {true, false};
    EXPECT_EQ(PlanTraceCollective(n, world, o).size(), 4u); // default group: four pairs
    auto c = PlanTraceCollective(n, world, o, TraceGroupScope::NAMED_WORLD);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].members, world);
    EXPECT_EQ(c[0].spec.algorithm, "hierarchical");
    EXPECT_EQ(c[0].spec.dims, std::vector<uint32_t>({2, 4}));
    c = PlanTraceCollective(n, {1, 3, 6}, o, TraceGroupScope::NAMED_SUBSET);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].members, std::vector<uint32_t>({1, 3, 6}));
    EXPECT_EQ(c[0].spec.algorithm, "ring");
    EXPECT_TRUE(c[0].spec.dims.empty());
    // A one-dimensional algorithm stays what it is configured to be.
    o.algorithms = {{"all-reduce", "halving-doubling"}};
    c = PlanTraceCollective(n, {1, 3, 6, 7}, o, TraceGroupScope::NAMED_SUBSET);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(c[0].spec.algorithm, "halving-doubling");
    // The scope follows the group's size against the trace's ranks.
    const CommGroups groups{{"1", world}, {"2", {1, 3, 6}}};
    for (const auto& [name, scope] :
         std::vector<std::pair<std::string, TraceGroupScope>>{{"1", TraceGroupScope::NAMED_WORLD},
                                                              {"2", TraceGroupScope::NAMED_SUBSET},
                                                              {"0", TraceGroupScope::DEFAULT},
                                                              {"", TraceGroupScope::DEFAULT}})
    {
        n.pgName = name;
        EXPECT_EQ(GroupScopeOf(n, groups, world.size()), scope) << "pg_name " << name;
    }
}

TEST(AstraGroups, SubgroupCollectivesRunFlatUnderAHierarchicalConfiguration)
{
    // Tensor-parallel pairs {0,1} and {2,3} of a 2 x 2 job configured with
    // a hierarchical all-reduce over dims [2, 2]: as in ASTRA-sim each
    // pair's all-reduce is a flat ring over its two members (the dims
    // shape only collectives of every rank). Before, the run was refused:
    // "hierarchical: dims must multiply to the group size 2".
    TempDir dir;
    std::ofstream(dir.path + "/groups.json") << R"({"1": [0, 1], "2": [2, 3]})";
    std::ofstream(dir.path + "/tp.txt")
        << "rank 0\n1: coll all-reduce 1MB group 1\nrank 1\n1: coll all-reduce 1MB group 1\n"
           "rank 2\n1: coll all-reduce 1MB group 2\nrank 3\n1: coll all-reduce 1MB group 2\n";
    const std::string text =
        R"({"topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 4,
        "host_link": {"rate": "100Gbps", "delay": "1us"}},
        "workload": {"type": "text", "path": ")" +
        dir.path + R"(/tp.txt", "comm_groups": ")" + dir.path +
        R"(/groups.json", "dims": [2, 2], "algorithms": {"all-reduce": "hierarchical"}}})";
    ScenarioRunner run(ParseScenarioText(text, {}, "tp.json"));
    run.Build();
    run.Run();
    std::istringstream csv(run.CollectivesCsv());
    std::string line;
    std::getline(csv, line); // header: collective,type,algorithm,bytes,ranks,...
    uint32_t rows = 0;
    while (std::getline(csv, line))
    {
        EXPECT_NE(line.find(",all-reduce,ring,1000000,2,"), std::string::npos) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 2u);
}

TEST(CollectiveFlows, EveryTransferIsAFlowWithItsCollectiveAndStep)
{
    // Ring all-reduce of S = 4 MiB on 4 hosts: 2(N-1) = 6 steps of N = 4
    // transfers of S/N = 1 MiB. Every transfer runs alongside the ACKs of
    // its neighbour's, so its FCT is at least the unloaded one and at most
    // 4264/4178 of it (the ACK bytes sharing the port).
    const std::string text =
        R"({"topology": {"type": "leaf-spine", "leaves": 1, "spines": 1, "hosts_per_leaf": 4,
        "host_link": {"rate": "100Gbps", "delay": "1us"}},
        "workload": {"type": "collective", "collective": "all-reduce", "bytes": "4MiB"},
        "trace": {"flows": [{"collective": 0, "step": 2, "src": 1}]}})";
    ScenarioRunner run(ParseScenarioText(text, {}, "flows.json"));
    run.Build();
    run.Run();
    const auto& flows = run.GetFlows();
    ASSERT_EQ(flows.size(), 24u);
    std::vector<int> perStep(6, 0);
    uint32_t selected = 0;
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        const auto& f = flows[i];
        EXPECT_EQ(f.collective, 0);
        ASSERT_GE(f.step, 0);
        ASSERT_LT(f.step, 6);
        perStep[f.step]++;
        EXPECT_EQ(f.bytes, kMiB);
        EXPECT_TRUE(f.completed);
        const double slowdown = (f.finish - f.start).GetSeconds() / f.idealFct.GetSeconds();
        EXPECT_GE(slowdown, 1.0) << i;
        EXPECT_LE(slowdown, 4264.0 / 4178) << i;
        selected = (f.step == 2 && f.src == 1) ? i : selected;
    }
    EXPECT_EQ(perStep, std::vector<int>(6, 4));
    EXPECT_EQ(run.GetTotals().bytesSent, 24 * kMiB);
    const std::string summary = run.SummaryJson();
    EXPECT_NE(summary.find("\"flows_total\": 24,"), std::string::npos);
    EXPECT_NE(summary.find("\"flows_completed\": 24,"), std::string::npos);
    // cc_trace.csv samples only the selected transfer, while it runs.
    std::istringstream in(run.CcTraceCsv());
    std::string line;
    std::getline(in, line);
    int rows = 0;
    while (std::getline(in, line))
    {
        ++rows;
        EXPECT_EQ(line.substr(line.find(',') + 1,
                              line.find(',', line.find(',') + 1) - line.find(',') - 1),
                  std::to_string(selected))
            << line;
    }
    EXPECT_GT(rows, 0);
    // Selectors survive scenario.json; an index cannot name a flow that is
    // posted at run time, and a step needs its collective.
    ScenarioConfig cfg = ParseScenarioText(text, {}, "flows.json");
    EXPECT_EQ(ParseScenarioText(ScenarioToJson(cfg), {}, "again.json").trace.flows,
              cfg.trace.flows);
    for (const char* bad : {"trace.flows=[3]", R"(trace.flows=[{"step": 1}])"})
    {
        try
        {
            ParseScenarioText(text, {bad}, "flows.json");
            FAIL() << bad;
        }
        catch (const ScenarioError& e)
        {
            EXPECT_NE(std::string(e.what()).find("flows.json: trace.flows[0]: expected"),
                      std::string::npos)
                << e.what();
        }
    }
}

namespace
{
/// \p f throws an \p Error (a TraceError unless named) of one line that
/// contains \p expected.
template <typename Error = TraceError>
void
ExpectTraceError(const std::function<void()>& f, const std::string& expected)
{
    try
    {
        f();
        ADD_FAILURE() << "accepted; expected " << expected;
    }
    catch (const Error& e)
    {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(expected), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}
} // namespace

TEST(AstraBoundary, ARankFileAfterAMissingOneIsRefused)
{
    // Ranks are numbered without gaps (<prefix>.<rank>.et): with files for
    // ranks 0, 1 and 3, rank 2 is missing; reading two ranks and ignoring
    // the third file would run another job than the trace's.
    TempDir dir;
    const std::string prefix = dir.path + "/t";
    for (uint32_t r : {0u, 1u, 3u})
    {
        WriteEt(prefix, r, {MakeNode(1, "c", ChakraProtoMsg::COMP_NODE)});
    }
    ExpectTraceError([&] { ReadChakraPrefix(prefix); },
                     prefix + ".3.et: trace file of rank 3, but none for rank 2");
    // Without the stray file the two ranks read; a zero-padded name is not
    // a rank file of this prefix.
    std::filesystem::rename(prefix + ".3.et", prefix + ".03.et");
    EXPECT_EQ(ReadChakraPrefix(prefix).size(), 2u);
}

TEST(AstraBoundary, ConcatenatedGzipMembersReadAsOneStream)
{
    // `cat a.gz b.gz` is one gzip file of two members (RFC 1952, 2.2) that
    // gunzip reads whole: a trace split across two members must read as the
    // plain trace, all four nodes, not as the first member's part.
    TempDir dir;
    const std::string prefix = dir.path + "/t";
    std::vector<EtNode> nodes;
    for (uint64_t id = 1; id <= 4; ++id)
    {
        nodes.push_back(MakeNode(id, "c" + std::to_string(id), ChakraProtoMsg::COMP_NODE));
    }
    WriteEt(prefix, 0, nodes);
    std::ifstream in(prefix + ".0.et", std::ios::binary);
    const std::string plain((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::size_t cut = plain.size() / 2;
    std::ofstream(dir.path + "/a", std::ios::binary) << plain.substr(0, cut);
    std::ofstream(dir.path + "/b", std::ios::binary) << plain.substr(cut);
    const std::string gz = dir.path + "/gz";
    ASSERT_EQ(std::system(("gzip -c " + dir.path + "/a > " + gz + ".0.et && gzip -c " + dir.path +
                           "/b >> " + gz + ".0.et")
                              .c_str()),
              0);
    const TraceGraph a = ReadChakraFile(prefix + ".0.et", 0);
    const TraceGraph b = ReadChakraFile(gz + ".0.et", 0);
    EXPECT_EQ(b.nodes.size(), 4u);
    EXPECT_EQ(SerializeChakra(b), SerializeChakra(a));
    // Bytes after the last member that are not a gzip member are an error.
    std::ofstream(gz + ".0.et", std::ios::binary | std::ios::app) << "junk";
    EXPECT_THROW(ReadChakraFile(gz + ".0.et", 0), TraceError);
}

TEST(AstraBoundary, MetadataGroupWithARankTwiceIsRefused)
{
    // As in a comm-group file, a process group naming a rank twice is
    // refused (its collective would wait for a member that never comes).
    TempDir dir;
    const std::string prefix = dir.path + "/t";
    EtNode meta = MakeNode(10, "## process_group:init ##", ChakraProtoMsg::METADATA_NODE);
    meta.mutable_inputs()->set_values("['[{\"pg_name\": \"1\", \"ranks\": [0, 0, 1]}]']");
    for (uint32_t r = 0; r < 2; ++r)
    {
        WriteEt(prefix, r, {meta});
    }
    const std::vector<TraceGraph> graphs = ReadChakraPrefix(prefix);
    CommGroups groups;
    ExpectTraceError([&] { AddMetadataGroups(graphs, groups); },
                     "process group \"1\": rank 0 listed twice");
}

TEST(AstraBoundary, ComputeTimesBeyondTheLongestRunAreRefused)
{
    // duration_micros is a uint64: 2^64 - 1 us would wrap ns-3's clock
    // (negative delays). Like the run's own times it is limited to the
    // longest run, 10^6 s = 10^12 us: that much is accepted, one more is not.
    TempDir dir;
    for (uint64_t us : {uint64_t{1000000000000}, uint64_t{1000000000001}, UINT64_MAX})
    {
        const std::string prefix = dir.path + "/d" + std::to_string(us % 1000);
        EtNode c = MakeNode(1, "c", ChakraProtoMsg::COMP_NODE);
        c.set_duration_micros(us);
        WriteEt(prefix, 0, {c});
        const std::string text = R"({"topology": {"type": "leaf-spine", "leaves": 1,
            "spines": 1, "hosts_per_leaf": 2}, "workload": {"type": "chakra", "prefix": ")" +
                                 prefix + R"("}})";
        bool refused = false;
        try
        {
            ScenarioRunner run(ParseScenarioText(text, {}, "astra.json"));
            run.Build();
        }
        catch (const ScenarioError& e)
        {
            refused = true;
            EXPECT_NE(std::string(e.what()).find("node 1: duration_micros: expected at most "
                                                 "1000000000000"),
                      std::string::npos)
                << e.what();
        }
        EXPECT_EQ(refused, us > 1000000000000) << us;
        Simulator::Destroy();
    }
}

TEST(AstraBoundary, EveryMemberJoinsEachCollectiveOfItsGroupAsTheOthersDo)
{
    // Under the default (collective) synchronisation a collective starts
    // when as many ranks as its group has have issued it: a non-member, or
    // a member with one collective too many or too few, used to start
    // another rank's collective or leave the others waiting to the stop
    // time. Now the first two are refused before the run, and members that
    // disagree on the type or size of one collective when they join it.
    TempDir dir;
    const CommGroups pairs{{"1", {0, 1}}};
    auto graphs = [&](const std::string& name, const std::vector<std::vector<EtNode>>& ranks) {
        const std::string prefix = dir.path + "/" + name;
        for (uint32_t r = 0; r < ranks.size(); ++r)
        {
            WriteEt(prefix, r, ranks[r]);
        }
        return ReadChakraPrefix(prefix);
    };
    auto inGroup = [](EtNode n, const std::string& pg) {
        Attr(n, "pg_name")->set_string_val(pg);
        return n;
    };
    const EtNode ar = Collective(1, ChakraProtoMsg::ALL_REDUCE, kMiB);
    // Rank 2 names group "1", which is ranks 0 and 1.
    const auto outsider =
        graphs("out", {{inGroup(ar, "1")}, {inGroup(ar, "1")}, {inGroup(ar, "1")}});
    ExpectTraceError([&] { ValidateWorkload(outsider, pairs); },
                     "node 1: rank 2 is not in process group \"1\"");
    // Rank 0 issues two all-reduces on every rank, rank 1 one.
    EtNode ar2 = Collective(2, ChakraProtoMsg::ALL_REDUCE, kMiB);
    ar2.add_data_deps(1);
    const auto extra = graphs("extra", {{ar, ar2}, {ar}});
    ExpectTraceError([&] { ValidateWorkload(extra, {}); },
                     "rank 0 issues 2 collectives of process group every rank, rank 1 1");
    // The same counts validate; ranks that agree run.
    EXPECT_NO_THROW(ValidateWorkload(graphs("same", {{ar, ar2}, {ar, ar2}}), {}));
    // An all-reduce on rank 0 and an all-gather of the same size on rank 1
    // (counts agree): refused when the second joins.
    WriteEt(dir.path + "/mix", 0, {ar});
    WriteEt(dir.path + "/mix", 1, {Collective(1, ChakraProtoMsg::ALL_GATHER, kMiB)});
    ExpectTraceError([&] { RunChakra(dir.path + "/mix", 2); },
                     "collective #0 of process group \"0\" differs from rank 0's (node 1) in type, "
                     "comm_size or involved_dim");
    Simulator::Destroy();
    // And one of another size.
    WriteEt(dir.path + "/size", 0, {ar});
    WriteEt(dir.path + "/size", 1, {Collective(1, ChakraProtoMsg::ALL_REDUCE, 2 * kMiB)});
    ExpectTraceError([&] { RunChakra(dir.path + "/size", 2); }, "differs from rank 0's");
    Simulator::Destroy();
}

TEST(AstraBoundary, AReceiveTakesAMessageOfItsSize)
{
    // ASTRA-sim matches a receive with a message by (tag, src, dst, size).
    // Rank 0 sends 1000 B, then 8 MiB, same tag; rank 1 receives 8 MiB,
    // computes 1 ms, then receives 1000 B. The 8 MiB receive must wait for
    // the 8 MiB message, sent after the 1000 B one on the same QP; the
    // 1000 B one has arrived by then, so the run ends 1 ms after the 8 MiB
    // arrival. That arrival is no earlier than (1000 B + 8 MiB) at the
    // one-way payload rate B1 = 100 Gb/s x 4096 / 4178 (ACKs go the other
    // way here) and no later than at B (which also gives a share of the
    // direction to ACKs) plus one alpha. Matched by tag alone, the 8 MiB
    // receive took the 1000 B message at about 3 us and the run ended near
    // 1 ms.
    TempDir dir;
    const std::string prefix = dir.path + "/sizes";
    auto send = [](uint64_t id, int64_t bytes) {
        EtNode n = MakeNode(id, "send", ChakraProtoMsg::COMM_SEND_NODE);
        Attr(n, "comm_size")->set_int64_val(bytes);
        Attr(n, "comm_dst")->set_int32_val(1);
        Attr(n, "comm_tag")->set_int32_val(7);
        return n;
    };
    auto recv = [](uint64_t id, int64_t bytes) {
        EtNode n = MakeNode(id, "recv", ChakraProtoMsg::COMM_RECV_NODE);
        Attr(n, "comm_size")->set_int64_val(bytes);
        Attr(n, "comm_src")->set_int32_val(0);
        Attr(n, "comm_tag")->set_int32_val(7);
        return n;
    };
    WriteEt(prefix, 0, {send(1, 1000), send(2, 8 * kMiB)});
    EtNode comp = MakeNode(2, "comp", ChakraProtoMsg::COMP_NODE);
    comp.set_duration_micros(1000);
    comp.add_data_deps(1);
    EtNode small = recv(3, 1000);
    small.add_data_deps(2);
    WriteEt(prefix, 1, {recv(1, 8 * kMiB), comp, small});
    auto run = RunChakra(prefix, 2);
    const double bytes = 1000 + 8.0 * kMiB;
    const double b1 = 100e9 / 8 * 4096 / 4178;
    const double t = run->GetTotals().simTimeS;
    EXPECT_GE(t, bytes / b1 + 1e-3);
    EXPECT_LE(t, bytes / kB + kAlpha + 1e-3);
    Simulator::Destroy();
}

TEST(AstraBoundary, ADeadlockedTraceIsAnErrorWhenNothingIsLeftInFlight)
{
    // Receives and collective joins wait on other ranks; only compute
    // timers, posted sends and started collectives complete nodes. When
    // none of those is left and a rank is unfinished, no event can finish
    // a node any more: the run ends there with one line naming a waiting
    // node, instead of running to the stop time.
    struct Outcome
    {
        std::string error;
        Time at;   //!< when the run ended (the error, or the stop time)
        bool done; //!< every rank finished
    };

    auto run = [](const std::string& text, const CommGroups& groups) {
        std::vector<TraceGraph> graphs = ParseTextTrace(text, "d.txt");
        LeafSpineHelper ls;
        ls.SetShape(1, 1, 2);
        Ptr<FabricTopology> topo = ls.Install();
        TraceRunner r(topo, graphs, groups);
        r.Start();
        Simulator::Stop(Seconds(1));
        std::string error;
        try
        {
            Simulator::Run();
            r.ThrowIfFailed();
        }
        catch (const TraceError& e)
        {
            error = e.what();
        }
        bool done = true;
        for (const auto& rank : r.GetRanks())
        {
            done = done && rank.done;
        }
        const Time at = Simulator::Now();
        Simulator::Destroy();
        return Outcome{error, at, done};
    };
    // Rank 0 computes 10 us, then waits for rank 1's message (4KB is 4000
    // bytes in this project's units); rank 1 first
    // waits for one from rank 0 (tag 2) that rank 0 never sends. Deadlocked
    // when rank 0's compute ends: at exactly 10 us.
    const auto [recvError, recvAt, recvDone] =
        run("rank 0\n1: comp 10\n2: recv 4KB from 1 tag 1 after 1\n"
            "rank 1\n1: recv 4KB from 0 tag 2\n"
            "2: send 4KB to 0 tag 1 after 1\n",
            {});
    EXPECT_EQ(recvAt, MicroSeconds(10));
    EXPECT_FALSE(recvDone);
    EXPECT_NE(recvError.find("d.txt (rank 0): node 2: waits to receive 4000 bytes from rank 1 "
                             "(tag 1) with nothing in flight: the trace is deadlocked (2 ranks "
                             "unfinished"),
              std::string::npos)
        << recvError;
    // Collectives joined in opposite orders: each rank waits in the group
    // the other has not joined yet, from the start.
    const auto [collError, collAt, collDone] = run("rank 0\n1: coll all-reduce 1MB group 1\n"
                                                   "2: coll all-reduce 1MB group 2 after 1\n"
                                                   "rank 1\n1: coll all-reduce 1MB group 2\n"
                                                   "2: coll all-reduce 1MB group 1 after 1\n",
                                                   {{"1", {0, 1}}, {"2", {0, 1}}});
    EXPECT_EQ(collAt, Seconds(0));
    EXPECT_FALSE(collDone);
    EXPECT_NE(collError.find("node 1: waits in collective #0 of process group \"1\", joined by 1 "
                             "of its 2 members with nothing in flight"),
              std::string::npos)
        << collError;
    // The same trace with consistent orders completes: no false alarm.
    const auto [okError, okAt, okDone] = run("rank 0\n1: coll all-reduce 1MB group 1\n"
                                             "2: coll all-reduce 1MB group 2 after 1\n"
                                             "rank 1\n1: coll all-reduce 1MB group 1\n"
                                             "2: coll all-reduce 1MB group 2 after 1\n",
                                             {{"1", {0, 1}}, {"2", {0, 1}}});
    EXPECT_EQ(okError, "");
    EXPECT_TRUE(okDone);
}

TEST(AstraBoundary, ACollectiveWithoutCommTypeIsNamedSo)
{
    // A COMM_COLL node without comm_type was reported as "comm_type -1 is
    // not simulated", a value the file never held.
    TempDir dir;
    EtNode n = MakeNode(1, "coll", ChakraProtoMsg::COMM_COLL_NODE);
    Attr(n, "comm_size")->set_int64_val(1024);
    WriteEt(dir.path + "/t", 0, {n});
    const std::vector<TraceGraph> graphs = ReadChakraPrefix(dir.path + "/t");
    ExpectTraceError([&] { ValidateGraph(graphs[0]); }, "node 1: collective with no comm_type");
}

TEST(AstraBoundary, ASendOrReceiveWithoutCommSizeIsRefusedWhateverItsCommType)
{
    // Only a barrier collective moves no data. A SEND carrying comm_type 9
    // (BARRIER) is still a send, which ASTRA-sim issues without reading
    // comm_type; without comm_size it is an error, not a 0-byte message
    // (which aborted the run in RdmaQueuePair::Post).
    for (const char* op : {"send 1KB to 1", "recv 1KB from 1"})
    {
        std::vector<TraceGraph> g =
            ParseTextTrace(std::string("rank 0\n1: ") + op + "\nrank 1\n1: comp 1\n", "z.txt");
        g[0].nodes[0].commType = ChakraProtoMsg::BARRIER;
        g[0].nodes[0].commSize = 0;
        g[0].nodes[0].hasCommSize = false;
        ExpectTraceError([&] { ValidateWorkload(g, {}); },
                         "node 1: communication without comm_size");
    }
}

TEST(AstraBoundary, ACommSizeOfZeroIsASizeNotAnAbsentOne)
{
    // comm_size 0, given, was refused as "communication without comm_size",
    // a field the file does have. ASTRA-sim passes a given 0 on (its feeder
    // throws only for an absent one). A collective of 0 bytes moves no data
    // and completes when its members have all joined it; a SEND or RECV of
    // 0 bytes is refused as such (RdmaQueuePair::Post needs one byte).
    TempDir dir;
    const std::string prefix = dir.path + "/z";
    // Rank r computes 5 (r + 1) us, joins the empty all-reduce, then a 1 MiB
    // one. The empty one can only start when rank 1 joins, at 10 us, and
    // takes no time; the 1 MiB one starts at that same 10 us.
    for (uint32_t r = 0; r < 2; ++r)
    {
        EtNode comp = MakeNode(1, "comp", ChakraProtoMsg::COMP_NODE);
        comp.set_duration_micros(5 * (r + 1));
        EtNode empty = Collective(2, ChakraProtoMsg::ALL_REDUCE, 0);
        empty.add_data_deps(1);
        EtNode full = Collective(3, ChakraProtoMsg::ALL_REDUCE, kMiB);
        full.add_data_deps(2);
        WriteEt(prefix, r, {comp, empty, full});
    }
    const std::vector<TraceGraph> graphs = ReadChakraPrefix(prefix);
    ASSERT_EQ(graphs.size(), 2u);
    EXPECT_TRUE(graphs[0].nodes[1].hasCommSize);
    EXPECT_EQ(graphs[0].nodes[1].commSize, 0u);
    const std::vector<std::string> warnings = ValidateWorkload(graphs, {});
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("2 collective nodes of comm_size 0 move no data"), std::string::npos)
        << warnings[0];
    auto run = RunChakra(prefix, 2);
    std::istringstream in(run->CollectivesCsv());
    std::string line;
    std::getline(in, line); // collective,type,algorithm,bytes,ranks,group,start_s,finish_s,...
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line))
    {
        rows.emplace_back();
        std::stringstream ss(line);
        std::string x;
        while (std::getline(ss, x, ','))
        {
            rows.back().push_back(x);
        }
    }
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0][3], "0");
    EXPECT_DOUBLE_EQ(std::stod(rows[0][6]), 10e-6); // start: the last member's join
    EXPECT_DOUBLE_EQ(std::stod(rows[0][7]), 10e-6); // finish: no data, no time
    EXPECT_EQ(rows[0].back(), "1");
    EXPECT_EQ(std::stoull(rows[1][3]), kMiB);
    EXPECT_DOUBLE_EQ(std::stod(rows[1][6]), 10e-6);
    EXPECT_EQ(rows[1].back(), "1");
    Simulator::Destroy();
    // Per-rank completion has nothing to complete a rank's empty part on.
    ExpectTraceError<ScenarioError>([&] { RunChakra(prefix, 2, R"(, "sync": "rank")"); },
                                    "node 2: collective #0 of process group \"\" has comm_size 0: "
                                    "a collective that moves no data has no per-rank completion");
    Simulator::Destroy();
    // A message of 0 bytes, either end.
    for (auto type : {ChakraProtoMsg::COMM_SEND_NODE, ChakraProtoMsg::COMM_RECV_NODE})
    {
        EtNode m = MakeNode(1, "m", type);
        Attr(m, "comm_src")->set_int64_val(0);
        Attr(m, "comm_dst")->set_int64_val(1);
        Attr(m, "comm_size")->set_int64_val(0);
        WriteEt(prefix + "m", 0, {m});
        ExpectTraceError([&] { ValidateGraph(ReadChakraFile(prefix + "m.0.et", 0)); },
                         "node 1: comm_size 0: a message of no bytes is not simulated");
    }
}

TEST(AstraAttributes, ReadOnlyOnTheNodesAstraSimReadsThemOn)
{
    // FeederV3 converts an attribute when the workload asks for it, and the
    // workload asks for comm_type, pg_name and involved_dim on collectives,
    // comm_src, comm_dst and comm_tag on sends and receives, comm_size on
    // those three and is_cpu_op on every node. A kind it cannot convert on
    // any other node (a string comm_size on a compute node, a negative
    // comm_src on a collective) was an error here, refusing a trace that
    // ASTRA-sim runs; and a bool, which it converts to 0 or 1 wherever it
    // reads an integer, was refused as "expected an integer".
    TempDir dir;
    const std::string prefix = dir.path + "/k";
    EtNode comp = MakeNode(1, "comp", ChakraProtoMsg::COMP_NODE);
    comp.set_duration_micros(3);
    Attr(comp, "comm_size")->set_string_val("1MB");
    Attr(comp, "comm_type")->set_string_val("ALL_REDUCE");
    Attr(comp, "involved_dim")->set_bool_val(true);
    Attr(comp, "is_cpu_op")->set_int32_val(1);
    EtNode coll = Collective(2, ChakraProtoMsg::ALL_REDUCE, 4096);
    Attr(coll, "comm_src")->set_int32_val(-1);
    Attr(coll, "comm_tag")->set_string_val("t");
    EtNode send = MakeNode(3, "send", ChakraProtoMsg::COMM_SEND_NODE);
    Attr(send, "comm_dst")->set_int64_val(1);
    Attr(send, "comm_size")->set_bool_val(true);
    Attr(send, "comm_tag")->set_bool_val(true);
    Attr(send, "comm_type")->set_string_val("x");
    Attr(send, "pg_name")->mutable_bool_list()->add_values(true);
    Attr(send, "involved_dim")->set_int64_val(7);
    WriteEt(prefix, 0, {comp, coll, send});
    const TraceGraph g = ReadChakraFile(prefix + ".0.et", 0);
    ASSERT_EQ(g.nodes.size(), 3u);
    EXPECT_TRUE(g.nodes[0].isCpuOp);
    EXPECT_FALSE(g.nodes[0].hasCommSize);
    EXPECT_EQ(g.nodes[0].commType, -1);
    EXPECT_TRUE(g.nodes[0].involvedDim.empty());
    EXPECT_EQ(g.nodes[1].commSrc, -1);
    EXPECT_EQ(g.nodes[1].commTag, 0);
    EXPECT_EQ(g.nodes[1].commSize, 4096u);
    EXPECT_EQ(g.nodes[2].commSize, 1u); // true
    EXPECT_EQ(g.nodes[2].commTag, 1);
    EXPECT_EQ(g.nodes[2].commDst, 1);
    EXPECT_EQ(g.nodes[2].commType, -1);
    EXPECT_TRUE(g.nodes[2].pgName.empty());
    EXPECT_TRUE(g.nodes[2].involvedDim.empty());
    // Where it is read, a kind it cannot convert is still an error.
    EtNode bad = Collective(4, ChakraProtoMsg::ALL_REDUCE, 1);
    Attr(bad, "involved_dim")->set_int64_val(7);
    WriteEt(prefix + "b", 0, {bad});
    ExpectTraceError([&] { ReadChakraFile(prefix + "b.0.et", 0); },
                     "node 4: involved_dim: expected a bool_list");
}

TEST(AstraAttributes, AnUnsignedCommSizeKeepsItsWholeRange)
{
    // comm_size as uint64_val of 2^63 was read as -2^63 and refused as
    // "expected a non-negative whole number of bytes", which it is. It reads
    // as 2^63 (as FeederV3 reads it), the run refuses it by its limit on a
    // message (10^15 B), and a trace written back keeps the value.
    TempDir dir;
    const std::string prefix = dir.path + "/u";
    EtNode n = MakeNode(1, "c", ChakraProtoMsg::COMM_COLL_NODE);
    Attr(n, "comm_type")->set_int64_val(ChakraProtoMsg::ALL_REDUCE);
    Attr(n, "comm_size")->set_uint64_val(uint64_t{1} << 63);
    WriteEt(prefix, 0, {n});
    WriteEt(prefix, 1, {n});
    std::vector<TraceGraph> graphs = ReadChakraPrefix(prefix);
    EXPECT_EQ(graphs[0].nodes[0].commSize, uint64_t{1} << 63);
    graphs[0].nodes[0].raw.clear(); // written afresh, not from the message read
    WriteChakraFiles(dir.path + "/w", {graphs[0]});
    EXPECT_EQ(ReadChakraFile(dir.path + "/w.0.et", 0).nodes.at(0).commSize, uint64_t{1} << 63);
    ExpectTraceError<ScenarioError>([&] { RunChakra(prefix, 2); },
                                    "node 1: comm_size: expected at most 1000000000000000 bytes, "
                                    "got 9223372036854775808");
    Simulator::Destroy();
}
