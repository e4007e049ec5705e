/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario file layer on its own (no simulation): the example scenarios,
 * pattern expansion, units, --set overrides and the resolved-scenario round
 * trip (the one-line errors: test-scenario-errors.cc). Runs from the
 * repository root (ctest's working directory), in well under a second.
 */
#include "scenario-fixtures.h"

#include "ns3/scenario-config.h"

#include <algorithm>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

using namespace ns3;
using namespace tftest;

namespace
{

/// The topology section as scenario.json writes it: its type's own keys.
nlohmann::json
Topo(const ScenarioConfig& c)
{
    return nlohmann::json::parse(ScenarioToJson(c))["topology"];
}

/// The rate of the topology's link \p link ("host_link", "fabric_link").
DataRate
LinkRate(const ScenarioConfig& c, const char* link)
{
    return ParseRate(Topo(c)[link]["rate"].get<std::string>());
}

/// The delay of the topology's link \p link.
Time
LinkDelay(const ScenarioConfig& c, const char* link)
{
    return ParseTime(Topo(c)[link]["delay"].get<std::string>());
}

const char* kIncastFile = "examples/incast-8to1.json";
const char* kAllToAllFile = "examples/leaf-spine-all-to-all.json";

/// Every field of two configs, compared.
void
ExpectSameConfig(const ScenarioConfig& a, const ScenarioConfig& b)
{
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.seed, b.seed);
    EXPECT_EQ(a.stop, b.stop);
    EXPECT_EQ(a.pcap, b.pcap);
    const TopologyConfig& ta = a.topology;
    const TopologyConfig& tb = b.topology;
    EXPECT_EQ(ta.type, tb.type);
    // Every key of the topology's own section (leaves, spines, links, ...).
    EXPECT_EQ(Topo(a), Topo(b));
    EXPECT_EQ(ta.HostCount(), tb.HostCount());
    EXPECT_EQ(a.sw.bufferBytes, b.sw.bufferBytes);
    EXPECT_EQ(a.sw.pfc, b.sw.pfc);
    EXPECT_EQ(a.sw.alpha, b.sw.alpha);
    EXPECT_EQ(a.sw.reservedBytes, b.sw.reservedBytes);
    EXPECT_EQ(a.sw.headroomBytes, b.sw.headroomBytes);
    EXPECT_EQ(a.sw.xonOffsetBytes, b.sw.xonOffsetBytes);
    EXPECT_EQ(a.sw.ecn.enabled, b.sw.ecn.enabled);
    EXPECT_EQ(a.sw.ecn.kminBytes, b.sw.ecn.kminBytes);
    EXPECT_EQ(a.sw.ecn.kmaxBytes, b.sw.ecn.kmaxBytes);
    EXPECT_EQ(a.sw.ecn.pmax, b.sw.ecn.pmax);
    EXPECT_EQ(a.sw.scheduler, b.sw.scheduler);
    EXPECT_EQ(a.sw.wrrWeights, b.sw.wrrWeights);
    EXPECT_EQ(a.nic.mtu, b.nic.mtu);
    EXPECT_EQ(a.nic.cc, b.nic.cc);
    EXPECT_EQ(a.nic.ccParams, b.nic.ccParams);
    EXPECT_EQ(a.nic.ackInterval, b.nic.ackInterval);
    EXPECT_EQ(a.nic.rto, b.nic.rto);
    EXPECT_EQ(a.nic.cnpInterval, b.nic.cnpInterval);
    EXPECT_EQ(a.routing.mode, b.routing.mode);
    EXPECT_EQ(a.routing.hash, b.routing.hash);
    EXPECT_EQ(a.routing.seed, b.routing.seed);
    ASSERT_EQ(a.routing.pins.size(), b.routing.pins.size());
    for (std::size_t i = 0; i < a.routing.pins.size(); ++i)
    {
        EXPECT_EQ(a.routing.pins[i].src, b.routing.pins[i].src);
        EXPECT_EQ(a.routing.pins[i].dst, b.routing.pins[i].dst);
        EXPECT_EQ(a.routing.pins[i].srcPort, b.routing.pins[i].srcPort);
        EXPECT_EQ(a.routing.pins[i].spine, b.routing.pins[i].spine);
    }
    EXPECT_EQ(a.workload.type, b.workload.type);
    ASSERT_EQ(a.workload.flows.size(), b.workload.flows.size());
    for (std::size_t i = 0; i < a.workload.flows.size(); ++i)
    {
        const FlowSpec& fa = a.workload.flows[i];
        const FlowSpec& fb = b.workload.flows[i];
        EXPECT_EQ(fa.src, fb.src) << i;
        EXPECT_EQ(fa.dst, fb.dst) << i;
        EXPECT_EQ(fa.bytes, fb.bytes) << i;
        EXPECT_EQ(fa.start, fb.start) << i;
        EXPECT_EQ(fa.priority, fb.priority) << i;
    }
    EXPECT_EQ(a.trace.flows, b.trace.flows);
    EXPECT_EQ(a.trace.interval, b.trace.interval);
    EXPECT_EQ(a.monitor.enabled, b.monitor.enabled);
    EXPECT_EQ(a.monitor.bin, b.monitor.bin);
    EXPECT_EQ(a.monitor.elephantBytes, b.monitor.elephantBytes);
    EXPECT_EQ(a.monitor.plots, b.monitor.plots);
}

/// parse(ScenarioToJson(c)) has c's fields, and writing it again gives the same text.
void
ExpectRoundTrip(const ScenarioConfig& c)
{
    const std::string text = ScenarioToJson(c);
    ScenarioConfig back = ParseScenarioText(text, {}, "resolved.json");
    ExpectSameConfig(c, back);
    EXPECT_EQ(ScenarioToJson(back), text);
}

} // namespace

// ---------------------------------------------------------------- examples

TEST(ScenarioConfigExamples, VerbatimIncastParses)
{
    ScenarioConfig c = Incast();
    EXPECT_EQ(c.name, "incast-8to1");
    EXPECT_EQ(c.seed, 1u);
    EXPECT_EQ(c.stop, MilliSeconds(100));
    EXPECT_FALSE(c.pcap);
    EXPECT_EQ(c.topology.type, "leaf-spine");
    EXPECT_EQ(Topo(c)["leaves"], 2u);
    EXPECT_EQ(Topo(c)["spines"], 2u);
    EXPECT_EQ(Topo(c)["hosts_per_leaf"], 8u);
    EXPECT_EQ(Topo(c)["links_per_pair"], 1u);
    EXPECT_EQ(c.topology.HostCount(), 16u);
    EXPECT_EQ(LinkRate(c, "host_link").GetBitRate(), 100000000000u);
    EXPECT_EQ(LinkDelay(c, "host_link"), MicroSeconds(1));
    EXPECT_EQ(LinkRate(c, "fabric_link").GetBitRate(), 100000000000u);
    EXPECT_EQ(LinkDelay(c, "fabric_link"), MicroSeconds(1));
    EXPECT_EQ(c.sw.bufferBytes, 16000000u); // "16MB": powers of 1000
    EXPECT_TRUE(c.sw.pfc);
    EXPECT_EQ(c.nic.mtu, 4096u);
    EXPECT_EQ(c.nic.cc, "none");
    EXPECT_EQ(c.routing.mode, "ecmp");
    EXPECT_EQ(c.routing.hash, "crc32");
    EXPECT_EQ(c.routing.seed, 1u);
    EXPECT_EQ(c.workload.type, "incast");
    ASSERT_EQ(c.workload.flows.size(), 8u);
    for (std::size_t i = 0; i < 8; ++i)
    {
        const FlowSpec& f = c.workload.flows[i];
        EXPECT_EQ(f.src, 8 + i);
        EXPECT_EQ(f.dst, 0u);
        EXPECT_EQ(f.bytes, 1000000u);
        EXPECT_EQ(f.start, Time(0));
        EXPECT_EQ(f.priority, 3);
    }
    // Defaults of what the file does not say.
    EXPECT_DOUBLE_EQ(c.sw.alpha, 0.125);
    EXPECT_EQ(c.sw.reservedBytes, 4096u);
    EXPECT_FALSE(c.sw.headroomBytes.has_value());
    EXPECT_EQ(c.sw.xonOffsetBytes, 3072u);
    EXPECT_TRUE(c.sw.ecn.enabled);
    EXPECT_EQ(c.sw.ecn.kminBytes, 100000u);
    EXPECT_EQ(c.sw.ecn.kmaxBytes, 400000u);
    EXPECT_DOUBLE_EQ(c.sw.ecn.pmax, 0.2);
    EXPECT_EQ(c.sw.scheduler, "strict");
    EXPECT_TRUE(c.sw.wrrWeights.empty());
    EXPECT_EQ(c.nic.ackInterval, 1u);
    EXPECT_EQ(c.nic.rto, MilliSeconds(1));
    EXPECT_TRUE(c.routing.pins.empty());

    // The example file holds exactly this scenario.
    ScenarioConfig file = LoadScenarioFile(kIncastFile, {});
    EXPECT_EQ(file.sourcePath, kIncastFile);
    file.sourcePath = c.sourcePath;
    ExpectSameConfig(file, c);
}

TEST(ScenarioConfigExamples, LeafSpineAllToAll)
{
    ScenarioConfig c = LoadScenarioFile(kAllToAllFile, {});
    EXPECT_EQ(c.name, "leaf-spine-all-to-all");
    EXPECT_EQ(Topo(c)["leaves"], 2u);
    EXPECT_EQ(Topo(c)["spines"], 8u);
    EXPECT_EQ(c.topology.HostCount(), 16u);
    EXPECT_EQ(LinkRate(c, "host_link").GetBitRate(), 400000000000u);
    EXPECT_EQ(LinkRate(c, "fabric_link").GetBitRate(), 400000000000u);
    EXPECT_EQ(LinkDelay(c, "fabric_link"), MicroSeconds(1));
    EXPECT_EQ(c.sw.bufferBytes, 32000000u);
    EXPECT_TRUE(c.sw.pfc);
    EXPECT_EQ(c.nic.cc, "none");
    EXPECT_EQ(c.workload.type, "all-to-all");
    EXPECT_EQ(c.workload.flows.size(), 16u * 15u);
    for (const FlowSpec& f : c.workload.flows)
    {
        EXPECT_EQ(f.bytes, 1000000u);
    }
    EXPECT_EQ(c.stop, MilliSeconds(100));
    EXPECT_EQ(c.seed, 1u);
}

TEST(ScenarioConfigExamples, EmptyScenarioIsAllDefaults)
{
    ScenarioConfig c = ParseScenarioText("{}", {}, "empty.json");
    EXPECT_EQ(c.name, "scenario");
    EXPECT_EQ(c.stop, Seconds(1));
    EXPECT_EQ(c.topology.HostCount(), 8u); // 2 leaves x 4 hosts
    EXPECT_EQ(LinkRate(c, "host_link").GetBitRate(), 100000000000u);
    EXPECT_EQ(c.sw.bufferBytes, 16000000u);
    EXPECT_EQ(c.workload.type, "flows");
    EXPECT_TRUE(c.workload.flows.empty());
    // The resolved scenario spells out every default.
    const std::string resolved = ScenarioToJson(c);
    for (const char* key : {"\"alpha\"",
                            "\"reserved\"",
                            "\"headroom\": \"auto\"",
                            "\"xon_offset\"",
                            "\"kmin\"",
                            "\"pmax\"",
                            "\"scheduler\"",
                            "\"ack_interval\"",
                            "\"rto\"",
                            "\"links_per_pair\"",
                            "\"hash\""})
    {
        EXPECT_NE(resolved.find(key), std::string::npos) << key << " in\n" << resolved;
    }
}

// ---------------------------------------------------------------- patterns

TEST(ScenarioConfigPatterns, AllToAllGivesEveryOrderedPairOnce)
{
    for (uint32_t perLeaf : {1u, 3u, 8u})
    {
        ScenarioConfig c = Incast({"topology.hosts_per_leaf=" + std::to_string(perLeaf),
                                   R"(workload={"type": "all-to-all", "bytes": "4KiB"})"});
        const uint32_t n = 2 * perLeaf;
        ASSERT_EQ(c.workload.flows.size(), static_cast<std::size_t>(n) * (n - 1));
        std::set<std::pair<uint32_t, uint32_t>> pairs;
        for (const FlowSpec& f : c.workload.flows)
        {
            EXPECT_NE(f.src, f.dst);
            EXPECT_LT(f.src, n);
            EXPECT_LT(f.dst, n);
            EXPECT_EQ(f.bytes, 4096u);
            pairs.insert({f.src, f.dst});
        }
        EXPECT_EQ(pairs.size(), c.workload.flows.size());
    }
    // A subset of the hosts.
    ScenarioConfig s = Incast({R"(workload={"type": "all-to-all", "hosts": [1, 5, 9, 15],
                                  "bytes": 100, "start": "2us", "priority": 5})"});
    ASSERT_EQ(s.workload.flows.size(), 12u);
    for (const FlowSpec& f : s.workload.flows)
    {
        EXPECT_EQ(f.start, MicroSeconds(2));
        EXPECT_EQ(f.priority, 5);
    }
}

TEST(ScenarioConfigPatterns, PermutationIsASeededDerangement)
{
    auto perm = [](const std::vector<std::string>& sets) {
        std::vector<std::string> all{R"(workload={"type": "permutation", "bytes": "1MB"})"};
        all.insert(all.end(), sets.begin(), sets.end());
        ScenarioConfig c = Incast(all);
        std::vector<uint32_t> dst(16, 99);
        EXPECT_EQ(c.workload.flows.size(), 16u);
        for (const FlowSpec& f : c.workload.flows)
        {
            EXPECT_LT(f.src, 16u);
            EXPECT_EQ(dst[f.src], 99u) << "host " << f.src << " sends twice";
            dst[f.src] = f.dst;
        }
        return dst;
    };
    std::set<std::vector<uint32_t>> distinct;
    for (uint32_t seed = 0; seed < 8; ++seed)
    {
        std::vector<uint32_t> d = perm({"seed=" + std::to_string(seed)});
        std::vector<uint32_t> sorted = d;
        std::sort(sorted.begin(), sorted.end());
        for (uint32_t h = 0; h < 16; ++h)
        {
            EXPECT_NE(d[h], h) << "seed " << seed << ": host " << h << " sends to itself";
            EXPECT_EQ(sorted[h], h) << "seed " << seed << ": not a permutation";
        }
        EXPECT_EQ(perm({"seed=" + std::to_string(seed)}), d) << "not deterministic";
        distinct.insert(d);
    }
    EXPECT_EQ(distinct.size(), 8u) << "different seeds should give different permutations";
    // workload.seed overrides the scenario seed for the pattern.
    EXPECT_EQ(perm({"seed=1", "workload.seed=5"}), perm({"seed=5"}));
    // Portable: splitmix64 and Sattolo's shuffle, the same on every platform.
    const std::vector<uint32_t> golden{12, 3, 9, 6, 10, 2, 4, 13, 15, 0, 8, 14, 11, 1, 7, 5};
    EXPECT_EQ(perm({"seed=1"}), golden);
}

TEST(ScenarioConfigPatterns, TooManyGeneratedFlowsIsAnErrorNotAnAllocation)
{
    // 16 x 128 = 2048 hosts: 2048 x 2047 = 4,192,256 flows, past 4 M.
    std::string e = IncastError({"topology.leaves=16",
                                 "topology.hosts_per_leaf=128",
                                 R"(workload={"type": "all-to-all", "bytes": 1})"});
    EXPECT_NE(e.find("workload.hosts: the pattern would generate 4192256 flows"), std::string::npos)
        << e;
    // A permutation has one flow per host, and a fabric of more than 4 M
    // hosts has more than the 2^21 links a topology may have: refused as such
    // (2048 x 4096 host links + 2048 leaves x 2 spines), before any flow.
    e = IncastError({"topology.leaves=2048",
                     "topology.hosts_per_leaf=4096",
                     R"(workload={"type": "permutation", "bytes": 1})"});
    EXPECT_NE(e.find("topology: the fabric would have 8392704 links"), std::string::npos) << e;
}

// ---------------------------------------------------------------- units

TEST(ScenarioConfigUnits, Sizes)
{
    EXPECT_EQ(ParseByteSize("16MB"), 16000000u);
    EXPECT_EQ(ParseByteSize("16MiB"), 16777216u);
    EXPECT_EQ(ParseByteSize("1.5KB"), 1500u);
    EXPECT_EQ(ParseByteSize("1.1KB"), 1100u); // exact decimal, no floating point
    EXPECT_EQ(ParseByteSize("0.5KiB"), 512u);
    EXPECT_EQ(ParseByteSize("4096"), 4096u);
    EXPECT_EQ(ParseByteSize("4096B"), 4096u);
    EXPECT_EQ(ParseByteSize("1 GB"), 1000000000u);
    EXPECT_EQ(ParseByteSize("1GiB"), 1073741824u);
    EXPECT_EQ(ParseByteSize("2.50kB"), 2500u);
    EXPECT_EQ(ParseByteSize("0"), 0u);
    EXPECT_EQ(ParseByteSize("18446744073709551615"), UINT64_MAX);
    for (const char* bad : {"",
                            "MB",
                            "1.5B",
                            "0.1B",
                            "-1KB",
                            "+1KB",
                            "1e3",
                            "16mb",
                            "16Mb",
                            "16MBx",
                            "16MB ",
                            " 16MB",
                            "16  MB",
                            "1..5KB",
                            "1.2.3KB",
                            "12 parsecs",
                            "20000000TB",
                            "18446744073709551616"})
    {
        EXPECT_THROW(ParseByteSize(bad), ScenarioError) << '"' << bad << '"';
    }
}

TEST(ScenarioConfigUnits, Rates)
{
    EXPECT_EQ(ParseRate("100Gbps").GetBitRate(), 100000000000u);
    EXPECT_EQ(ParseRate("400Gbps").GetBitRate(), 400000000000u);
    EXPECT_EQ(ParseRate("25Gb/s").GetBitRate(), 25000000000u);
    EXPECT_EQ(ParseRate("10Mbps").GetBitRate(), 10000000u);
    EXPECT_EQ(ParseRate("2.5Gbps").GetBitRate(), 2500000000u);
    EXPECT_EQ(ParseRate("1.6Tbps").GetBitRate(), 1600000000000u);
    EXPECT_EQ(ParseRate("1kbps").GetBitRate(), 1000u);
    EXPECT_EQ(ParseRate("1bps").GetBitRate(), 1u);
    EXPECT_EQ(ParseRate("1.5bps").GetBitRate(), 2u); // rounded half up to whole bit/s
    for (const char* bad :
         {"0Gbps", "0.4bps", "fast", "100", "100gbps", "100GBps", "-1Gbps", "100Gbps/", "Gbps"})
    {
        EXPECT_THROW(ParseRate(bad), ScenarioError) << '"' << bad << '"';
    }
}

TEST(ScenarioConfigUnits, Times)
{
    EXPECT_EQ(ParseTime("1us").GetPicoSeconds(), 1000000);
    EXPECT_EQ(ParseTime("500ns").GetPicoSeconds(), 500000);
    EXPECT_EQ(ParseTime("100ms"), MilliSeconds(100));
    EXPECT_EQ(ParseTime("1s"), Seconds(1));
    EXPECT_EQ(ParseTime("0").GetPicoSeconds(), 0);
    EXPECT_EQ(ParseTime("0ns").GetPicoSeconds(), 0);
    EXPECT_EQ(ParseTime("1.5us").GetPicoSeconds(), 1500000);
    EXPECT_EQ(ParseTime("0.001ms").GetPicoSeconds(), 1000000);
    EXPECT_EQ(ParseTime("1ps").GetPicoSeconds(), 1);
    EXPECT_EQ(ParseTime("0.0005ns").GetPicoSeconds(), 1); // rounded half up to whole ps
    EXPECT_EQ(ParseTime("0.0004ns").GetPicoSeconds(), 0);
    for (const char* bad : {"-1us", "1", "1 sec", "1us ", "us", "1min", "1e-6s", "100000000s"})
    {
        EXPECT_THROW(ParseTime(bad), ScenarioError) << '"' << bad << '"';
    }
}

TEST(ScenarioConfigUnits, InScenarios)
{
    ScenarioConfig c = Incast({"switch.buffer=1048576",
                               "switch.reserved=\"1KiB\"",
                               "switch.headroom=\"100KB\"",
                               "topology.host_link.delay=0",
                               "topology.fabric_link.delay=\"0\""});
    EXPECT_EQ(c.sw.bufferBytes, 1048576u);
    EXPECT_EQ(c.sw.reservedBytes, 1024u);
    EXPECT_EQ(c.sw.headroomBytes, std::optional<uint64_t>(100000));
    EXPECT_EQ(LinkDelay(c, "host_link"), Time(0));
    EXPECT_EQ(LinkDelay(c, "fabric_link"), Time(0));
    EXPECT_NE(IncastError({"switch.buffer=1.5"}).find("switch.buffer: expected a size"),
              std::string::npos);
    EXPECT_NE(IncastError({"switch.buffer=-4096"}).find("switch.buffer: expected a size"),
              std::string::npos);
    EXPECT_NE(IncastError({"topology.host_link.rate=100e9"}).find("topology.host_link.rate"),
              std::string::npos);
}

// ---------------------------------------------------------------- --set

TEST(ScenarioConfigSet, Overrides)
{
    // Numbers, booleans and unquoted strings.
    ScenarioConfig c = Incast({"topology.spines=4",
                               "pcap=true",
                               "nic.cc=dcqcn",
                               "switch.buffer=32MB",
                               "name=\"quoted name\"",
                               "switch.alpha=0.5"});
    EXPECT_EQ(Topo(c)["spines"], 4u);
    EXPECT_TRUE(c.pcap);
    EXPECT_EQ(c.nic.cc, "dcqcn");
    EXPECT_EQ(c.sw.bufferBytes, 32000000u);
    EXPECT_EQ(c.name, "quoted name");
    EXPECT_DOUBLE_EQ(c.sw.alpha, 0.5);
    // An object replaces the whole value.
    ScenarioConfig o = Incast({R"(workload={"type": "incast", "senders": [1, 2], "receiver": 9,
                                  "bytes": "64KB"})"});
    ASSERT_EQ(o.workload.flows.size(), 2u);
    EXPECT_EQ(o.workload.flows[0].dst, 9u);
    EXPECT_EQ(o.workload.flows[1].bytes, 64000u);
    // Missing objects on the way are created (then validated).
    ScenarioConfig e = Incast({"switch.ecn.kmin=\"50KB\"", "nic.cc_params.g=0.0625"});
    EXPECT_TRUE(e.sw.ecn.enabled);
    EXPECT_EQ(e.sw.ecn.kminBytes, 50000u);
    EXPECT_EQ(e.sw.ecn.kmaxBytes, 400000u);
    EXPECT_EQ(e.nic.ccParams.at("g"), "0.0625");
    // Array elements: [n] and .n are the same; sets apply in order.
    ScenarioConfig a = Incast({"workload.senders[0]=1"});
    ScenarioConfig b = Incast({"workload.senders.0=1"});
    EXPECT_EQ(a.workload.flows[0].src, 1u);
    EXPECT_EQ(b.workload.flows[0].src, 1u);
    ScenarioConfig f = Incast({R"(workload={"type": "flows", "flows": [{"src": 0, "dst": 1,
                                  "bytes": 1}]})",
                               "workload.flows[0].bytes=\"2MB\"",
                               "workload.flows.0.start=\"5us\""});
    EXPECT_EQ(f.workload.flows[0].bytes, 2000000u);
    EXPECT_EQ(f.workload.flows[0].start, MicroSeconds(5));
    // The value may contain '='.
    ScenarioConfig n = Incast({"name=a=b"});
    EXPECT_EQ(n.name, "a=b");
}

TEST(ScenarioConfigSet, OnlyWhereTheSchemaAllows)
{
    // Creating a key is allowed, but validation still rejects an unknown one.
    EXPECT_NE(IncastError({"nic.colour=1"}).find("nic.colour: unknown key"), std::string::npos);
    EXPECT_NE(IncastError({"topology.host_link.colour=1"}).find("topology.host_link.colour"),
              std::string::npos);
}

// ---------------------------------------------------------------- round trip

TEST(ScenarioConfigRoundTrip, ResolvedScenarioReadsBackTheSame)
{
    ExpectRoundTrip(Incast());
    ExpectRoundTrip(LoadScenarioFile(kAllToAllFile, {}));
    ExpectRoundTrip(ParseScenarioText("{}", {}, "empty.json"));
    ExpectRoundTrip(
        Incast({R"(workload={"type": "permutation", "bytes": "1MiB", "start": "3us"})"}));
    // Many non-defaults at once.
    ScenarioConfig c = Incast({
        "name=everything",
        "seed=42",
        "stop=\"2.5ms\"",
        "pcap=true",
        "topology.links_per_pair=2",
        "topology.host_link={\"rate\": \"25Gb/s\", \"delay\": \"333ns\"}",
        "topology.fabric_link.delay=\"1.5us\"",
        "switch.alpha=0.3",
        "switch.reserved=\"2KiB\"",
        "switch.headroom=\"200KB\"",
        "switch.xon_offset=1000",
        "switch.ecn=false",
        "switch.scheduler=wrr",
        "switch.wrr_weights=[1,2,3,4,5,6,7,8]",
        "nic.mtu=1024",
        "nic.cc=hpcc",
        "nic.cc_params={\"eta\": 0.95, \"MaxStage\": \"5\", \"Flag\": true}",
        "nic.ack_interval=4",
        "nic.rto=\"2ms\"",
        R"(routing={"mode": "static", "hash": "mix64", "seed": 7,
                    "pins": [{"src": 0, "dst": 8, "spine": 1},
                             {"src": 0, "dst": 8, "sport": 4791, "spine": 0}]})",
        R"(workload={"type": "flows", "flows": [
              {"src": 0, "dst": 9, "bytes": "1MB", "start": "1us", "priority": 0},
              {"src": 9, "dst": 0, "bytes": 12345, "priority": 7}]})",
        "trace={\"flows\": [1], \"interval\": \"5us\"}",
        "monitor={\"bin\": \"20us\", \"elephant\": \"10MB\", \"plots\": false}",
    });
    EXPECT_EQ(c.nic.ccParams.at("eta"), "0.95");
    EXPECT_EQ(c.nic.ccParams.at("Flag"), "true");
    EXPECT_EQ(c.routing.pins[1].srcPort, std::optional<uint16_t>(4791));
    EXPECT_TRUE(c.monitor.enabled);
    EXPECT_FALSE(c.monitor.plots);
    EXPECT_EQ(LinkDelay(c, "host_link"), NanoSeconds(333));
    ExpectRoundTrip(c);
}

TEST(ScenarioConfigRoundTrip, LoadBalancingModesKeepTheirKeys)
{
    for (const char* routing :
         {R"(routing={"mode": "flowlet", "flowlet_timeout": "50us", "flowlet_select": "hash"})",
          R"(routing={"mode": "adaptive", "adaptive_granularity": "packet",
                      "adaptive_pause_aware": false})",
          R"(routing={"mode": "spray", "spray": "round-robin"})"})
    {
        ScenarioConfig c = Incast({routing, "nic.out_of_order=true", "nic.ooo_window=64"});
        EXPECT_TRUE(c.nic.outOfOrder);
        EXPECT_EQ(c.nic.oooWindow, 64u);
        ExpectRoundTrip(c);
    }
    const ScenarioConfig f = Incast({R"(routing={"mode": "flowlet"})"});
    EXPECT_EQ(f.routing.flowletTimeout, MicroSeconds(500)); // LetFlow's default
    EXPECT_EQ(f.routing.flowletSelect, "random");
    EXPECT_FALSE(f.nic.outOfOrder);
}

TEST(ScenarioConfigRoundTrip, GeneratedPatternsKeepTheirType)
{
    ScenarioConfig c = Incast();
    const std::string text = ScenarioToJson(c);
    EXPECT_NE(text.find("\"expanded_from\": \"incast\""), std::string::npos) << text;
    EXPECT_EQ(ParseScenarioText(text, {}, "r.json").workload.type, "incast");
    EXPECT_EQ(ScenarioToJson(ParseScenarioText("{}", {}, "e.json")).find("expanded_from"),
              std::string::npos);
}

TEST(ScenarioConfigRoundTrip, OtherTopologiesAndCollectivesAreStable)
{
    for (const std::vector<std::string>& sets : std::vector<std::vector<std::string>>{
             {R"(topology={"type": "fat-tree", "k": 4})"},
             {R"(topology={"type": "torus", "dims": [2, 3]})", "routing.mode=dor"},
             {R"(topology={"type": "rail-optimized", "servers": 2, "nics_per_server": 4})"},
             {R"(workload={"type": "collective", "collective": "all-reduce", "algorithm": "ring",
                           "bytes": "1MB", "group": [0, 8, 1, 9], "chunks": 2})"}})
    {
        std::vector<std::string> all = sets;
        if (sets[0].rfind("topology", 0) == 0)
        {
            all.push_back(R"(workload={"type": "all-to-all", "bytes": 1000})");
        }
        ScenarioConfig c = Incast(all);
        const std::string text = ScenarioToJson(c);
        ScenarioConfig back = ParseScenarioText(text, {}, "resolved.json");
        EXPECT_EQ(ScenarioToJson(back), text);
        EXPECT_EQ(back.topology.HostCount(), c.topology.HostCount());
        EXPECT_EQ(back.workload.flows.size(), c.workload.flows.size());
    }
}
