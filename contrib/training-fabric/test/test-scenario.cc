/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario-level tests: the verbatim incast scenario with and without PFC,
 * determinism of outputs, and the errors bad scenario files get.
 */
#include "scenario-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/fabric-topology.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using tftest::WithoutWallTime;

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

// The tests run from the repository root (ctest WORKING_DIRECTORY).
const char* kIncast = "examples/incast-8to1.json";

ScenarioRunner::Totals
RunTotals(const ScenarioConfig& cfg, std::string* summary = nullptr, std::string* flows = nullptr)
{
    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    if (summary)
    {
        *summary = run.SummaryJson();
    }
    if (flows)
    {
        *flows = run.FlowsCsv();
    }
    return run.GetTotals();
}

// The verbatim incast (examples/incast-8to1.json), lossless: 8 senders on
// leaf 1 post 1 MB each at t = 0 to host 0 on leaf 0 (100 Gb/s, d = 1 us
// links). The bottleneck, leaf 0's port to host 0, starts sending when the
// first frame arrives, stored and forwarded by leaf 1 and a spine, 3s + 3d
// after the posts (s = 4178 x 8 / 100e9 = 334.24 ns for a full frame). From
// then on it is never idle (work conservation: PFC holds senders back only
// while megabytes wait at the leaves, and an XON leaves while the ingress
// still holds far more than the 25 KB that drain during its round trip)
// until it has sent every frame: 8 x (244 full + one of 576 B, s' = 658 x 8 /
// 100e9 = 52.64 ns). The last frame reaches host 0 d later:
//   last arrival = 3s + 4d + 8 (244 s + s') = 657.86032 us,
// 5.2 us more than the 652.7 us of line time alone. Its ACK (a = 86 x 8 /
// 100e9 = 6.88 ns per link, 4 links, nothing ahead of it) completes the last
// flow 4 (a + d) later: 661.88784 us.
constexpr double kS = 4178 * 8 / 100e9;
constexpr double kD = 1e-6;
constexpr double kIncastLastArrival = 3 * kS + 4 * kD + 8 * (244 * kS + 658 * 8 / 100e9);
constexpr double kIncastEnd = kIncastLastArrival + 4 * (86 * 8 / 100e9 + kD);

} // namespace

TEST(Scenario, IncastWithPfcIsLosslessAndPausesUpstream)
{
    ScenarioConfig cfg = LoadScenarioFile(kIncast, {});
    ASSERT_EQ(cfg.topology.HostCount(), 16u);
    ASSERT_EQ(cfg.workload.flows.size(), 8u);
    ScenarioRunner::Totals t = RunTotals(cfg);
    // 8 senders x 1 MB = 8,000,000 payload bytes, every one delivered once:
    // the responder counts only in-order, first-time bytes.
    EXPECT_EQ(t.flowsCompleted, 8u);
    EXPECT_EQ(t.bytesSent, 8000000u);
    EXPECT_EQ(t.bytesDelivered, 8000000u);
    EXPECT_EQ(t.bytesAcked, 8000000u);
    for (uint64_t d : t.drops)
    {
        EXPECT_EQ(d, 0u);
    }
    EXPECT_EQ(t.retransmits, 0u);
    // 8 x 100 Gb/s into one 100 Gb/s port, 8 MB against a 16 MB buffer whose
    // dynamic threshold lets one ingress hold about 1/9 of it: the leaves
    // must push back. (How often they pause depends on the ECMP placement
    // and the thresholds' interplay; theory gives no count, only that there
    // is at least one.)
    EXPECT_GT(t.pfcPauseFrames, 0u);
    // Lossless and work-conserving: the run ends with the last ACK, at the
    // time derived above (kIncastEnd), to the picosecond.
    ASSERT_NEAR(kIncastEnd, 661.88784e-6, 1e-12);
    EXPECT_NEAR(t.simTimeS, kIncastEnd, 1e-12);
}

TEST(Scenario, IncastWithoutPfcDropsAndGoBackNStillDeliversEverything)
{
    // A 1 MB buffer without PFC cannot hold an 8:1 burst: the shared pool is
    // 1e6 - 18 ports x 8 classes x 4 KiB reserved = 410,176 B, and one ingress
    // may hold only 1/8 of the free pool, so frames are dropped.
    ScenarioConfig cfg =
        LoadScenarioFile(kIncast, {"switch.pfc=false", "switch.buffer=\"1MB\"", "stop=\"1s\""});
    ScenarioRunner::Totals t = RunTotals(cfg);
    EXPECT_GT(t.drops[1], 0u) << "buffer_overflow drops";
    EXPECT_EQ(t.drops[0], 0u) << "no headroom drops without PFC";
    EXPECT_EQ(t.pfcPauseFrames, 0u);
    EXPECT_GT(t.retransmits, 0u);
    EXPECT_EQ(t.flowsCompleted, 8u);
    EXPECT_EQ(t.bytesDelivered, 8000000u);
    EXPECT_EQ(t.bytesAcked, 8000000u);
    // Every packet goes out once plus its resends: 8 flows x 245 packets.
    EXPECT_EQ(t.dataPackets, 8u * 245 + t.retransmits);
    // How many losses, resends and timeouts a lossy incast takes has no
    // closed form; the relation: losing and resending costs time, so it
    // ends after the lossless run's exact end (derived above).
    EXPECT_GT(t.simTimeS, kIncastEnd);
}

TEST(Scenario, SameScenarioAndSeedGiveIdenticalOutputs)
{
    const std::vector<std::string> sets{
        "workload={\"type\": \"permutation\", \"bytes\": \"300KB\"}",
        "topology.spines=4"};
    std::string s1, f1, s2, f2;
    RunTotals(LoadScenarioFile(kIncast, sets), &s1, &f1);
    RunTotals(LoadScenarioFile(kIncast, sets), &s2, &f2);
    EXPECT_EQ(f1, f2);
    EXPECT_EQ(WithoutWallTime(s1), WithoutWallTime(s2));
    EXPECT_NE(s1.find("\"flows_completed\": 16"), std::string::npos);
    // A different seed draws a different permutation.
    std::string f3;
    auto sets3 = sets;
    sets3.push_back("seed=2");
    RunTotals(LoadScenarioFile(kIncast, sets3), nullptr, &f3);
    EXPECT_NE(f1, f3);
}

TEST(Scenario, FlowsCsvHasOneRowPerFlowWithSlowdown)
{
    std::string flows;
    RunTotals(LoadScenarioFile(kIncast, {}), nullptr, &flows);
    std::istringstream in(flows);
    std::string header;
    std::getline(in, header);
    EXPECT_EQ(header,
              "flow,src,dst,sport,priority,bytes,start_s,finish_s,fct_s,ideal_fct_s,slowdown,"
              "acked_s,retransmits,timeouts,completed,collective,step,node");
    int rows = 0;
    double lastFinish = 0;
    std::string line;
    while (std::getline(in, line))
    {
        ++rows;
        std::vector<std::string> col;
        std::istringstream fields(line);
        for (std::string c; std::getline(fields, c, ',');)
        {
            col.push_back(c);
        }
        // 18 columns; collective, step and node are empty for a flows workload.
        ASSERT_EQ(std::count(line.begin(), line.end(), ','), 17) << line;
        ASSERT_EQ(line.substr(line.size() - 3), ",,,") << line;
        const double start = std::stod(col[6]);
        const double finish = std::stod(col[7]);
        const double fct = std::stod(col[8]);
        const double ideal = std::stod(col[9]);
        // Ideal FCT of 1 MB over 4 links at 100 Gb/s is 86.60992 us (see
        // test-data-plane); the slowdown is FCT / ideal (6 decimals); every
        // flow finishes between its ideal and the last arrival derived above;
        // lossless, nothing is resent.
        EXPECT_EQ(col[9], "0.000086609920") << line;
        EXPECT_EQ(start, 0.0) << line;
        EXPECT_NEAR(fct, finish - start, 1e-12) << line;
        EXPECT_NEAR(std::stod(col[10]), fct / ideal, 5e-7) << line;
        EXPECT_GE(fct, ideal) << line;
        EXPECT_LE(finish, kIncastLastArrival + 1e-12) << line;
        EXPECT_GT(std::stod(col[11]), finish) << line; // the ACK comes after the data
        EXPECT_EQ(col[12], "0") << line;
        EXPECT_EQ(col[13], "0") << line;
        EXPECT_EQ(col[14], "1") << line;
        lastFinish = std::max(lastFinish, finish);
    }
    EXPECT_EQ(rows, 8);
    EXPECT_NEAR(lastFinish, kIncastLastArrival, 1e-12);
}

struct BadCase
{
    const char* name;
    const char* set;      // override applied to the incast scenario
    const char* expected; // substring of the one-line error
};

/// gtest prints the case by name (ctest lists it).
void
PrintTo(const BadCase& c, std::ostream* os)
{
    *os << c.name;
}

class BadScenario : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(BadScenario, GetsOneLineErrorNamingTheKey)
{
    const BadCase& c = GetParam();
    try
    {
        LoadScenarioFile(kIncast, {c.set});
        FAIL() << "accepted " << c.set;
    }
    catch (const ScenarioError& e)
    {
        std::string msg = e.what();
        EXPECT_NE(msg.find(kIncast), std::string::npos) << msg;
        EXPECT_NE(msg.find(c.expected), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Errors,
    BadScenario,
    ::testing::Values(
        BadCase{"unknown_key", "switch.frobnicate=1", "switch.frobnicate: unknown key (valid:"},
        BadCase{"bad_rate", "topology.host_link.rate=fast", "topology.host_link.rate: expected"},
        BadCase{"zero_rate", "topology.host_link.rate=0Gbps", "topology.host_link.rate"},
        BadCase{"bad_type", "topology.leaves=\"two\"", "topology.leaves: expected"},
        BadCase{"zero_leaves", "topology.leaves=0", "topology.leaves: expected an integer in [1"},
        BadCase{"host_range", "workload.receiver=40", "host 40 does not exist"},
        BadCase{"receiver_sends", "workload.receiver=8", "receiver cannot also be a sender"},
        BadCase{"bad_mtu", "nic.mtu=1500", "nic.mtu: expected an InfiniBand MTU"},
        BadCase{"bad_cc", "nic.cc=reno", "nic.cc: expected one of none"},
        BadCase{"pmax", "switch.ecn={\"pmax\": 2}", "switch.ecn.pmax"},
        BadCase{"kmin_kmax",
                "switch.ecn={\"kmin\": \"500KB\", \"kmax\": \"100KB\"}",
                "kmin must not exceed kmax"},
        BadCase{"priority", "workload.priority=9", "workload.priority"},
        BadCase{"stop", "stop=0", "stop: expected a positive time"},
        BadCase{"bad_time", "stop=\"10 parsecs\"", "stop: expected"},
        BadCase{"unknown_flow_key",
                "workload={\"type\": \"flows\", \"flows\": [{\"src\": 0, \"dst\": 1, \"bytes\": 1, "
                "\"colour\": 1}]}",
                "workload.flows[0].colour: unknown key"},
        BadCase{
            "self_flow",
            "workload={\"type\": \"flows\", \"flows\": [{\"src\": 3, \"dst\": 3, \"bytes\": 1}]}",
            "workload.flows[0].dst"},
        BadCase{"bad_size", "workload.bytes=\"1 furlong\"", "workload.bytes: expected a size"},
        BadCase{"wrr", "switch.wrr_weights=[1,2,3]", "switch.wrr_weights"},
        BadCase{
            "pin_spine",
            "routing={\"mode\": \"static\", \"pins\": [{\"src\": 0, \"dst\": 8, \"spine\": 5}]}",
            "routing.pins[0].spine"},
        BadCase{"malformed_set", "no-equals-sign", "expected key.path=value"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(Scenario, InvalidJsonNamesTheFileAndPosition)
{
    try
    {
        ParseScenarioText("{\"name\": \"x\",,}", {}, "broken.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        std::string msg = e.what();
        EXPECT_EQ(msg.rfind("broken.json: invalid JSON", 0), 0u) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos);
    }
}

TEST(Scenario, ImpossibleFabricIsAnErrorNotACrash)
{
    // 64 KB cannot hold 18 ports x 8 classes x 4 KiB of reserved space plus
    // PFC headroom: Build() reports it as a scenario error.
    ScenarioConfig cfg = LoadScenarioFile(kIncast, {"switch.buffer=\"64KB\""});
    ScenarioRunner run(cfg);
    try
    {
        run.Build();
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("too small"), std::string::npos) << e.what();
    }
}

TEST(Scenario, CommandLineExitsWithTwoOnBadInput)
{
    const std::string path = ::testing::TempDir() + "bad-scenario.json";
    {
        std::ofstream out(path);
        out << "{\"name\": \"bad\", \"topology\": {\"leaves\": -1}}";
    }
    ::testing::internal::CaptureStderr();
    int rc = RunScenarioFile(path, "", {});
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(rc, 2);
    EXPECT_NE(err.find("topology.leaves"), std::string::npos) << err;
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    ::testing::internal::CaptureStderr();
    rc = RunScenarioFile("does-not-exist.json", "", {});
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(rc, 2);
    EXPECT_NE(err.find("does-not-exist.json: cannot open"), std::string::npos) << err;
}

TEST(ScenarioUnits, SizesRatesTimes)
{
    EXPECT_EQ(ParseByteSize("16MB"), 16000000u);
    EXPECT_EQ(ParseByteSize("16MiB"), 16777216u);
    EXPECT_EQ(ParseByteSize("1.5KB"), 1500u);
    EXPECT_EQ(ParseByteSize("4096"), 4096u);
    EXPECT_THROW(ParseByteSize("1.5B"), ScenarioError);
    EXPECT_THROW(ParseByteSize("12 parsecs"), ScenarioError);
    EXPECT_EQ(ParseRate("400Gbps").GetBitRate(), 400000000000u);
    EXPECT_EQ(ParseRate("25Gb/s").GetBitRate(), 25000000000u);
    EXPECT_THROW(ParseRate("0Gbps"), ScenarioError);
    EXPECT_THROW(ParseRate("fast"), ScenarioError);
    EXPECT_EQ(ParseTime("500ns").GetPicoSeconds(), 500000);
    EXPECT_EQ(ParseTime("1.5us").GetPicoSeconds(), 1500000);
    EXPECT_EQ(ParseTime("0").GetPicoSeconds(), 0);
    EXPECT_THROW(ParseTime("-1us"), ScenarioError);
}

TEST(ScenarioPatterns, ExpansionCountsAndPermutation)
{
    // all-to-all of N hosts: N (N - 1) ordered pairs.
    ScenarioConfig a =
        LoadScenarioFile(kIncast, {"workload={\"type\": \"all-to-all\", \"bytes\": 1000}"});
    EXPECT_EQ(a.workload.flows.size(), 16u * 15u);
    // A permutation: every host sends once and receives once, never to itself.
    ScenarioConfig p =
        LoadScenarioFile(kIncast, {"workload={\"type\": \"permutation\", \"bytes\": 1000}"});
    ASSERT_EQ(p.workload.flows.size(), 16u);
    std::vector<int> received(16, 0);
    for (const auto& f : p.workload.flows)
    {
        EXPECT_NE(f.src, f.dst);
        received[f.dst]++;
    }
    for (int r : received)
    {
        EXPECT_EQ(r, 1);
    }
    // The resolved scenario reads back to the same flows.
    ScenarioConfig back = ParseScenarioText(ScenarioToJson(p), {}, "resolved.json");
    ASSERT_EQ(back.workload.flows.size(), p.workload.flows.size());
    for (std::size_t i = 0; i < p.workload.flows.size(); ++i)
    {
        EXPECT_EQ(back.workload.flows[i].src, p.workload.flows[i].src);
        EXPECT_EQ(back.workload.flows[i].dst, p.workload.flows[i].dst);
        EXPECT_EQ(back.workload.flows[i].bytes, p.workload.flows[i].bytes);
    }
    EXPECT_EQ(back.sw.bufferBytes, p.sw.bufferBytes);
    EXPECT_EQ(LinkRate(back, "host_link"), LinkRate(p, "host_link"));
}

TEST(Scenario, CongestionControlProfileFromTheScenarioFile)
{
    // "Profile" reaches every QP's algorithm, for a class whose parameters
    // live in its parent (patched TIMELY inherits TIMELY's); an unknown
    // profile is a one-line scenario error, not an abort.
    ScenarioConfig cfg =
        LoadScenarioFile(kIncast,
                         {"nic.cc=\"timely-patched\"",
                          "nic.cc_params={\"Profile\": \"100g\", \"Thigh\": \"200us\"}"});
    ScenarioRunner run(cfg);
    run.Build();
    Ptr<RdmaQueuePair> qp = run.GetTopology()->Connect(1, 0, 3);
    TimeValue t;
    qp->GetCongestionOps()->GetAttribute("Tlow", t);
    EXPECT_EQ(t.Get(), MicroSeconds(15)); // from the profile
    qp->GetCongestionOps()->GetAttribute("Thigh", t);
    EXPECT_EQ(t.Get(), MicroSeconds(200)); // the scenario's own value wins
    Simulator::Destroy();

    ScenarioConfig bad =
        LoadScenarioFile(kIncast, {"nic.cc=\"timely\"", "nic.cc_params={\"Profile\": \"10g\"}"});
    ScenarioRunner badRun(bad);
    try
    {
        badRun.Build();
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("nic.cc_params.Profile: unknown profile \"10g\""), std::string::npos)
            << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos);
    }
    Simulator::Destroy();
}

/// The one-line error Build() gives the incast scenario with \p sets ("" if none).
std::string
BuildError(const std::vector<std::string>& sets)
{
    ScenarioRunner run(LoadScenarioFile(kIncast, sets));
    try
    {
        run.Build();
    }
    catch (const ScenarioError& e)
    {
        Simulator::Destroy();
        return e.what();
    }
    Simulator::Destroy();
    return "";
}

struct BadCcParam
{
    const char* name;
    const char* cc;       // nic.cc
    const char* params;   // nic.cc_params
    const char* expected; // the error after "<file>: "
};

void
PrintTo(const BadCcParam& c, std::ostream* os)
{
    *os << c.name;
}

class BadCcParams : public ::testing::TestWithParam<BadCcParam>
{
};

TEST_P(BadCcParams, AreOneLineErrorsNotAborts)
{
    // ns-3 aborted on these ("Invalid value for attribute set", or its
    // parser's "not properly formatted"): each value is now read as its
    // attribute's type and checked by the attribute's own checker.
    const BadCcParam& c = GetParam();
    const std::string msg =
        BuildError({std::string("nic.cc=") + c.cc, std::string("nic.cc_params=") + c.params});
    EXPECT_EQ(msg, std::string(kIncast) + ": " + c.expected);
}

INSTANTIATE_TEST_SUITE_P(
    Errors,
    BadCcParams,
    ::testing::Values(
        BadCcParam{"double_above",
                   "dcqcn",
                   R"({"G": 2})",
                   "nic.cc_params.G: expected a number in [0, 1], got 2"},
        BadCcParam{"double_below",
                   "dcqcn",
                   R"({"G": -1})",
                   "nic.cc_params.G: expected a number in [0, 1], got -1"},
        BadCcParam{"double_word",
                   "dcqcn",
                   R"({"G": "fast"})",
                   "nic.cc_params.G: expected a number in [0, 1], got \"fast\""},
        BadCcParam{"double_trailing_text",
                   "hpcc",
                   R"({"Eta": "0.9x"})",
                   "nic.cc_params.Eta: expected a number in [0.01, 1], got \"0.9x\""},
        BadCcParam{"uint_fraction",
                   "dcqcn",
                   R"({"F": 1.5})",
                   "nic.cc_params.F: expected an integer in [0, 4294967295], got 1.5"},
        BadCcParam{"uint_negative",
                   "dcqcn",
                   R"({"F": -5})",
                   "nic.cc_params.F: expected an integer in [0, 4294967295], got -5"},
        BadCcParam{"uint_beyond_64_bits",
                   "dcqcn",
                   R"({"F": 99999999999999999999})",
                   "nic.cc_params.F: expected an integer in [0, 4294967295], got 1e+20"},
        BadCcParam{"uint_above_32_bits",
                   "hpcc",
                   R"({"MaxStage": 4294967296})",
                   "nic.cc_params.MaxStage: expected an integer in [0, 4294967295], got "
                   "4294967296"},
        BadCcParam{"uint_below_minimum",
                   "timely",
                   R"({"SegmentBytes": 0})",
                   "nic.cc_params.SegmentBytes: expected an integer in [1, 4294967295], got 0"},
        BadCcParam{"bool_word",
                   "dcqcn",
                   R"({"ClampTargetRate": "maybe"})",
                   "nic.cc_params.ClampTargetRate: expected true or false, got \"maybe\""},
        BadCcParam{"bool_number",
                   "timely",
                   R"({"TimeScaled": 2})",
                   "nic.cc_params.TimeScaled: expected true or false, got 2"},
        // Times and rates need their unit, as everywhere in a scenario:
        // ns-3 read a bare 55 as 55 s and 40 as 40 bit/s.
        BadCcParam{"time_unitless",
                   "dcqcn",
                   R"({"IncreasePeriod": 55})",
                   "nic.cc_params.IncreasePeriod: expected a time such as \"1us\" or \"10ms\", "
                   "got 55"},
        BadCcParam{"time_unitless_text",
                   "timely",
                   R"({"Tlow": "50"})",
                   "nic.cc_params.Tlow: expected a time such as \"1us\" or \"10ms\", got 50"},
        BadCcParam{"time_word",
                   "dcqcn",
                   R"({"AlphaPeriod": "soon"})",
                   "nic.cc_params.AlphaPeriod: expected a non-negative time such as \"1us\" or "
                   "\"10ms\" (no sign, no exponent), got \"soon\""},
        BadCcParam{"time_below_minimum",
                   "timely",
                   R"({"MinRtt": "500ps"})",
                   "nic.cc_params.MinRtt: expected a time of at least 1ns, got \"500ps\""},
        BadCcParam{"time_zero_below_minimum",
                   "dcqcn",
                   R"({"AlphaPeriod": 0})",
                   "nic.cc_params.AlphaPeriod: expected a time of at least 1ns, got 0"},
        BadCcParam{"rate_unitless",
                   "dcqcn",
                   R"({"RateAI": 40})",
                   "nic.cc_params.RateAI: expected a data rate such as \"100Gbps\", got 40"},
        BadCcParam{"rate_word",
                   "timely",
                   R"({"MinRate": "slow"})",
                   "nic.cc_params.MinRate: expected a positive data rate such as \"100Gbps\" (no "
                   "sign, no exponent), got \"slow\""}),
    [](const ::testing::TestParamInfo<BadCcParam>& info) { return std::string(info.param.name); });

TEST(Scenario, CongestionControlValuesReachEveryQp)
{
    // Numbers and booleans as JSON or as the text scenario.json writes them
    // back ("0.5"), each set as its attribute's own type.
    ScenarioConfig cfg = LoadScenarioFile(
        kIncast,
        {"nic.cc=dcqcn",
         R"(nic.cc_params={"G": "0.5", "F": 3, "ByteCounter": "0", "ClampTargetRate": false,
                           "IncreasePeriod": "300us", "RateReducePeriod": 0,
                           "RateAI": "5Mbps"})"});
    ScenarioRunner run(cfg);
    run.Build();
    Ptr<RdmaQueuePair> qp = run.GetTopology()->Connect(1, 0, 3);
    DoubleValue g;
    qp->GetCongestionOps()->GetAttribute("G", g);
    EXPECT_EQ(g.Get(), 0.5);
    UintegerValue f;
    qp->GetCongestionOps()->GetAttribute("F", f);
    EXPECT_EQ(f.Get(), 3u);
    qp->GetCongestionOps()->GetAttribute("ByteCounter", f);
    EXPECT_EQ(f.Get(), 0u);
    BooleanValue clamp;
    qp->GetCongestionOps()->GetAttribute("ClampTargetRate", clamp);
    EXPECT_FALSE(clamp.Get());
    TimeValue t;
    qp->GetCongestionOps()->GetAttribute("IncreasePeriod", t);
    EXPECT_EQ(t.Get(), MicroSeconds(300));
    qp->GetCongestionOps()->GetAttribute("RateReducePeriod", t);
    EXPECT_EQ(t.Get(), Time(0));
    DataRateValue r;
    qp->GetCongestionOps()->GetAttribute("RateAI", r);
    EXPECT_EQ(r.Get(), DataRate("5Mbps"));
    Simulator::Destroy();
}
