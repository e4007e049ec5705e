/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario units: the text forms of sizes, rates and times a scenario file
 * uses, read exactly (integer arithmetic, no floating point) and written back
 * exactly; and ScenarioError, the one-line error every scenario reader throws.
 *
 *   sizes  an integer (bytes) or "<n>B|KB|MB|GB|TB" (powers of 1000: "16MB"
 *          is 16,000,000 bytes) or "<n>KiB|MiB|GiB|TiB" (powers of 1024);
 *          must be a whole number of bytes ("1.5KB" yes, "1.5B" no)
 *   rates  "<n>bps|Kbps|Mbps|Gbps|Tbps" or "b/s" forms ("25Gb/s"); > 0;
 *          rounded to a whole bit/s
 *   times  "<n>s|ms|us|ns|ps", or 0 / "0"; rounded to a whole ps; at most
 *          ScenarioLimits::kMaxTimeText
 * No sign, no exponent, one optional space before the unit.
 */
#ifndef SCENARIO_UNITS_H
#define SCENARIO_UNITS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * \p message made one line, for an error on bad input whatever text of the
 * input it quotes: line breaks escaped, other control characters (a NUL
 * would end what() there) replaced by '?', and the middle of a message
 * longer than kMaxErrorChars bytes cut out (a 100,000-digit number was
 * echoed in full), keeping its start (the file and field) and its end.
 */
std::string OneLineError(const std::string& message);

/// The longest message OneLineError keeps whole, in bytes.
constexpr std::size_t kMaxErrorChars = 600;

/**
 * \ingroup training-fabric
 * \brief A bad scenario: one line naming the file, the key and what was expected.
 *
 * The message is OneLineError's.
 */
class ScenarioError : public std::runtime_error
{
  public:
    explicit ScenarioError(const std::string& message);
};

/**
 * A value too large for its kind (ParseByteSize, ParseTime): readers report
 * it with the maximum, where other parse failures get the expected form.
 */
class ScenarioValueTooLarge : public ScenarioError
{
  public:
    using ScenarioError::ScenarioError;
};

/// Bounds on scenario values that keep every sum and product of them exact.
namespace ScenarioLimits
{
/**
 * Largest time (stop, delays, timeouts, starts): 10^6 s, 11.6 days, so that
 * a time plus any delay of the fabric stays inside ns-3's clock (2^63 ps,
 * 106.7 days, at the picosecond resolution this module runs at).
 */
constexpr uint64_t kMaxTimeSeconds = 1000000;
constexpr const char* kMaxTimeText = "1000000s";
/**
 * Largest message: 10^15 bytes (1 PB). 18,000 such messages still fit the
 * 64-bit byte counters; one takes 2.2 hours at 1 Tb/s, far beyond a
 * packet-level run.
 */
constexpr uint64_t kMaxMessageBytes = 1000000000000000ULL;
/**
 * Longest scenario name in bytes: it names results/<name>/ and
 * pcap/<name>-<node>-<device>.pcap, and a file name has at most 255 bytes.
 */
constexpr std::size_t kMaxNameBytes = 200;
/**
 * Fastest link: 672 Tb/s. The model's clock ticks in picoseconds and a port
 * serializes a frame in whole picoseconds (rounded down): a minimum frame,
 * 84 B on the wire (60 B padded, FCS, preamble/SFD and IFG:
 * roce::WireBytes(0)), must take at least 1 ps, 672 bits / 1 ps. Faster, it
 * took 0 ps and data crossed the link in no time (slowdowns NaN).
 */
constexpr uint64_t kMaxLinkRateBps = 672000000000000ULL;
/**
 * Most links a topology may have (host links and switch links): 2^21,
 * 2,097,152. A fat-tree of k = 64 (196,608 links) takes 1.16 GB and 7.9 s
 * to build, about 6 KB and 40 us a link (a 1,000 x 100 leaf-spine, 200,000
 * links, 4.8 KB: bench-fabric-scale --case=setup), so this is about 12 GB
 * and a minute and a half before any traffic. The topologies' fields alone
 * allowed 2^30 hosts, which were built (tens of GB) before any check could
 * refuse the run.
 */
constexpr uint64_t kMaxLinks = 1ULL << 21;
constexpr const char* kMaxLinkRateText = "672Tbps";
/**
 * Shortest stall_timeout but 0 (off): 1 us. The stall detector passes over
 * every switch queue each stall_timeout / 4; below 1 us that is more often
 * than a 100 Gb/s port sends a 4 KB frame (330 ns), and a pause cycle held
 * that briefly is no deadlock (an XOFF/XON round trip on a 1 us cable takes
 * 2 us).
 */
constexpr const char* kMinStallTimeoutText = "1us";

/// kMinStallTimeoutText as a Time.
inline Time
MinStallTimeout()
{
    return MicroSeconds(1);
}
} // namespace ScenarioLimits

/**
 * Byte sizes: an integer (bytes) or a string "<number><unit>" with unit B,
 * KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024).
 * "16MB" is 16,000,000 bytes. Throws ScenarioError with \p what as context.
 */
uint64_t ParseByteSize(const std::string& text, const std::string& what = "size");
/// Rates: "<number><unit>", unit bps, Kbps, Mbps, Gbps, Tbps (or b/s forms); > 0.
DataRate ParseRate(const std::string& text, const std::string& what = "rate");
/**
 * Empty when a link (a port's line rate) may run at \p r, else why not:
 * above ScenarioLimits::kMaxLinkRateBps a minimum frame takes under 1 ps.
 */
std::string CheckLinkRate(const DataRate& r);
/// Times: "<number><unit>", unit s, ms, us, ns, ps; "0" alone is allowed; >= 0.
Time ParseTime(const std::string& text, const std::string& what = "time");

/// A time as a scenario writes it, exactly, in the largest unit that divides it: "1us", "0".
std::string TimeToText(const Time& t);
/// A rate as a scenario writes it, exactly: "100Gbps", "2500Mbps".
std::string RateToText(const DataRate& r);

} // namespace ns3

#endif /* SCENARIO_UNITS_H */
