/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The scenario file layer's one-line errors (no simulation): every bad key or
 * value of the incast scenario names the file and the key, invalid JSON its
 * position, duplicate keys, unreadable files and invalid UTF-8. Runs from the
 * repository root (ctest's working directory), in well under a second.
 */
#include "scenario-fixtures.h"

#include "ns3/scenario-config.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <vector>

using namespace ns3;
using namespace tftest;

namespace
{

struct BadCase
{
    const char* name;
    std::vector<std::string> sets; // applied to the incast scenario
    std::vector<std::string> want; // substrings of the one-line message
};

/// gtest prints the case by name.
void
PrintTo(const BadCase& c, std::ostream* os)
{
    *os << c.name;
}

class ScenarioConfigBad : public ::testing::TestWithParam<BadCase>
{
};

} // namespace

TEST_P(ScenarioConfigBad, OneLineNamingFileAndKey)
{
    const BadCase& c = GetParam();
    const std::string msg = IncastError(c.sets);
    ASSERT_FALSE(msg.empty()) << "accepted";
    EXPECT_EQ(msg.rfind("incast.json: ", 0), 0u) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const std::string& w : c.want)
    {
        EXPECT_NE(msg.find(w), std::string::npos) << "want \"" << w << "\" in: " << msg;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Errors,
    ScenarioConfigBad,
    ::testing::Values(
        // unknown keys, at every level
        BadCase{"unknown_top", {"frobnicate=1"}, {"frobnicate: unknown key (valid: name, seed"}},
        BadCase{"misspelled_section_first",
                {"topolgy={\"hosts_per_leaf\": 2}"},
                {"topolgy: unknown key (valid:"}},
        BadCase{"unknown_switch",
                {"switch.frobnicate=1"},
                {"switch.frobnicate: unknown key (valid: buffer, pfc, alpha"}},
        BadCase{"unknown_link",
                {"topology.host_link.jitter=\"1ns\""},
                {"topology.host_link.jitter"}},
        BadCase{"unknown_ecn",
                {"switch.ecn={\"kmin\": 1, \"k\": 2}"},
                {"switch.ecn.k: unknown key"}},
        BadCase{
            "unknown_flow_key",
            {R"(workload={"type": "flows", "flows": [{"src": 0, "dst": 1, "bytes": 1},
                     {"src": 0, "dst": 2, "bytes": 1, "colour": "red"}]})"},
            {"workload.flows[1].colour: unknown key (valid: src, dst, bytes, start, priority)"}},
        BadCase{"key_of_other_workload",
                {"workload.hosts=\"all\""},
                {"workload.hosts: unknown key"}},
        BadCase{"key_of_other_topology", {"topology.dims=[4, 4]"}, {"topology.dims: unknown key"}},
        // wrong types
        BadCase{"leaves_string",
                {"topology.leaves=\"two\""},
                {"topology.leaves: expected a non-negative integer, got \"two\""}},
        BadCase{"leaves_float", {"topology.leaves=2.5"}, {"topology.leaves: expected", "got 2.5"}},
        BadCase{"section_not_object", {"switch=5"}, {"switch: expected an object, got 5"}},
        BadCase{"pfc_string",
                {"switch.pfc=yes"},
                {"switch.pfc: expected true or false, got \"yes\""}},
        BadCase{"monitor_plots_string",
                {"monitor.plots=\"no\""},
                {"monitor.plots: expected true or false, got \"no\""}},
        BadCase{"windows_number", {"windows=1"}, {"windows: expected true or false, got 1"}},
        BadCase{"sync_word",
                {"workload={\"type\": \"collective\", \"collective\": \"all-reduce\", "
                 "\"group\": [0, 1], \"bytes\": \"1MB\", \"sync\": \"ranks\"}"},
                {"workload.sync: expected"}},
        BadCase{"rate_word",
                {"topology.host_link.rate=fast"},
                {"topology.host_link.rate: expected a positive data rate such as \"100Gbps\" (no "
                 "sign, no exponent), got \"fast\""}},
        BadCase{"rate_number", {"topology.fabric_link.rate=100"}, {"topology.fabric_link.rate"}},
        // A minimum frame (84 B on the wire) must take at least the clock's 1 ps: at most
        // 672 Tb/s (faster, 1.2 MB crossed a link in 0 s and slowdowns were NaN)
        BadCase{"host_link_rate_too_fast",
                {"topology.host_link.rate=\"10000000Tbps\""},
                {"topology.host_link.rate: expected a link rate of at most 672Tbps (a minimum "
                 "frame, 84 B on the wire, must take at least the model's 1 ps clock tick), got "
                 "\"10000000Tbps\""}},
        BadCase{"fabric_link_rate_673Tbps",
                {"topology.fabric_link.rate=\"673Tbps\""},
                {"topology.fabric_link.rate: expected a link rate of at most 672Tbps"}},
        BadCase{
            "torus_dim_link_rate_too_fast",
            {R"(topology={"type": "torus", "dims": [4, 4], "dim_links": [{}, {"rate": "1000Tbps"}]})"},
            {"topology.dim_links[1].rate: expected a link rate of at most 672Tbps"}},
        BadCase{"event_rate_too_fast",
                {R"(events=[{"at": "1us", "link": [0, 16], "rate": "672000000000001bps"}])"},
                {"events[0].rate: expected a link rate of at most 672Tbps"}},
        BadCase{"delay_negative",
                {"topology.host_link.delay=\"-1us\""},
                {"topology.host_link.delay"}},
        BadCase{"cc_params_nested",
                {"nic.cc_params={\"g\": {\"x\": 1}}"},
                {"nic.cc_params.g: expected a string, number or boolean"}},
        // impossible values
        BadCase{"zero_leaves",
                {"topology.leaves=0"},
                {"topology.leaves: expected an integer in [1"}},
        BadCase{"zero_spines", {"topology.spines=0"}, {"topology.spines"}},
        BadCase{"zero_hosts", {"topology.hosts_per_leaf=0"}, {"topology.hosts_per_leaf"}},
        BadCase{"negative_leaves", {"topology.leaves=-1"}, {"topology.leaves", "got -1"}},
        BadCase{"bad_topology_type",
                {"topology.type=dragonfly"},
                {"topology.type: expected one of leaf-spine", "got \"dragonfly\""}},
        BadCase{"self_flow",
                {R"(workload={"type": "flows", "flows": [{"src": 3, "dst": 3, "bytes": 1}]})"},
                {"workload.flows[0].dst", "src == dst"}},
        BadCase{"host_range_flow",
                {R"(workload={"type": "flows", "flows": [{"src": 0, "dst": 1, "bytes": 1},
                     {"src": 0, "dst": 2, "bytes": 1}, {"src": 0, "dst": 3, "bytes": 1},
                     {"src": 1, "dst": 40, "bytes": 1}]})"},
                {"incast.json: workload.flows[3].dst: host 40 does not exist (topology has 16 "
                 "hosts, 0..15)"}},
        BadCase{"host_range_receiver", {"workload.receiver=16"}, {"host 16 does not exist"}},
        BadCase{"flow_missing_bytes",
                {R"(workload={"type": "flows", "flows": [{"src": 0, "dst": 1}]})"},
                {"workload.flows[0].bytes: expected", "got nothing"}},
        BadCase{"zero_bytes", {"workload.bytes=0"}, {"workload.bytes: expected at least 1"}},
        BadCase{"priority_8",
                {"workload.priority=8"},
                {"workload.priority: expected an integer in"}},
        BadCase{"flow_priority",
                {R"(workload={"type": "flows", "flows": [{"src": 0, "dst": 1, "bytes": 1,
                     "priority": 9}]})"},
                {"workload.flows[0].priority"}},
        BadCase{"pmax_high",
                {"switch.ecn={\"pmax\": 1.5}"},
                {"switch.ecn.pmax: expected a number in"}},
        BadCase{"pmax_negative", {"switch.ecn={\"pmax\": -0.1}"}, {"switch.ecn.pmax"}},
        BadCase{"kmin_over_kmax",
                {"switch.ecn={\"kmin\": \"500KB\", \"kmax\": \"100KB\"}"},
                {"switch.ecn.kmin: kmin must not exceed kmax"}},
        BadCase{"kmax_under_default_kmin",
                {"switch.ecn={\"kmax\": \"50KB\"}"},
                {"switch.ecn.kmin: kmin must not exceed kmax", "got 100000"}},
        BadCase{"headroom_over_buffer",
                {"switch.headroom=\"20MB\""},
                {"switch.headroom: headroom must be smaller than the buffer"}},
        BadCase{"headroom_word",
                {"switch.headroom=\"Auto\""},
                {"switch.headroom: expected \"auto\" or a positive size"}},
        BadCase{"reserved_over_buffer",
                {"switch.reserved=\"16MB\""},
                {"switch.reserved: reserved space must be smaller than the buffer"}},
        BadCase{"xon_over_buffer",
                {"switch.buffer=3000", "switch.reserved=1000"},
                {"switch.xon_offset: the XON offset must be smaller than the buffer"}},
        BadCase{"empty_senders",
                {"workload.senders=[]"},
                {"workload.senders: expected a non-empty array", "got []"}},
        BadCase{"receiver_among_senders",
                {"workload.receiver=8"},
                {"workload.senders[0]: the receiver cannot also be a sender"}},
        BadCase{"sender_twice",
                {"workload.senders[1]=8"},
                {"workload.senders[1]: host 8 is listed twice"}},
        BadCase{"no_receiver",
                {R"(workload={"type": "incast", "senders": [1], "bytes": 1})"},
                {"workload.receiver: expected", "got nothing"}},
        BadCase{"mtu_1500", {"nic.mtu=1500"}, {"nic.mtu: expected an InfiniBand MTU", "got 1500"}},
        BadCase{"mtu_wraps", {"nic.mtu=4294971392"}, {"nic.mtu", "got 4294971392"}},
        BadCase{"cc_unknown",
                {"nic.cc=reno"},
                {"nic.cc: expected one of none, dcqcn, dctcp, hpcc, timely, timely-patched, got"}},
        BadCase{"scheduler_unknown",
                {"scheduler=fifo"},
                {"scheduler: expected one of quad-heap, map, heap, calendar, priority-queue, got"}},
        BadCase{"simulator_unknown",
                {"simulator=default"},
                {"simulator: expected one of fabric, ns3-default, got"}},
        BadCase{"ack_interval_0", {"nic.ack_interval=0"}, {"nic.ack_interval"}},
        BadCase{"rto_0", {"nic.rto=0"}, {"nic.rto: expected a positive time"}},
        // RdmaNic's RetransmitTimeout takes at least 1 ns (its checker aborted the run)
        BadCase{"rto_999ps",
                {"nic.rto=\"999ps\""},
                {"nic.rto: expected a positive time of at least 1ns, got \"999ps\""}},
        BadCase{"rto_half_ns", {"nic.rto=\"0.5ns\""}, {"nic.rto: expected", "at least 1ns"}},
        BadCase{"wrr_seven",
                {"switch.wrr_weights=[1,1,1,1,1,1,1]"},
                {"switch.wrr_weights: expected an array of 8 positive integers"}},
        BadCase{"wrr_zero", {"switch.wrr_weights=[1,1,1,0,1,1,1,1]"}, {"switch.wrr_weights[3]"}},
        BadCase{"wrr_string", {"switch.wrr_weights=\"equal\""}, {"switch.wrr_weights"}},
        // Weights are read by the WRR scheduler only (under strict they were ignored).
        BadCase{"wrr_weights_without_wrr",
                {"switch.wrr_weights=[1,1,1,1,8,1,1,1]"},
                {"switch.wrr_weights: needs switch.scheduler \"wrr\" (strict priority has no "
                 "weights), got [1,1,1,1,8,1,1,1]"}},
        BadCase{"wrr_weights_under_strict",
                {"switch.scheduler=strict", "switch.wrr_weights=[1,1,1,1,8,1,1,1]"},
                {"switch.wrr_weights: needs switch.scheduler \"wrr\""}},
        BadCase{"scheduler",
                {"switch.scheduler=fifo"},
                {"switch.scheduler: expected one of strict, wrr"}},
        BadCase{"pin_no_spine",
                {R"(routing={"mode": "static", "pins": [{"src": 0, "dst": 8, "spine": 2}]})"},
                {"routing.pins[0].spine: spine 2 does not exist (topology has 2 spines, 0..1)"}},
        BadCase{"pin_same_leaf",
                {R"(routing={"mode": "static", "pins": [{"src": 0, "dst": 1, "spine": 0}]})"},
                {"routing.pins[0].dst: src and dst share a leaf"}},
        BadCase{"pin_not_static",
                {R"(routing.pins=[{"src": 0, "dst": 8, "spine": 0}])"},
                {"routing.pins: pins need routing.mode \"static\""}},
        BadCase{"pin_twice",
                {R"(routing={"mode": "static", "pins": [{"src": 0, "dst": 8, "spine": 0},
                     {"src": 0, "dst": 8, "spine": 1}]})"},
                {"routing.pins[1].src: this src, dst is already pinned by routing.pins[0]"}},
        BadCase{"routing_mode", {"routing.mode=random"}, {"routing.mode: expected one of ecmp"}},
        BadCase{"hash",
                {"routing.hash=md5"},
                {"routing.hash: expected one of crc32, crc32-plain, mix64"}},
        // stall_timeout: 0 (off) or at least 1 us ("1ps" was checked every picosecond,
        // "0.4ps" rounded to 0 and turned detection off)
        BadCase{"stall_timeout_1ps",
                {"stall_timeout=\"1ps\""},
                {"stall_timeout: expected 0 (no stall detection) or a time of at least 1us (it "
                 "checks every switch queue each stall_timeout / 4), got \"1ps\""}},
        BadCase{"stall_timeout_999ns", {"stall_timeout=\"999ns\""}, {"stall_timeout: expected 0"}},
        BadCase{"stall_timeout_rounds_to_0",
                {"stall_timeout=\"0.4ps\""},
                {"stall_timeout: expected 0 (no stall detection)", "got \"0.4ps\""}},
        BadCase{"stop_zero", {"stop=0"}, {"stop: expected a positive time"}},
        BadCase{"stop_zero_s", {"stop=\"0s\""}, {"stop: expected a positive time"}},
        BadCase{"stop_negative", {"stop=-1"}, {"stop: expected"}},
        BadCase{"stop_unitless", {"stop=\"10\""}, {"stop: expected a non-negative time"}},
        BadCase{"workload_type", {"workload.type=ring"}, {"workload.type: expected one of flows"}},
        BadCase{"name_slash", {"name=\"a/b\""}, {"name: expected a non-empty name"}},
        BadCase{"seed_negative", {"seed=-3"}, {"seed: expected a non-negative integer"}},
        // malformed --set
        BadCase{"set_no_equals",
                {"no-equals-sign"},
                {"--set \"no-equals-sign\": expected key.path=value"}},
        BadCase{"set_no_key", {"=5"}, {"expected key.path=value"}},
        BadCase{"set_empty_part", {"topology..leaves=2"}, {"malformed key path"}},
        BadCase{"set_bad_index", {"workload.senders[x]=1"}, {"malformed key path"}},
        BadCase{"set_index_range",
                {"workload.senders[8]=1"},
                {"--set workload.senders[8]: index out of range (the array has 8 elements)"}},
        BadCase{"set_name_on_array", {"workload.senders.first=1"}, {"expected an array index"}},
        BadCase{"set_index_on_object", {"topology[0]=1"}, {"--set topology[0]: not an array"}},
        BadCase{"set_through_scalar", {"seed.x=1"}, {"--set seed.x: its parent is not an object"}},
        // the load-balancing modes' keys, and the out-of-order NIC's
        BadCase{"spray_key_under_ecmp",
                {"routing.spray=\"random\""},
                {"routing.spray: unknown key (valid: mode, hash, seed, reconvergence, pins)"}},
        BadCase{"flowlet_select",
                {"routing.mode=\"flowlet\"", "routing.flowlet_select=\"x\""},
                {"routing.flowlet_select: expected one of random, hash"}},
        BadCase{"flowlet_timeout_zero",
                {"routing.mode=\"adaptive\"", "routing.flowlet_timeout=\"0us\""},
                {"routing.flowlet_timeout: expected a positive time"}},
        BadCase{"ooo_window_without_ooo",
                {"nic.ooo_window=64"},
                {"nic.ooo_window: needs nic.out_of_order true"}},
        // RdmaNic's OooWindow takes 2..65536 (its checker aborted the run)
        BadCase{"ooo_window_1",
                {"nic.out_of_order=true", "nic.ooo_window=1"},
                {"nic.ooo_window: expected an integer in [2, 65536], got 1"}},
        BadCase{"ooo_window_over",
                {"nic.out_of_order=true", "nic.ooo_window=65537"},
                {"nic.ooo_window: expected an integer in [2, 65536]"}},
        // dims and dim_algorithms shape "hierarchical" only (other algorithms ignored them)
        BadCase{"collective_dims_under_ring",
                {R"(workload={"type": "collective", "bytes": "1MB", "dims": [4, 4]})"},
                {"workload.dims: needs algorithm \"hierarchical\" (ring runs flat over the "
                 "group), got [4,4]"}},
        BadCase{"collective_dim_algorithms_under_direct",
                {R"(workload={"type": "collective", "algorithm": "direct", "bytes": "1MB",
                     "dim_algorithms": ["ring"]})"},
                {"workload.dim_algorithms: needs algorithm \"hierarchical\" (direct runs flat"}},
        BadCase{"collective_phase_dims_under_ring",
                {R"(workload={"type": "collective", "phases": [
                     {"algorithm": "hierarchical", "dims": [4, 4], "bytes": "1MB"},
                     {"algorithm": "ring", "dims": [4, 4], "bytes": "1MB"}]})"},
                {"workload.phases[1].dims: needs algorithm \"hierarchical\""}},
        BadCase{"collective_dim_algorithms_beyond_dims",
                {R"(workload={"type": "collective", "algorithm": "hierarchical", "bytes": "1MB",
                     "dims": [4, 4], "dim_algorithms": ["ring", "direct", "ring"]})"},
                {"workload.dim_algorithms: expected at most one algorithm per dimension (2 "
                 "dims), got [\"ring\",\"direct\",\"ring\"]"}},
        // control characters in keys do not break the line
        BadCase{"newline_in_key", {"bad\nkey=1"}, {"bad\\nkey: unknown key"}}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(ScenarioConfigErrors, InvalidJsonIsOneLineWithPosition)
{
    const std::string msg = ErrorOf("{\n  \"name\": \"x\",,\n}", {}, "broken.json");
    EXPECT_EQ(msg.rfind("broken.json: invalid JSON: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("line 2, column"), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(ErrorOf("", {}, "empty.json").find("empty.json: invalid JSON"), std::string::npos);
    EXPECT_NE(
        ErrorOf("[1, 2]", {}, "array.json").find("array.json: (top level): expected an object"),
        std::string::npos);
}

TEST(ScenarioConfigErrors, DuplicateKeysAreRejected)
{
    EXPECT_NE(
        ErrorOf(R"({"seed": 1, "seed": 2})", {}, "d.json").find("d.json: seed: key given twice"),
        std::string::npos);
    EXPECT_NE(ErrorOf(R"({"topology": {"leaves": 2, "spines": 2, "leaves": 4}})", {}, "d.json")
                  .find("d.json: topology.leaves: key given twice"),
              std::string::npos);
    const std::string flows = R"({"workload": {"type": "flows", "flows": [
        {"src": 0, "dst": 1, "bytes": 1}, {"src": 0, "dst": 2, "src": 1, "bytes": 1}]}})";
    EXPECT_NE(ErrorOf(flows, {}, "d.json").find("d.json: workload.flows[1].src: key given twice"),
              std::string::npos)
        << ErrorOf(flows, {}, "d.json");
    // The same key in different objects is fine.
    EXPECT_NO_THROW(ParseScenarioText(R"({"topology": {"host_link": {"rate": "1Gbps"},
                                           "fabric_link": {"rate": "1Gbps"}}})",
                                      {},
                                      "ok.json"));
}

TEST(ScenarioConfigErrors, Files)
{
    try
    {
        LoadScenarioFile("does-not-exist.json", {});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("does-not-exist.json: cannot open"),
                  std::string::npos);
    }
    try
    {
        LoadScenarioFile("examples", {});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("examples: cannot open"), std::string::npos);
    }
    // A bad value in a file names the file.
    const std::string path = ::testing::TempDir() + "tf-bad-scenario.json";
    {
        std::ofstream out(path);
        out << R"({"topology": {"host_link": {"rate": "fast"}}})";
    }
    try
    {
        LoadScenarioFile(path, {});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_EQ(std::string(e.what()),
                  path + ": topology.host_link.rate: expected a positive data rate such as "
                         "\"100Gbps\" (no sign, no exponent), got \"fast\"");
    }
    std::remove(path.c_str());
}

TEST(ScenarioConfigErrors, InvalidUtf8NeitherCrashesNorBreaksTheLine)
{
    // A --set value that is not JSON becomes a string as given, bytes and
    // all; a name must be text (it goes into summary.json and file names).
    const std::string name = IncastError({"name=r\xff\xfe"});
    EXPECT_NE(name.find("name: expected valid UTF-8 text"), std::string::npos) << name;
    EXPECT_EQ(name.find('\n'), std::string::npos) << name;
    ScenarioConfig c = Incast();
    c.name = "r\xff\xfe"; // as a program may set it
    EXPECT_NO_THROW(ScenarioToJson(c));
    const std::string msg = IncastError({"nic.cc=\xff"});
    EXPECT_NE(msg.find("nic.cc: expected one of"), std::string::npos) << msg;
}

TEST(ScenarioConfigErrors, StallTimeoutZeroOrAtLeastOneMicrosecond)
{
    // 0 in any spelling still turns detection off; 1 us is the shortest timeout.
    for (const char* off : {"stall_timeout=0", "stall_timeout=\"0\"", "stall_timeout=\"0ms\""})
    {
        EXPECT_EQ(IncastError({off}), "") << off;
        EXPECT_EQ(Incast({off}).stallTimeout, Time(0)) << off;
    }
    EXPECT_EQ(Incast({"stall_timeout=\"1us\""}).stallTimeout, MicroSeconds(1));
}

TEST(ScenarioConfigErrors, LinkRatesUpTo672Tbps)
{
    // 672 Tb/s: a minimum frame takes exactly 1 ps, the fastest link the clock resolves.
    EXPECT_EQ(IncastError({"topology.host_link.rate=\"672Tbps\""}), "");
    EXPECT_EQ(CheckLinkRate(DataRate(ScenarioLimits::kMaxLinkRateBps)), "");
    EXPECT_NE(CheckLinkRate(DataRate(ScenarioLimits::kMaxLinkRateBps + 1)), "");
    // Rates that are not a link's (a poisson load's link_rate) keep ParseRate's range.
    EXPECT_EQ(ParseRate("1000Tbps").GetBitRate(), 1000000000000000u);
}

TEST(ScenarioConfigErrors, TraceWorkloadsTakeDimsWithoutHierarchical)
{
    // A trace's collectives split over dims (involved_dim) whatever the
    // algorithm: the collective workload's refusal is not theirs.
    EXPECT_EQ(IncastError({R"(workload={"type": "text", "path": "traces/text/two-stage.txt",
                                          "dims": [2]})"}),
              "");
    // Fewer dim_algorithms than dims is fine (the rest run ring).
    EXPECT_EQ(IncastError({R"(workload={"type": "collective", "algorithm": "hierarchical",
                                          "bytes": "1MB", "dims": [4, 4],
                                          "dim_algorithms": ["direct"]})"}),
              "");
}
