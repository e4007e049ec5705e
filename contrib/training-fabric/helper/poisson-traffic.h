/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Datacenter background traffic as congestion-control studies generate it:
 * flow sizes drawn from an empirical CDF (WebSearch, Hadoop, ...), flows
 * arriving at every host as a Poisson process at a target load of its link,
 * and flow-completion slowdowns summarized per flow-size bucket. Pure
 * computation: no simulator state, no scenario types.
 */
#ifndef POISSON_TRAFFIC_H
#define POISSON_TRAFFIC_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/// A malformed CDF file or an impossible generator setting: one line naming the file or field.
class TrafficError : public std::runtime_error
{
  public:
    /// \p message, made one line (OneLineError)
    explicit TrafficError(const std::string& message);
};

/**
 * An empirical flow-size distribution: points (size in bytes, cumulative
 * fraction of flows), sizes linear between points. The file format is the
 * one of the HPCC simulator's traffic generator: one "<bytes> <percent>" pair
 * per line, both strictly increasing, the first percent 0 and the last 100;
 * '#' starts a comment.
 */
class FlowSizeCdf
{
  public:
    /// Parse \p text; errors name \p origin and the line.
    static FlowSizeCdf Parse(const std::string& text, const std::string& origin);
    /// Read and parse a CDF file (regular file of at most 1 MiB).
    static FlowSizeCdf Load(const std::string& path);
    /**
     * The file a `cdf` value names: "websearch", "hadoop" and
     * "alibaba-storage" are the files shipped in \p cdfDir (traces/cdf/);
     * anything else is a path.
     */
    static std::string Resolve(const std::string& name, const std::string& cdfDir);

    /// Mean flow size in bytes (exact for the piecewise-linear CDF).
    double Mean() const;
    /// Fraction of flows of at most \p bytes.
    double At(double bytes) const;
    /// The size at cumulative fraction \p u in [0, 1) (inverse CDF), at least 1 byte.
    uint64_t Quantile(double u) const;
    /// Largest size.
    uint64_t MaxBytes() const;

    /// The points: (bytes, cumulative fraction in [0, 1]).
    const std::vector<std::pair<double, double>>& Points() const
    {
        return m_points;
    }

  private:
    std::vector<std::pair<double, double>> m_points;
};

/// One generated flow.
struct GeneratedFlow
{
    uint32_t src;     ///< sending host
    uint32_t dst;     ///< receiving host (another host of the set)
    uint64_t bytes;   ///< message size
    uint64_t startPs; ///< arrival time in picoseconds from the generator's start
};

/**
 * Poisson flow arrivals: every host of \p hosts starts flows with exponential
 * inter-arrival times of mean `8 x Mean() / (load x linkBps)` seconds (so its
 * link carries \p load of its rate in payload bytes on average, the HPCC
 * traffic generator's definition), to a destination drawn uniformly among
 * the other hosts, with a size drawn from \p cdf, until \p durationPs. Each
 * host draws from its own splitmix64 stream seeded from \p seed and its host
 * id, so a host's flows do not change when other hosts are added. The result
 * is sorted by (start, src).
 */
std::vector<GeneratedFlow> GeneratePoissonFlows(const FlowSizeCdf& cdf,
                                                const std::vector<uint32_t>& hosts,
                                                double load,
                                                double linkBps,
                                                uint64_t durationPs,
                                                uint64_t seed);

/// Slowdown statistics of one flow-size bucket.
struct SizeBucket
{
    uint64_t minBytes; ///< smallest flow in the bucket
    uint64_t maxBytes; ///< largest flow in the bucket
    uint64_t flows;    ///< flows in the bucket
    double p50;        ///< median slowdown
    double p95;        ///< 95th-percentile slowdown
    double p99;        ///< 99th-percentile slowdown
};

/**
 * Slowdown by flow size as the HPCC paper (Fig. 11) and its successors plot
 * it: flows sorted by size and cut into \p buckets groups of equal count
 * (20: 5% of the flows each), per group p50, p95 and p99 of the slowdown
 * (nearest rank), each slowdown floored at 1. \p flows holds (bytes,
 * slowdown) of the completed flows. Fewer flows than buckets give one bucket
 * per flow.
 */
std::vector<SizeBucket> SlowdownBySize(std::vector<std::pair<uint64_t, double>> flows,
                                       uint32_t buckets = 20);

/// fct_by_size.csv: a header row, then one row per bucket.
std::string SlowdownBySizeCsv(const std::vector<SizeBucket>& buckets);

/// Nearest-rank percentile \p q (0 < q <= 100) of sorted, non-empty \p v.
double NearestRank(const std::vector<double>& v, double q);

} // namespace ns3

#endif /* POISSON_TRAFFIC_H */
