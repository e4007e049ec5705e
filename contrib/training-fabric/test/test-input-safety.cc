/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Hostile input, without simulating: the input-file reader (regular files
 * under a size limit only), bounded JSON nesting, and the values that used
 * to pass validation and give a silent wrong answer. Runs from the
 * repository root (ctest's working directory), in well under a second.
 */
#include "ns3/execution-trace.h"
#include "ns3/fabric-topology.h"
#include "ns3/input-file.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-registry.h"
#include "ns3/simulator.h"
#include "ns3/topology-file-helper.h"

#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const char* kIncastFile = "examples/incast-8to1.json";

/// The message of the ScenarioError that loading the incast example with \p sets throws.
std::string
LoadError(const std::vector<std::string>& sets)
{
    try
    {
        LoadScenarioFile(kIncastFile, sets);
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

/// A file of \p bytes 'x' characters in the test's temporary directory.
std::string
FileOf(const std::string& name, std::size_t bytes)
{
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
    return path;
}

/// \p levels nested arrays, the innermost empty: "[[...]]".
std::string
Nested(std::size_t levels)
{
    return std::string(levels, '[') + std::string(levels, ']');
}

} // namespace

TEST(InputFile, ReadsARegularFileUpToItsLimitAndNotOneByteMore)
{
    // The limit is inclusive: a file of exactly maxBytes is read whole, one
    // byte more is refused with the limit named.
    std::string text;
    std::string error;
    ASSERT_TRUE(TryReadInputFile(FileOf("hundred", 100), "test file", 100, text, error)) << error;
    EXPECT_EQ(text, std::string(100, 'x'));
    const std::string big = FileOf("hundred-and-one", 101);
    EXPECT_FALSE(TryReadInputFile(big, "test file", 100, text, error));
    EXPECT_EQ(error,
              big + ": cannot open the test file (larger than the 100-byte limit for a test file)");
}

TEST(InputFile, RefusesDirectoriesDevicesAndFifosWithoutReading)
{
    std::string text;
    std::string error;
    EXPECT_FALSE(TryReadInputFile("traces", "scenario file", 1 << 20, text, error));
    EXPECT_EQ(error, "traces: cannot open the scenario file (it is a directory)");
    // /dev/zero never ends: refused by its kind, not after reading the limit.
    EXPECT_FALSE(TryReadInputFile("/dev/zero", "scenario file", 1ULL << 40, text, error));
    EXPECT_EQ(error,
              "/dev/zero: cannot open the scenario file (it is a character device, not a "
              "regular file)");
    // A FIFO without a writer: a blocking open would wait forever.
    const std::string fifo = ::testing::TempDir() + "input-fifo";
    unlink(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(TryReadInputFile(fifo, "topology file", 1 << 20, text, error));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_EQ(error, fifo + ": cannot open the topology file (it is a FIFO, not a regular file)");
    unlink(fifo.c_str());
    EXPECT_FALSE(TryReadInputFile("no-such-file", "trace file", 1 << 20, text, error));
    EXPECT_EQ(error, "no-such-file: cannot open the trace file (No such file or directory)");
}

TEST(InputFile, EveryReaderOfTheScenarioUsesIt)
{
    // A directory where each kind of input file is expected: one line naming
    // the scenario, the path and the reason, for every open site.
    EXPECT_EQ(LoadError({}), "");
    try
    {
        LoadScenarioFile("/dev/zero", {});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_STREQ(e.what(),
                     "/dev/zero: cannot open the scenario file (it is a character device, not a "
                     "regular file)");
    }
    const std::string prefix = std::string(kIncastFile) + ": ";
    EXPECT_EQ(LoadError({"topology={\"type\": \"file\", \"path\": \"traces\"}"}),
              prefix + "topology.path: traces: cannot open the topology file (it is a directory)");
    EXPECT_EQ(LoadError({"workload={\"type\": \"text\", \"path\": \"traces\"}"}),
              prefix + "workload: traces: cannot open the text trace (it is a directory)");
    EXPECT_EQ(LoadError({"topology.hosts_per_leaf=8",
                         "workload={\"type\": \"chakra\", \"prefix\": \"traces/dp16/dp16\", "
                         "\"comm_groups\": \"traces\"}"}),
              prefix + "workload: traces: cannot open the comm-group file (it is a directory)");
    EXPECT_EQ(LoadError({"workload={\"type\": \"chakra\", \"prefix\": \"/dev/zero\"}"}),
              prefix + "workload: /dev/zero.0.et: no trace file for rank 0 (expected "
                       "<prefix>.<rank>.et)");
    try
    {
        TopologyFileHelper::CountHosts("/dev/zero");
        FAIL();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("character device"), std::string::npos);
    }
}

TEST(JsonDepth, SixtyFourLevelsParseAndSixtyFiveAreRefused)
{
    // The top-level object is level 1, so "name" holding k nested arrays
    // makes 1 + k levels: k = 63 is the deepest document accepted (it then
    // fails on its meaning: a name is a string), k = 64 is refused while
    // parsing, naming the top-level key.
    const auto doc = [](std::size_t k) { return "{\"name\": " + Nested(k) + "}"; };
    static_assert(InputLimits::kJsonDepth == 64, "the levels below assume 64");
    try
    {
        ParseScenarioText(doc(63), {}, "deep.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("deep.json: name: expected a string"),
                  std::string::npos)
            << e.what();
    }
    try
    {
        ParseScenarioText(doc(64), {}, "deep.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_STREQ(e.what(),
                     "deep.json: name[0]...: nested deeper than 64 levels of arrays and objects");
    }
}

TEST(JsonDepth, AHundredThousandLevelsAreAnErrorNotAStackOverflow)
{
    // The case that crashed (SIGSEGV while formatting the error): in the
    // file, in a --set value, and in a comm-group file.
    const std::string deep = Nested(100000);
    try
    {
        ParseScenarioText("{\"workload\": " + deep + "}", {}, "deep.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("workload[0]...: nested deeper than 64"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(LoadError({"workload.bytes=" + deep}),
              std::string(kIncastFile) +
                  ": --set workload.bytes[0][0]...: nested deeper than 64 levels of arrays and "
                  "objects");
    const std::string groups = ::testing::TempDir() + "deep-groups.json";
    std::ofstream(groups) << "{\"1\": " << deep << "}";
    try
    {
        ReadCommGroups(groups, 16);
        FAIL();
    }
    catch (const TraceError& e)
    {
        EXPECT_EQ(std::string(e.what()), groups + ": JSON nested deeper than 64 levels");
    }
}

TEST(SilentWrongResults, IdealFctIsExactForHugeMessagesAndNeverWraps)
{
    // Hosts 0 and 1 share a leaf: two 100 Gb/s links with 1 us cables. A
    // full frame is 4096 + 58 = 4154 B, 4178 line bytes: s = 4178 x 8 / 1e11
    // s = 334,240 ps. With n full frames the last leaves link 1 at n s, link
    // 2 at (n + 1) s + d, and arrives d later: FCT = (n + 1) s + 2 d.
    LeafSpineHelper ls;
    ls.SetShape(2, 2, 2);
    ls.SetHostLink(DataRate("100Gbps"), MicroSeconds(1));
    ls.SetFabricLink(DataRate("100Gbps"), MicroSeconds(1));
    Ptr<FabricTopology> topo = ls.Install();
    const int64_t s = 334240;
    const int64_t d = 1000000;
    // 10^15 B (the scenario maximum) = 244,140,625,000 frames of 4096 B.
    EXPECT_EQ(topo->GetIdealFct(0, 1, 1000000000000000ULL, 4096),
              PicoSeconds((244140625000LL + 1) * s + 2 * d));
    // 2^40 B = 2^28 frames.
    EXPECT_EQ(topo->GetIdealFct(0, 1, 1ULL << 40, 4096),
              PicoSeconds(((1LL << 28) + 1) * s + 2 * d));
    // 2^64 - 1 B: 2^52 frames take 1.5 x 10^21 ps, beyond the clock (it used
    // to wrap to a few microseconds).
    EXPECT_EQ(topo->GetIdealFct(0, 1, UINT64_MAX, 4096), Time::Max());
    Simulator::Destroy();
}

TEST(SilentWrongResults, ValuesThatUsedToPassAreErrorsNamingTheKey)
{
    const std::string prefix = std::string(kIncastFile) + ": ";
    // fat-tree k: 0 used to build the default k = 4 tree.
    EXPECT_EQ(LoadError({"topology={\"type\": \"fat-tree\", \"k\": 0}"}),
              prefix + "topology.k: expected an even number of at least 2, got 0");
    // A flow starting at stop would never start (stop is 100 ms).
    EXPECT_EQ(LoadError({"workload.start=\"100ms\""}),
              prefix + "workload.start: the flow would start at or after stop (100ms): "
                       "expected an earlier start or a later stop, got \"100ms\"");
    EXPECT_EQ(LoadError({"workload.start=\"99999999999ps\""}), "");
    // Messages: 10^15 B is the largest (and 2^64 - 1 used to wrap to 0 packets).
    EXPECT_EQ(LoadError({"workload.bytes=1000000000000000"}), "");
    EXPECT_EQ(LoadError({"workload.bytes=1000000000000001"}),
              prefix + "workload.bytes: expected at most 1000000000000000 bytes, got "
                       "1000000000000001");
    EXPECT_EQ(LoadError({"workload.bytes=18446744073709551615"}),
              prefix + "workload.bytes: expected at most 1000000000000000 bytes, got "
                       "18446744073709551615");
    // Times: 10^6 s is the largest, and the error says so.
    EXPECT_EQ(LoadError({"stop=\"1000000s\""}), "");
    EXPECT_EQ(LoadError({"stop=\"1000000.000000000001s\""}),
              prefix + "stop: expected a time of at most 1000000s (11.6 days: sums of times "
                       "must stay inside the simulator's 2^63 ps clock), got "
                       "\"1000000.000000000001s\"");
}

TEST(SilentWrongResults, NamesAreUtf8AndShortEnoughForAFileName)
{
    const std::string prefix = std::string(kIncastFile) + ": ";
    EXPECT_EQ(LoadError({"name=r\xc3\xa9seau-\xe2\x82\xac"}), ""); // "réseau-€"
    EXPECT_EQ(LoadError({"name=r\xff"}),
              prefix + "name: expected valid UTF-8 text, got \"r\\ufffd\"");
    EXPECT_EQ(LoadError({"name=" + std::string(200, 'n')}), "");
    EXPECT_EQ(LoadError({"name=" + std::string(201, 'n')}),
              prefix + "name: expected at most 200 bytes (it becomes part of file names), got "
                       "201");
    // RFC 3629's table: 1-4 byte forms; overlong forms, surrogates, values
    // above U+10FFFF and truncated sequences are not UTF-8.
    EXPECT_TRUE(IsValidUtf8("a\xc2\x80\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf"));
    EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));         // overlong '/'
    EXPECT_FALSE(IsValidUtf8("\xe0\x80\xaf"));     // overlong '/'
    EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));     // U+D800, a surrogate
    EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80")); // U+110000
    EXPECT_FALSE(IsValidUtf8("\xe2\x82"));         // truncated
    EXPECT_FALSE(IsValidUtf8("\x80"));             // a lone continuation byte
}

TEST(TopologySize, MoreLinksThanTheLimitAreRefusedBeforeAnythingIsBuilt)
{
    // Each topology's fields alone allowed up to 2^30 hosts, built (tens of
    // GB, minutes) before any check. The links a shape will have are counted
    // from its fields and at most 2^21 = 2,097,152 are accepted. At the
    // limit and one step over it, per type (parse only, nothing built):
    const std::string prefix = std::string(kIncastFile) + ": ";
    auto over = [&](uint64_t links) {
        return prefix + "topology: the fabric would have " + std::to_string(links) +
               " links (at most 2097152: about 12 GB to build, at the 6 KB a link a fat-tree "
               "takes)";
    };
    // Leaf-spine: 512 x 2048 host links + 512 x 2048 x 1 leaf-spine links =
    // 2,097,152; one more spine adds 512.
    const std::string ls = R"(topology={"type": "leaf-spine", "leaves": 512, "hosts_per_leaf": 2048,
        "spines": )";
    EXPECT_EQ(LoadError({ls + "2048}"}), "");
    EXPECT_EQ(LoadError({ls + "2049}"}), over(2097664));
    // Fat-tree: 512 pods x 64 edges x 32 hosts, + 512 x 64 edges x 16 aggs,
    // + 512 x 16 aggs x 64 cores each = 1,048,576 + 524,288 + 524,288; a
    // 65th core per aggregation adds 512 x 16.
    const std::string ft = R"(topology={"type": "fat-tree", "pods": 512, "edges_per_pod": 64,
        "hosts_per_edge": 32, "aggs_per_pod": 16, "cores_per_agg": )";
    EXPECT_EQ(LoadError({ft + "64}"}), "");
    EXPECT_EQ(LoadError({ft + "65}"}), over(2105344));
    // Rail-optimized: per GPU an NVLink and a NIC link, 2 x 4 x 2048 x 64,
    // + 4 units x 64 rails x 4096 spines = 1,048,576 + 1,048,576; one more
    // server adds 2 x 4 x 64.
    const std::string ro = R"(topology={"type": "rail-optimized", "scale_units": 4,
        "nics_per_server": 64, "spines": 4096, "servers": )";
    EXPECT_EQ(LoadError({ro + "2048}"}), "");
    EXPECT_EQ(LoadError({ro + "2049}"}), over(2097664));
    // The 4096-cubed leaf-spine the fields allow: 2 x 4096^2 links, refused
    // at once rather than built.
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(LoadError({R"(topology={"type": "leaf-spine", "leaves": 4096, "spines": 4096,
        "hosts_per_leaf": 4096})"}),
              over(33554432));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(TopologySize, EachShapeCountsTheLinksItsHelperBuilds)
{
    // The counts the limit is checked against, by hand and against the
    // built fabric, for small shapes of every type.
    struct Case
    {
        std::string topology;
        uint32_t links;
    };

    const std::vector<Case> cases = {
        // 3 x 4 hosts, 3 leaves x 2 spines x 2 parallel links
        {R"({"type": "leaf-spine", "leaves": 3, "spines": 2, "hosts_per_leaf": 4,
            "links_per_pair": 2})",
         12 + 12},
        // 2 pods x 2 edges x 2 hosts, 2 x 2 edges x 3 aggs, 2 x 3 aggs x 2 cores
        {R"({"type": "fat-tree", "pods": 2, "edges_per_pod": 2, "aggs_per_pod": 3,
            "hosts_per_edge": 2, "cores_per_agg": 2})",
         8 + 12 + 12},
        // 2 units x 2 servers x 2 GPUs: 8 NVLinks, 8 NIC links; 2 x 2 rails x 3 spines
        {R"({"type": "rail-optimized", "scale_units": 2, "servers": 2, "nics_per_server": 2,
            "spines": 3})",
         8 + 8 + 12},
        // 4 x 3 torus, wrapped: 12 hosts, 3 rings of 4 (4 links each), 4 rings of 3 (3 each)
        {R"({"type": "torus", "dims": [4, 3]})", 12 + 12 + 12},
        // 4 x 2 x 3, not wrapped: 24 hosts, 6 lines of 4 (3 links), 12 of 2 (1), 8 of 3 (2)
        {R"({"type": "torus", "dims": [4, 2, 3], "wrap": false})", 24 + 18 + 12 + 16},
        // A ring of two has one link, wrapped or not: 2 hosts, 1 link
        {R"({"type": "torus", "dims": [2]})", 2 + 1},
    };
    for (const Case& c : cases)
    {
        const ScenarioConfig cfg = ParseScenarioText(
            R"({"workload": {"type": "flows", "flows": [{"src": 0, "dst": 1, "bytes": 1}]},
                "topology": )" +
                c.topology + "}",
            {},
            "t.json");
        EXPECT_EQ(cfg.topology->LinkCount(), c.links) << c.topology;
        const Ptr<FabricTopology> topo = cfg.topology->MakeHelper(kIncastFile)->Install();
        EXPECT_EQ(topo->GetNLinks(), c.links) << c.topology;
        Simulator::Destroy();
    }
}

TEST(TopologyFileSize, TheHeaderCannotClaimMoreHostsThanTheFileHasLinks)
{
    // Every host has its own link: 999,999,999 hosts with no link line used
    // to size vectors by the claim (4 GB) before finding the first host unlinked.
    const std::string path = ::testing::TempDir() + "claims.topo";
    std::ofstream(path) << "999999999 0 0\n";
    try
    {
        TopologyFileHelper::CountHosts(path);
        FAIL();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  path + ":1: 999999999 hosts need 999999999 links (one each), the header "
                         "announces 0");
    }
    // Three nodes, one switch, two links: two hosts, each with its link.
    std::ofstream(path) << "3 1 2\n2\n0 2 25Gbps 1us 0\n1 2 25Gbps 1us 0\n";
    EXPECT_EQ(TopologyFileHelper::CountHosts(path), 2u);
}

TEST(JsonNumbers, ANumberBeyondDoubleIsInvalidJsonNotACrash)
{
    // nlohmann::json throws out_of_range (not parse_error) for a number
    // beyond the double range: found by fuzz/scenario-reader-fuzz.
    try
    {
        ParseScenarioText("{\"seed\": 1e999}", {}, "big.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(
            std::string(e.what()).rfind("big.json: invalid JSON: [json.exception.out_of_range", 0),
            0u)
            << e.what();
    }
    // As a --set value it is not JSON, so a string, and the key says what it expected.
    EXPECT_EQ(LoadError({"seed=1e999"}),
              std::string(kIncastFile) + ": seed: expected a non-negative integer, got \"1e999\"");
}

TEST(ErrorLines, ControlCharactersAreReplacedAndLongMessagesCutInTheMiddle)
{
    // A NUL would end what() (a C string) there; a line break would make two lines.
    EXPECT_EQ(OneLineError(std::string("a\0b\nc\rd\x7f", 8)), "a?b\\nc\\rd?");
    // At most kMaxErrorChars bytes are kept whole.
    const std::string fits(kMaxErrorChars, 'x');
    EXPECT_EQ(OneLineError(fits), fits);
    // One more: the first 460 bytes and the last 100 (600 - 100 - 40 for
    // the mark), with the count of the 41 cut between them.
    const std::string over = std::string(460, 'h') + std::string(41, 'm') + std::string(100, 't');
    EXPECT_EQ(OneLineError(over),
              std::string(460, 'h') + " [... 41 bytes cut ...] " + std::string(100, 't'));
    // A cut never splits a UTF-8 sequence: "é" (2 bytes) across byte 460
    // goes whole to the cut; so does one across the tail's first byte:
    // 2 + 200 + 2 bytes cut of 762.
    const std::string e = "\xc3\xa9";
    const std::string utf =
        std::string(459, 'h') + e + std::string(200, 'm') + e + std::string(99, 't');
    EXPECT_EQ(OneLineError(utf),
              std::string(459, 'h') + " [... 204 bytes cut ...] " + std::string(99, 't'));
    // The readers' error classes make their messages so.
    EXPECT_EQ(std::string(TraceError("t.txt", std::string("got \"a\0b\"", 9)).what()),
              "t.txt: got \"a?b\"");
    EXPECT_EQ(std::string(ScenarioError(std::string(1000, 'z')).what()).size(),
              460 + std::string(" [... 440 bytes cut ...] ").size() + 100);
}
