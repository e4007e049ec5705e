/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Background-traffic generator tests: the CDF files and their errors, flow
 * sizes against the CDF by a Kolmogorov-Smirnov bound, the offered load and
 * the arrival process against their Poisson expectations, and the
 * slowdown-by-size buckets; then the scenario workload "poisson", a
 * background beside a collective, and fct_by_size.csv of a run.
 */
#include "ns3/poisson-traffic.h"
#include "ns3/scenario-config.h"
#include "ns3/scenario-runner.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <tuple>

using namespace ns3;

namespace
{

/// The shipped CDFs, read from the module folder (the tests' working directory).
FlowSizeCdf
Shipped(const std::string& name)
{
    return FlowSizeCdf::Load(FlowSizeCdf::Resolve(name, "traces/cdf"));
}

/**
 * Kolmogorov-Smirnov statistic of integer \p samples against the integer
 * distribution G(k) = P(size <= k). Both are step functions constant on
 * [k, k+1), and the empirical one only jumps at sample values, so the
 * supremum of |F_n - G| is reached at a sample value x (F_n(x) vs G(x)) or
 * just below one (F_n(x - 1) vs G(x - 1)).
 */
template <class G>
double
KsStatistic(std::vector<uint64_t> samples, G g)
{
    std::sort(samples.begin(), samples.end());
    const double n = samples.size();
    double d = 0;
    for (std::size_t i = 0; i < samples.size();)
    {
        std::size_t j = i;
        while (j < samples.size() && samples[j] == samples[i])
        {
            ++j;
        }
        const auto x = static_cast<double>(samples[i]);
        d = std::max(d, std::abs(i / n - g(x - 1))); // F_n just below x: i samples < x
        d = std::max(d, std::abs(j / n - g(x)));
        i = j;
    }
    return d;
}

/**
 * Critical value of the KS statistic at level alpha for n samples: the
 * asymptotic Kolmogorov distribution, P(sqrt(n) D > c) ~ 2 exp(-2 c^2) (the
 * first term of the series; the next, -2 exp(-8 c^2), is below 10^-12 here),
 * so c = sqrt(-ln(alpha / 2) / 2), with Stephens' finite-n correction
 * D_crit = c / (sqrt(n) + 0.12 + 0.11 / sqrt(n)). For a distribution with
 * atoms (sizes are whole bytes) the test is conservative: a correct sampler
 * exceeds the bound with probability at most alpha.
 */
double
KsCritical(double n, double alpha)
{
    const double c = std::sqrt(-std::log(alpha / 2) / 2);
    return c / (std::sqrt(n) + 0.12 + 0.11 / std::sqrt(n));
}

/// The point table of a CDF file as plain numbers (bytes, fraction), for first-principles sums.
double
SecondMoment(const FlowSizeCdf& cdf)
{
    // A piecewise-linear CDF is a mixture of uniforms on [x0, x1] with weight
    // y1 - y0; a uniform's E[X^2] is (x0^2 + x0 x1 + x1^2) / 3.
    double m2 = 0;
    const auto& p = cdf.Points();
    for (std::size_t i = 1; i < p.size(); ++i)
    {
        const double a = p[i - 1].first;
        const double b = p[i].first;
        m2 += (a * a + a * b + b * b) / 3 * (p[i].second - p[i - 1].second);
    }
    return m2;
}

} // namespace

TEST(PoissonTraffic, ShippedCdfsHaveTheirPublishedMeans)
{
    // Mean of a piecewise-linear CDF: sum over segments of the midpoint times
    // the segment's mass. WebSearch (table in traces/cdf/websearch.txt):
    // 5000 x .15 + 15000 x .05 + 25000 x .10 + 40000 x .10 + 65000 x .13
    // + 140000 x .07 + 600000 x .10 + 1.5e6 x .10 + 3.5e6 x .10 + 7.5e6 x .07
    // + 2e7 x .03 = 1,711,250 B, the figure HPCC's generator computes the same way.
    EXPECT_NEAR(Shipped("websearch").Mean(), 1711250.0, 1e-6);
    // Hadoop: 50x.01 + 150x.01 + 250x.03 + 325x.10 + 375x.05 + 450x.10 + 550x.10
    // + 650x.10 + 850x.10 + 1500x.07 + 4500x.03 + 18500x.02 + 40000x.10
    // + 65000x.05 + 100000x.03 + 210000x.05 + 650000x.025 + 1.5e6x.015
    // + 6e6x.01 = 120,420.75 B.
    EXPECT_NEAR(Shipped("hadoop").Mean(), 120420.75, 1e-6);
    // Alibaba storage: 2000x.2293 + 6000x.4628 + 12000x.1140 + 24000x.0986
    // + 48000x.0306 + 96000x.0324 + 192000x.0076 + 1128000x.0247 = 40,869.8 B.
    EXPECT_NEAR(Shipped("alibaba-storage").Mean(), 40869.8, 1e-6);
    EXPECT_EQ(Shipped("websearch").MaxBytes(), 30000000u);
    EXPECT_DOUBLE_EQ(Shipped("websearch").At(50000), 0.40);
    EXPECT_DOUBLE_EQ(Shipped("websearch").At(15000), 0.175); // halfway from 15% to 20%
    EXPECT_EQ(FlowSizeCdf::Resolve("my/cdf.txt", "traces/cdf"), "my/cdf.txt");
}

TEST(PoissonTraffic, BadCdfFilesNameTheLine)
{
    auto error = [](const std::string& text) {
        try
        {
            FlowSizeCdf::Parse(text, "u.cdf");
        }
        catch (const TrafficError& e)
        {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(error("0 0\n# comment\n100 fifty\n"),
              "u.cdf:3: expected \"<flow size in bytes> <cumulative percent>\", got \"100 fifty\"");
    EXPECT_EQ(error("0 0\n100 50 7\n"),
              "u.cdf:2: expected \"<flow size in bytes> <cumulative percent>\", got \"100 50 7\"");
    EXPECT_EQ(error("0 0\n100 50\n100 100\n"),
              "u.cdf:3: sizes and percents must both increase from one line to the next");
    EXPECT_EQ(error("0 0\n100 50\n200 50\n"),
              "u.cdf:3: sizes and percents must both increase from one line to the next");
    EXPECT_EQ(error("10 5\n100 100\n"), "u.cdf:1: expected the first point at percent 0, got 5");
    EXPECT_EQ(error("0 0\n100 101\n"),
              "u.cdf:2: expected a cumulative percent between 0 and 100, got 101");
    EXPECT_EQ(error("-1 0\n100 100\n"),
              "u.cdf:1: expected a flow size between 0 and 10^15 bytes, got -1");
    EXPECT_EQ(error("0 0\n100 99\n"),
              "u.cdf: expected at least two points, the last at percent 100");
    EXPECT_EQ(error(""), "u.cdf: expected at least two points, the last at percent 100");
    EXPECT_EQ(error("0 0\n1e400 100\n"),
              "u.cdf:2: expected \"<flow size in bytes> <cumulative percent>\", got \"1e400 100\"");
    EXPECT_THROW(FlowSizeCdf::Load("traces/cdf/no-such-file.txt"), TrafficError);
}

TEST(PoissonTraffic, SizesMatchTheCdfByKolmogorovSmirnov)
{
    // n = 20,000 sizes per distribution, alpha = 0.001: c = sqrt(-ln(0.0005)/2)
    // = 1.9495, D_crit = 1.9495 / (141.42 + 0.12 + 0.0008) = 0.01377. Sizes are
    // rounded to whole bytes (at least 1), so a size k has P(size <= k) =
    // F(k + 0.5) for k >= 1 (the CDF at the rounding boundary).
    const uint32_t n = 20000;
    const double crit = KsCritical(n, 0.001);
    EXPECT_NEAR(crit, 0.01377, 0.00001);
    for (const char* name : {"websearch", "hadoop", "alibaba-storage"})
    {
        const FlowSizeCdf cdf = Shipped(name);
        const auto flows = GeneratePoissonFlows(cdf, {0, 1, 2, 3}, 0.5, 100e9, 0, 7);
        ASSERT_TRUE(flows.empty()); // a zero duration draws nothing
        std::vector<uint64_t> sizes;
        // Enough simulated time for n flows on 4 hosts at full load.
        const double perHostPerS = 100e9 / (8 * cdf.Mean());
        const auto durationPs = static_cast<uint64_t>(1.2 * n / 4 / perHostPerS * 1e12);
        for (const auto& f : GeneratePoissonFlows(cdf, {0, 1, 2, 3}, 1.0, 100e9, durationPs, 7))
        {
            sizes.push_back(f.bytes);
        }
        ASSERT_GE(sizes.size(), n) << name;
        sizes.resize(n);
        const auto g = [&cdf](double k) { return k < 1 ? 0.0 : cdf.At(k + 0.5); };
        EXPECT_LT(KsStatistic(sizes, g), crit) << name;
    }
}

TEST(PoissonTraffic, OfferedLoadWithinTwoPercent)
{
    // Bytes offered in time T by all hosts: a compound Poisson sum S of
    // N ~ Poisson(M) sizes X, so E[S] = M E[X] and Var[S] = M E[X^2]: the
    // relative standard deviation of the measured load is
    // sqrt(E[X^2]) / (E[X] sqrt(M)). A 2% tolerance at 4 standard deviations
    // (a correct generator fails with probability 6e-5) needs
    // M >= (sqrt(E[X^2]) / E[X] / 0.005)^2: 254,889 flows for WebSearch
    // (sqrt(E[X^2]) / E[X] = 2.524). 16 hosts at 50% of 100 Gb/s start
    // 16 x 0.5 x 1e11 / (8 x 1,711,250) = 58,437 flows/s: 4.5 s gives M = 262,966.
    const FlowSizeCdf cdf = Shipped("websearch");
    std::vector<uint32_t> hosts;
    for (uint32_t h = 0; h < 16; ++h)
    {
        hosts.push_back(h);
    }
    const double load = 0.5;
    const double rate = 100e9;
    const double seconds = 4.5;
    const double m = hosts.size() * load * rate / (8 * cdf.Mean()) * seconds;
    const double ratio = std::sqrt(SecondMoment(cdf)) / cdf.Mean();
    EXPECT_NEAR(ratio, 2.524, 0.001);
    ASSERT_GE(m, std::pow(ratio / 0.005, 2));

    const auto flows = GeneratePoissonFlows(cdf, hosts, load, rate, 4'500'000'000'000ULL, 1);
    double bytes = 0;
    std::map<uint32_t, uint64_t> pairs;
    uint64_t prev = 0;
    for (const auto& f : flows)
    {
        bytes += f.bytes;
        ASSERT_NE(f.src, f.dst);
        ASSERT_LT(f.dst, 16u);
        ASSERT_GE(f.startPs, prev); // sorted by start
        prev = f.startPs;
        ++pairs[f.src * 16 + f.dst];
    }
    const double measured = bytes * 8 / (hosts.size() * rate * seconds);
    EXPECT_NEAR(measured, load, 0.02 * load);
    // The count is Poisson(M): within 4 standard deviations, sqrt(M) = 513.
    EXPECT_NEAR(static_cast<double>(flows.size()), m, 4 * std::sqrt(m));
    // Destinations uniform over the 15 others: every ordered pair gets
    // M / 240 = 1096 flows, binomial sd ~ sqrt(1096) = 33; 5 sd over 240 pairs.
    EXPECT_EQ(pairs.size(), 240u);
    for (const auto& [pair, count] : pairs)
    {
        EXPECT_NEAR(static_cast<double>(count), m / 240, 5 * std::sqrt(m / 240)) << pair;
    }
}

TEST(PoissonTraffic, GapsAreExponentialAndStreamsPerHost)
{
    // One host's inter-arrival gaps against the exponential CDF
    // 1 - exp(-x / mean), mean = 8 E[X] / (load x rate): Hadoop at 30% of
    // 100 Gb/s, 8 x 120,420.75 / 3e10 s = 32.11 us. KS as for the sizes, on
    // gaps in whole picoseconds (starts are truncated to ps: at most 1 ps,
    // 3e-8 of the mean, far below D_crit).
    const FlowSizeCdf cdf = Shipped("hadoop");
    const double meanPs = 8 * 120420.75 / (0.3 * 100e9) * 1e12;
    const auto flows = GeneratePoissonFlows(cdf, {5, 9}, 0.3, 100e9, 400'000'000'000ULL, 3);
    std::vector<uint64_t> gaps;
    uint64_t last = 0;
    for (const auto& f : flows)
    {
        if (f.src == 5)
        {
            gaps.push_back(f.startPs - last);
            last = f.startPs;
            EXPECT_EQ(f.dst, 9u);
        }
    }
    // 0.4 s / 32.11 us = 12,457 expected.
    ASSERT_GT(gaps.size(), 12000u);
    const auto expo = [meanPs](double x) { return x < 0 ? 0.0 : 1 - std::exp(-x / meanPs); };
    EXPECT_LT(KsStatistic(gaps, expo), KsCritical(gaps.size(), 0.001));

    // Host 5's flows do not depend on which other hosts take part.
    const auto alone = GeneratePoissonFlows(cdf, {5, 9}, 0.3, 100e9, 1'000'000'000ULL, 3);
    const auto more = GeneratePoissonFlows(cdf, {9, 5, 11}, 0.3, 100e9, 1'000'000'000ULL, 3);
    std::vector<std::pair<uint64_t, uint64_t>> a;
    std::vector<std::pair<uint64_t, uint64_t>> b;
    for (const auto& f : alone)
    {
        if (f.src == 5)
        {
            a.emplace_back(f.startPs, f.bytes);
        }
    }
    for (const auto& f : more)
    {
        if (f.src == 5)
        {
            b.emplace_back(f.startPs, f.bytes);
        }
    }
    EXPECT_FALSE(a.empty());
    EXPECT_EQ(a, b);
    EXPECT_THROW(GeneratePoissonFlows(cdf, {5}, 0.3, 100e9, 1, 3), TrafficError);
    EXPECT_THROW(GeneratePoissonFlows(cdf, {5, 6}, 0, 100e9, 1, 3), TrafficError);
}

TEST(PoissonTraffic, SlowdownBucketsAsHpccReportsThem)
{
    // 40 flows: sizes 1..40 with slowdown = size / 10 (floored at 1), cut
    // into 4 buckets of 10. Bucket 0 (sizes 1-10) is all 1 after the floor;
    // bucket 3 holds slowdowns 3.1..4.0: nearest-rank p50 = 5th = 3.5,
    // p95 = ceil(9.5) = 10th = 4.0, p99 = 10th = 4.0.
    std::vector<std::pair<uint64_t, double>> flows;
    for (uint64_t s = 40; s >= 1; --s)
    {
        flows.emplace_back(s, s / 10.0);
    }
    const auto b = SlowdownBySize(flows, 4);
    ASSERT_EQ(b.size(), 4u);
    EXPECT_EQ(b[0].minBytes, 1u);
    EXPECT_EQ(b[0].maxBytes, 10u);
    EXPECT_EQ(b[0].flows, 10u);
    EXPECT_DOUBLE_EQ(b[0].p99, 1.0);
    EXPECT_EQ(b[3].minBytes, 31u);
    EXPECT_DOUBLE_EQ(b[3].p50, 3.5);
    EXPECT_DOUBLE_EQ(b[3].p95, 4.0);
    EXPECT_DOUBLE_EQ(b[1].p50, 1.5);
    const std::string csv = SlowdownBySizeCsv(b);
    EXPECT_EQ(csv.substr(0, csv.find("\n1,")),
              "bucket,min_bytes,max_bytes,flows,p50_slowdown,p95_slowdown,p99_slowdown\n"
              "0,1,10,10,1.0000,1.0000,1.0000");
    // Fewer flows than buckets: one bucket per flow.
    EXPECT_EQ(SlowdownBySize({{5, 2.0}, {3, 1.5}}, 20).size(), 2u);
    EXPECT_TRUE(SlowdownBySize({}, 20).empty());
}

namespace
{

/// The rows of a CSV text after its header, split at commas.
std::vector<std::vector<std::string>>
CsvRows(const std::string& text)
{
    std::istringstream in(text);
    std::string line;
    std::getline(in, line); // header
    std::vector<std::vector<std::string>> rows;
    while (std::getline(in, line))
    {
        std::vector<std::string> cols;
        std::istringstream fields(line);
        for (std::string c; std::getline(fields, c, ',');)
        {
            cols.push_back(c);
        }
        if (!line.empty() && line.back() == ',')
        {
            cols.emplace_back(); // a trailing empty column
        }
        rows.push_back(cols);
    }
    return rows;
}

/// The error ParseScenarioText gives \p text, or "no error".
std::string
ScenarioErrorOf(const std::string& text)
{
    try
    {
        ParseScenarioText(text, {}, "p.json");
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(PoissonWorkload, OfferedLoadOfTheScenarioWithinItsPoissonBound)
{
    // Hadoop at 40% of the topology's 25 Gb/s host links (not the 100 Gb/s
    // default: the rate comes from the topology), among 8 listed hosts, for
    // 50 ms from 1 ms. Each host starts flows at 0.4 x 25e9 / (8 x 120,420.75 B)
    // = 10,380.3 /s, so M = 8 x 10,380.3 x 0.05 = 4,152.1 flows are expected.
    // The count is Poisson(M): within 4 sd, 4 sqrt(M) = 257.7 (6.2%). The
    // bytes are a compound Poisson sum: E = M E[X] (load x rate x T x hosts /
    // 8 = 5e8 B), relative sd sqrt(E[X^2]) / (E[X] sqrt(M)); 4 sd two-sided.
    const std::string text = R"({
      "topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 8,
                   "host_link": {"rate": "25Gbps", "delay": "1us"}},
      "workload": {"type": "poisson", "cdf": "hadoop", "load": 0.4, "hosts": [0, 2, 4, 6, 9, 11, 13, 15],
                   "start": "1ms", "duration": "50ms", "priority": 5},
      "stop": "100ms"})";
    const ScenarioConfig cfg = ParseScenarioText(text, {}, "load.json");
    const double mean = 120420.75; // ShippedCdfsHaveTheirPublishedMeans
    const double m = 8 * 0.4 * 25e9 / (8 * mean) * 0.05;
    EXPECT_NEAR(m, 4152.1, 0.1);
    const auto& flows = cfg.workload.flows;
    EXPECT_NEAR(static_cast<double>(flows.size()), m, 4 * std::sqrt(m));
    const std::set<uint32_t> hosts{0, 2, 4, 6, 9, 11, 13, 15};
    double bytes = 0;
    for (const FlowSpec& f : flows)
    {
        bytes += f.bytes;
        ASSERT_TRUE(hosts.count(f.src) && hosts.count(f.dst)) << f.src << " " << f.dst;
        ASSERT_NE(f.src, f.dst);
        ASSERT_GE(f.start, MilliSeconds(1));
        ASSERT_LT(f.start, MilliSeconds(51));
        ASSERT_EQ(f.priority, 5);
    }
    const double relSd = std::sqrt(SecondMoment(Shipped("hadoop"))) / mean / std::sqrt(m);
    const double expected = 0.4 * 25e9 * 0.05 * 8 / 8;
    EXPECT_NEAR(bytes, expected, 4 * relSd * expected) << "relative sd " << relSd;

    // scenario.json holds the settings, which give the same flows again.
    const ScenarioConfig again = ParseScenarioText(ScenarioToJson(cfg), {}, "scenario.json");
    ASSERT_EQ(again.workload.flows.size(), flows.size());
    for (std::size_t i = 0; i < flows.size(); ++i)
    {
        ASSERT_EQ(again.workload.flows[i].bytes, flows[i].bytes);
        ASSERT_EQ(again.workload.flows[i].start, flows[i].start);
        ASSERT_EQ(again.workload.flows[i].dst, flows[i].dst);
    }
}

TEST(PoissonWorkload, ShippedCdfNamesDoNotDependOnTheWorkingDirectory)
{
    // "websearch" names the module's file from any folder; a path stays a
    // path (relative to the working directory, as trace paths are).
    const std::string text = R"({"workload": {"type": "poisson", "cdf": "websearch",
                                 "load": 0.5, "duration": "1ms"}, "stop": "2ms"})";
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(::testing::TempDir());
    std::string error = ScenarioErrorOf(text);
    const std::string missing = ScenarioErrorOf(
        R"({"workload": {"type": "poisson", "cdf": "traces/cdf/hadoop.txt", "load": 0.5,
            "duration": "1ms"}, "stop": "2ms"})");
    std::filesystem::current_path(cwd);
    EXPECT_EQ(error, "no error");
    EXPECT_EQ(missing.rfind("p.json: workload.cdf: traces/cdf/hadoop.txt: cannot open", 0), 0u)
        << missing;
    EXPECT_EQ(ScenarioErrorOf(R"({"workload": {"type": "poisson", "cdf": "traces/cdf/hadoop.txt",
                                  "load": 0.5, "duration": "1ms"}, "stop": "2ms"})"),
              "no error");
}

TEST(PoissonWorkload, BadSettingsGetOneLineNamingTheKey)
{
    const std::string head = R"({"stop": "10ms", )";
    const auto err = [&](const std::string& rest) { return ScenarioErrorOf(head + rest + "}"); };
    const std::string ok =
        R"("type": "poisson", "cdf": "websearch", "load": 0.5, "duration": "1ms")";
    EXPECT_EQ(err(R"("workload": {"type": "poisson", "load": 0.5, "duration": "1ms"})"),
              "p.json: workload.cdf: expected \"websearch\", \"hadoop\", \"alibaba-storage\" or "
              "the path of a CDF file, got nothing (the key is required)");
    EXPECT_EQ(
        err(R"("workload": {"type": "poisson", "cdf": "websearch", "load": 0, "duration": "1ms"})"),
        "p.json: workload.load: expected a load in (0, 1], got 0");
    EXPECT_EQ(err(R"("workload": {"type": "poisson", "cdf": "websearch", "load": 0.5})"),
              "p.json: workload.duration: expected how long flows arrive, such as \"5ms\", got "
              "nothing (the key is required)");
    EXPECT_EQ(err(R"("workload": {)" + ok + R"(, "start": "9.5ms"})"),
              "p.json: workload.duration: flows would arrive until 10500us, after stop (10ms): "
              "expected start + duration <= stop");
    // hosts x duration x load x rate / (8 x mean size): 16 hosts x 1e6 s x
    // 1.8e19 b/s / (8 x 3.42 MB, WebSearch's mean) = 1.05e19 flows, refused
    // with that count; 64 hosts, 4.2e19, past 2^64, are refused as 2^64 or
    // more (the conversion of such a count to an integer is undefined: it
    // passed the limit, and generation ran out of memory).
    const std::string huge = R"("cdf": "websearch", "load": 1, "link_rate": "18000000Tbps",
        "duration": "1000000s"}})";
    EXPECT_EQ(ScenarioErrorOf(R"({"stop": "1000000s", "workload": {"type": "poisson", )" + huge),
              "p.json: workload.duration: the pattern would generate 10518626734842951680 flows "
              "(at most 4000000)");
    EXPECT_EQ(ScenarioErrorOf(R"({"stop": "1000000s", "topology": {"type": "leaf-spine",
        "leaves": 4, "hosts_per_leaf": 16}, "workload": {"type": "poisson", )" +
                              huge),
              "p.json: workload.duration: the pattern would generate 2^64 or more flows (at most "
              "4000000)");
    EXPECT_EQ(err(R"("workload": {)" + ok + R"(, "hosts": [3]})"),
              "p.json: workload.hosts: poisson traffic needs at least two hosts");
    EXPECT_EQ(err(R"("workload": {)" + ok + R"(, "hosts": [3, 3]})"),
              "p.json: workload.hosts[1]: host 3 is listed twice");
    // A background reads any flows-only type (poisson by default), its keys named as its own.
    EXPECT_EQ(err(R"("background": {"type": "collective", "bytes": "1MB"})"),
              "p.json: background.type: expected one of poisson, all-to-all, flows, incast, "
              "permutation, got \"collective\"");
    EXPECT_EQ(err(R"("background": {"cdf": "websearch", "load": 2, "duration": "1ms"})"),
              "p.json: background.load: expected a load in (0, 1], got 2");
    EXPECT_EQ(err(R"("background": {"type": "incast", "senders": [1], "receiver": 1, "bytes": 1})"),
              "p.json: background.senders[0]: the receiver cannot also be a sender");
}

TEST(PoissonWorkload, ABackgroundWithoutASeedDrawsOtherFlowsThanTheWorkload)
{
    // A Poisson workload and a Poisson background of the same CDF, load and
    // hosts, neither with a seed: both defaulted to the scenario's seed, so
    // the background drew exactly the workload's flows (each flow twice on
    // the fabric, not added independent traffic). The background's default
    // is now the scenario seed XOR 0x9E3779B9: 1 gives 0x9E3779B8 =
    // 2654435768. Independent draws of start times at picosecond resolution
    // share no (src, dst, bytes, start). A seed given is used as given: the
    // workload's seed on the background reproduces its flows one for one.
    auto parse = [](const std::string& backgroundSeed) {
        return ParseScenarioText(R"({
          "topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
          "workload": {"type": "poisson", "cdf": "websearch", "load": 0.5, "duration": "2ms"},
          "background": {"cdf": "websearch", "load": 0.5, "duration": "2ms")" +
                                     backgroundSeed + R"(},
          "stop": "100ms"})",
                                 {},
                                 "bg.json");
    };
    auto key = [](const FlowSpec& f) {
        return std::make_tuple(f.src, f.dst, f.bytes, f.start.GetPicoSeconds());
    };
    const ScenarioConfig cfg = parse("");
    const auto& wl = cfg.workload.flows;
    const auto& bg = cfg.background.flows;
    // Expected: 4 hosts x 2 ms x 0.5 x 100 Gb/s / (8 x 1,711,250 B,
    // WebSearch's mean flow) = 29 flows each.
    ASSERT_GE(wl.size(), 2u);
    ASSERT_GE(bg.size(), 2u);
    std::set<std::tuple<uint32_t, uint32_t, uint64_t, int64_t>> workload;
    for (const FlowSpec& f : wl)
    {
        workload.insert(key(f));
    }
    for (const FlowSpec& f : bg)
    {
        EXPECT_EQ(workload.count(key(f)), 0u) << f.src << " -> " << f.dst << " at " << f.start;
    }
    const auto j = nlohmann::json::parse(ScenarioToJson(cfg));
    EXPECT_EQ(j["workload"]["seed"], 1u);
    EXPECT_EQ(j["background"]["seed"], 2654435768u);

    const ScenarioConfig same = parse(R"(, "seed": 1)");
    ASSERT_EQ(same.background.flows.size(), wl.size());
    for (std::size_t i = 0; i < wl.size(); ++i)
    {
        EXPECT_EQ(key(same.background.flows[i]), key(wl[i])) << i;
    }
}

TEST(PoissonWorkload, BackgroundBesideACollectiveSharesTheFabric)
{
    // A ring all-reduce of 256 KB on 4 hosts and Hadoop flows at 30% for
    // 100 us: both finish, and flows.csv holds the background's flows first
    // (built before the collective posts anything), exactly as generated,
    // then the collective's transfers: 2 (N - 1) = 6 steps x 4 ranks = 24.
    const std::string text = R"({
      "topology": {"type": "leaf-spine", "leaves": 2, "spines": 1, "hosts_per_leaf": 2},
      "workload": {"type": "collective", "collective": "all-reduce", "bytes": "256KB"},
      "background": {"cdf": "hadoop", "load": 0.3, "duration": "100us", "seed": 3},
      "trace": {"flows": [0, {"collective": 0, "step": 0}]},
      "stop": "100ms"})";
    const ScenarioConfig cfg = ParseScenarioText(text, {}, "bg.json");
    const auto& bg = cfg.background.flows;
    ASSERT_GE(bg.size(), 2u);
    EXPECT_TRUE(cfg.workload.flows.empty());
    // A number past the flows known up front is no flow.
    EXPECT_NE(ScenarioErrorOf(std::string(text).replace(text.find("[0,"), 3, "[999,")), "no error");

    ScenarioRunner run(cfg);
    run.Build();
    run.Run();
    EXPECT_EQ(run.GetOutcome(), RunOutcome::COMPLETED);
    const auto rows = CsvRows(run.FlowsCsv());
    ASSERT_EQ(rows.size(), bg.size() + 24);
    for (std::size_t i = 0; i < rows.size(); ++i)
    {
        ASSERT_EQ(rows[i].size(), 18u);
        EXPECT_EQ(rows[i][14], "1") << "flow " << i << " not completed";
        if (i < bg.size())
        {
            EXPECT_EQ(rows[i][15], "") << i; // no collective
            EXPECT_EQ(std::stoul(rows[i][1]), bg[i].src);
            EXPECT_EQ(std::stoul(rows[i][2]), bg[i].dst);
            EXPECT_EQ(std::stoull(rows[i][5]), bg[i].bytes);
        }
        else
        {
            EXPECT_EQ(rows[i][15], "0") << i; // collective 0
        }
    }
    // fct_by_size.csv counts every flow; the background's file only its own.
    auto flowsIn = [](const std::string& csv) {
        uint64_t n = 0;
        for (const auto& r : CsvRows(csv))
        {
            n += std::stoull(r[3]);
        }
        return n;
    };
    EXPECT_EQ(flowsIn(run.FctBySizeCsv()), bg.size() + 24);
    EXPECT_EQ(flowsIn(run.FctBySizeCsv(true)), bg.size());
    // scenario.json writes the background beside the workload.
    const auto j = nlohmann::json::parse(ScenarioToJson(cfg));
    EXPECT_EQ(j["background"]["type"], "poisson");
    EXPECT_EQ(j["background"]["link_rate"], "100Gbps");
}

TEST(PoissonWorkload, FctBySizeOfFlowsAloneOnTheFabricIsOne)
{
    // Four flows of 1, 2, 3 and 4 KB, 100 us apart: each is alone on the
    // idle fabric (it needs under 10 us), so its FCT is its ideal FCT to the
    // picosecond (test-data-plane) and its slowdown exactly 1. Four flows in
    // 20 buckets: one bucket per flow, sorted by size, p50 = p95 = p99 = 1.
    // Moving the second flow to start with the first makes both share host
    // 0's link: the pair's slowdowns rise above 1.
    std::string text = R"({"workload": {"type": "flows", "flows": [
        {"src": 0, "dst": 5, "bytes": 4000, "start": "0"},
        {"src": 0, "dst": 6, "bytes": 1000, "start": "100us"},
        {"src": 0, "dst": 7, "bytes": 3000, "start": "200us"},
        {"src": 0, "dst": 4, "bytes": 2000, "start": "300us"}]}, "stop": "1ms"})";
    ScenarioRunner run(ParseScenarioText(text, {}, "alone.json"));
    run.Build();
    run.Run();
    EXPECT_EQ(run.FctBySizeCsv(),
              "bucket,min_bytes,max_bytes,flows,p50_slowdown,p95_slowdown,p99_slowdown\n"
              "0,1000,1000,1,1.0000,1.0000,1.0000\n"
              "1,2000,2000,1,1.0000,1.0000,1.0000\n"
              "2,3000,3000,1,1.0000,1.0000,1.0000\n"
              "3,4000,4000,1,1.0000,1.0000,1.0000\n");
    EXPECT_EQ(run.FctBySizeCsv(true), SlowdownBySizeCsv({})); // no background: no rows

    // A background of any flows-only type: its one flow (5 KB at 500 us,
    // alone too) follows the workload's four, and its file holds it alone.
    ScenarioRunner withBackground(ParseScenarioText(
        text,
        {R"(background={"type": "flows", "flows": [{"src": 1, "dst": 2, "bytes": 5000, "start": "500us"}]})"},
        "bg.json"));
    withBackground.Build();
    withBackground.Run();
    EXPECT_EQ(withBackground.FctBySizeCsv(true),
              "bucket,min_bytes,max_bytes,flows,p50_slowdown,p95_slowdown,p99_slowdown\n"
              "0,5000,5000,1,1.0000,1.0000,1.0000\n");
    EXPECT_EQ(CsvRows(withBackground.FctBySizeCsv()).size(), 5u);

    ScenarioRunner shared(ParseScenarioText(text, {"workload.flows.1.start=\"0\""}, "shared.json"));
    shared.Build();
    shared.Run();
    const auto rows = CsvRows(shared.FctBySizeCsv());
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_GT(std::stod(rows[0][4]), 1.0); // 1000 B behind (or beside) 4000 B
    EXPECT_EQ(rows[1][4], "1.0000");
    EXPECT_EQ(rows[2][4], "1.0000");
}
