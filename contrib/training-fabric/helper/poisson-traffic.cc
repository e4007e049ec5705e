/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "poisson-traffic.h"

#include "input-file.h"
#include "scenario-units.h"

#include "ns3/splitmix64.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace ns3
{

TrafficError::TrafficError(const std::string& message)
    : std::runtime_error(OneLineError(message))
{
}

namespace
{

/// Largest CDF file read: a real one has tens of points (a 1 MiB file holds ~50,000).
constexpr uint64_t kCdfFileBytes = 1ULL << 20;

/// A uniform double in [0, 1) from the top 53 bits of the next splitmix64 value.
double
Uniform(SplitMix64& rng)
{
    return static_cast<double>(rng.Next() >> 11) * 0x1.0p-53;
}

/// Parse all of \p s as a finite number.
bool
ParseNumber(const std::string& s, double& v)
{
    if (s.empty())
    {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    v = std::strtod(s.c_str(), &end);
    return errno == 0 && end == s.c_str() + s.size() && std::isfinite(v);
}

} // namespace

FlowSizeCdf
FlowSizeCdf::Parse(const std::string& text, const std::string& origin)
{
    FlowSizeCdf cdf;
    std::istringstream in(text);
    std::string line;
    uint64_t lineNo = 0;
    auto fail = [&](const std::string& what) {
        throw TrafficError(origin + ":" + std::to_string(lineNo) + ": " + what);
    };
    while (std::getline(in, line))
    {
        ++lineNo;
        line = line.substr(0, line.find('#'));
        std::istringstream fields(line);
        std::string a;
        std::string b;
        std::string extra;
        if (!(fields >> a))
        {
            continue; // blank or comment
        }
        double bytes = 0;
        double percent = 0;
        if (!(fields >> b) || (fields >> extra) || !ParseNumber(a, bytes) ||
            !ParseNumber(b, percent))
        {
            fail("expected \"<flow size in bytes> <cumulative percent>\", got \"" + line + "\"");
        }
        if (bytes < 0 || bytes > 1e15)
        {
            fail("expected a flow size between 0 and 10^15 bytes, got " + a);
        }
        if (percent < 0 || percent > 100)
        {
            fail("expected a cumulative percent between 0 and 100, got " + b);
        }
        if (!cdf.m_points.empty() &&
            (bytes <= cdf.m_points.back().first || percent / 100 <= cdf.m_points.back().second))
        {
            fail("sizes and percents must both increase from one line to the next");
        }
        if (cdf.m_points.empty() && percent != 0)
        {
            fail("expected the first point at percent 0, got " + b);
        }
        cdf.m_points.emplace_back(bytes, percent / 100);
    }
    if (cdf.m_points.size() < 2 || cdf.m_points.back().second != 1.0)
    {
        throw TrafficError(origin + ": expected at least two points, the last at percent 100");
    }
    return cdf;
}

FlowSizeCdf
FlowSizeCdf::Load(const std::string& path)
{
    return Parse(ReadInputFile<TrafficError>(path, "flow-size CDF file", kCdfFileBytes), path);
}

std::string
FlowSizeCdf::Resolve(const std::string& name, const std::string& cdfDir)
{
    if (name == "websearch" || name == "hadoop" || name == "alibaba-storage")
    {
        return cdfDir + "/" + name + ".txt";
    }
    return name;
}

double
FlowSizeCdf::Mean() const
{
    double mean = 0;
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        mean += (m_points[i - 1].first + m_points[i].first) / 2 *
                (m_points[i].second - m_points[i - 1].second);
    }
    return mean;
}

double
FlowSizeCdf::At(double bytes) const
{
    if (bytes < m_points.front().first)
    {
        return 0;
    }
    for (std::size_t i = 1; i < m_points.size(); ++i)
    {
        const auto& [x0, y0] = m_points[i - 1];
        const auto& [x1, y1] = m_points[i];
        if (bytes <= x1)
        {
            return y0 + (y1 - y0) * (bytes - x0) / (x1 - x0);
        }
    }
    return 1;
}

uint64_t
FlowSizeCdf::Quantile(double u) const
{
    // First point whose cumulative fraction exceeds u: u lies in the segment ending there.
    auto it =
        std::upper_bound(m_points.begin() + 1,
                         m_points.end() - 1,
                         u,
                         [](double v, const std::pair<double, double>& p) { return v < p.second; });
    const auto& [x0, y0] = *(it - 1);
    const auto& [x1, y1] = *it;
    const double x = x0 + (x1 - x0) * (u - y0) / (y1 - y0);
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(x)));
}

uint64_t
FlowSizeCdf::MaxBytes() const
{
    return static_cast<uint64_t>(std::llround(m_points.back().first));
}

std::vector<GeneratedFlow>
GeneratePoissonFlows(const FlowSizeCdf& cdf,
                     const std::vector<uint32_t>& hosts,
                     double load,
                     double linkBps,
                     uint64_t durationPs,
                     uint64_t seed)
{
    if (hosts.size() < 2)
    {
        throw TrafficError("poisson traffic needs at least two hosts");
    }
    if (!(load > 0 && load <= 1))
    {
        throw TrafficError("poisson traffic: expected a load in (0, 1]");
    }
    // Mean inter-arrival per host, in ps: one mean flow's bits at load x link rate.
    const double meanGapPs = 8 * cdf.Mean() / (load * linkBps) * 1e12;
    std::vector<GeneratedFlow> flows;
    const uint64_t n = hosts.size();
    for (uint64_t h = 0; h < n; ++h)
    {
        SplitMix64 rng(seed ^ (0xd1b54a32d192ed03ULL * (hosts[h] + 1)));
        double t = 0;
        while (true)
        {
            t += -meanGapPs * std::log1p(-Uniform(rng));
            if (t >= static_cast<double>(durationPs))
            {
                break;
            }
            uint64_t d = rng.Next() % (n - 1);
            d += d >= h ? 1 : 0; // skip the sender itself
            flows.push_back(
                {hosts[h], hosts[d], cdf.Quantile(Uniform(rng)), static_cast<uint64_t>(t)});
        }
    }
    std::sort(flows.begin(), flows.end(), [](const GeneratedFlow& a, const GeneratedFlow& b) {
        return a.startPs != b.startPs ? a.startPs < b.startPs : a.src < b.src;
    });
    return flows;
}

double
NearestRank(const std::vector<double>& v, double q)
{
    const auto n = static_cast<double>(v.size());
    const auto rank = static_cast<std::size_t>(std::ceil(q / 100 * n));
    return v[std::min(v.size(), std::max<std::size_t>(rank, 1)) - 1];
}

std::vector<SizeBucket>
SlowdownBySize(std::vector<std::pair<uint64_t, double>> flows, uint32_t buckets)
{
    std::sort(flows.begin(), flows.end());
    const uint64_t n = flows.size();
    const uint64_t b = std::min<uint64_t>(std::max<uint32_t>(buckets, 1), n);
    std::vector<SizeBucket> out;
    std::vector<double> s;
    for (uint64_t i = 0; i < b; ++i)
    {
        const uint64_t lo = i * n / b;
        const uint64_t hi = (i + 1) * n / b;
        s.clear();
        for (uint64_t j = lo; j < hi; ++j)
        {
            s.push_back(std::max(1.0, flows[j].second));
        }
        std::sort(s.begin(), s.end());
        out.push_back({flows[lo].first,
                       flows[hi - 1].first,
                       hi - lo,
                       NearestRank(s, 50),
                       NearestRank(s, 95),
                       NearestRank(s, 99)});
    }
    return out;
}

std::string
SlowdownBySizeCsv(const std::vector<SizeBucket>& buckets)
{
    std::string s = "bucket,min_bytes,max_bytes,flows,p50_slowdown,p95_slowdown,p99_slowdown\n";
    char row[160];
    for (std::size_t i = 0; i < buckets.size(); ++i)
    {
        const SizeBucket& b = buckets[i];
        std::snprintf(row,
                      sizeof(row),
                      "%zu,%llu,%llu,%llu,%.4f,%.4f,%.4f\n",
                      i,
                      static_cast<unsigned long long>(b.minBytes),
                      static_cast<unsigned long long>(b.maxBytes),
                      static_cast<unsigned long long>(b.flows),
                      b.p50,
                      b.p95,
                      b.p99);
        s += row;
    }
    return s;
}

} // namespace ns3
