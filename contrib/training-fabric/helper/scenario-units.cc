/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-units.h"

#include "ns3/fabric-topology.h"
#include "ns3/roce-header.h"

#include <nlohmann/json.hpp>
#include <numeric>
#include <utility>
#include <vector>

namespace ns3
{

namespace
{

/// \p s as a JSON string (quoted, escaped, ASCII only).
std::string
Quote(const std::string& s)
{
    return nlohmann::json(s).dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

/**
 * A decimal number and the unit after it, e.g. "400Gbps", "1.5us", "16MB",
 * read exactly: the value is mantissa / 10^fractionDigits. Digits with at
 * most one '.', no sign, no exponent, at most 18 significant fraction
 * digits; one space may separate number and unit; nothing may follow the unit.
 */
struct Decimal
{
    uint64_t mantissa{0};
    uint32_t fractionDigits{0};
    std::string unit;
};

bool
SplitNumberUnit(const std::string& text, Decimal& d)
{
    std::size_t i = 0;
    bool digits = false;
    bool dot = false;
    for (; i < text.size(); ++i)
    {
        const char c = text[i];
        if (c >= '0' && c <= '9')
        {
            const uint64_t digit = static_cast<uint64_t>(c - '0');
            if (d.mantissa > (UINT64_MAX - digit) / 10)
            {
                return false; // more digits than 64 bits hold
            }
            d.mantissa = d.mantissa * 10 + digit;
            d.fractionDigits += dot ? 1 : 0;
            digits = true;
        }
        else if (c == '.' && !dot)
        {
            dot = true;
        }
        else
        {
            break;
        }
    }
    if (!digits)
    {
        return false;
    }
    // "1.50" is "1.5": trailing zeros of the fraction change nothing.
    while (d.fractionDigits > 0 && d.mantissa % 10 == 0)
    {
        d.mantissa /= 10;
        --d.fractionDigits;
    }
    if (d.fractionDigits > 18)
    {
        return false; // finer than any unit needs, and 10^19 would not fit below
    }
    if (i + 1 < text.size() && text[i] == ' ')
    {
        ++i; // "100 Gbps"; but "100 " is not a number
    }
    d.unit = text.substr(i);
    return true;
}

/// Outcome of scaling a Decimal to an integer count of base units.
enum class ScaleResult
{
    OK,
    NOT_WHOLE, //!< not a whole number of base units (bytes, bit/s, ps)
    TOO_LARGE, //!< does not fit in 64 bits
};

/**
 * \p d times \p multiplier base units in \p out, in integer arithmetic (no
 * floating point, so every platform reads a value alike). A value between
 * two base units is NOT_WHOLE, unless \p round and the multiplier is a
 * power of ten (every rate and time unit): then it rounds half up to the
 * nearest base unit (bit/s, ps).
 */
ScaleResult
Scale(const Decimal& d, uint64_t multiplier, bool round, uint64_t& out)
{
    uint64_t pow10 = 1;
    for (uint32_t k = 0; k < d.fractionDigits; ++k)
    {
        pow10 *= 10;
    }
    // value = mantissa * m / p with m, p coprime.
    const uint64_t g = std::gcd(multiplier, pow10);
    const uint64_t m = multiplier / g;
    const uint64_t p = pow10 / g;
    uint64_t q = d.mantissa / p;
    const uint64_t r = d.mantissa % p;
    if (r != 0)
    {
        if (!round || m != 1)
        {
            return ScaleResult::NOT_WHOLE;
        }
        q += (r >= p - r) ? 1 : 0; // r / p >= 1/2, without overflowing 2 r
    }
    if (m != 0 && q > UINT64_MAX / m)
    {
        return ScaleResult::TOO_LARGE;
    }
    out = q * m;
    return ScaleResult::OK;
}

using ScenarioLimits::kMaxTimeText;
constexpr uint64_t kMaxTimePs = ScenarioLimits::kMaxTimeSeconds * 1000000000000ULL;

/// \p v in the largest of \p units that divides it exactly ("100Gbps", "1us").
std::string
ExactText(uint64_t v, const std::vector<std::pair<uint64_t, const char*>>& units)
{
    for (const auto& u : units)
    {
        if (v % u.first == 0)
        {
            return std::to_string(v / u.first) + u.second;
        }
    }
    return std::to_string(v) + units.back().second; // unreachable: the last unit is 1
}

} // namespace

std::string
OneLineError(const std::string& message)
{
    // Cut first (of the raw bytes, so the escapes below do not count):
    // the first kHead and last kTail bytes, each end moved off the middle
    // of a UTF-8 sequence (never inside one: a terminal shows no half).
    constexpr std::size_t kTail = 100;
    constexpr std::size_t kHead = kMaxErrorChars - kTail - 40; // room for the mark
    std::string msg = message;
    if (msg.size() > kMaxErrorChars)
    {
        const auto continuation = [&msg](std::size_t i) {
            return (static_cast<unsigned char>(msg[i]) & 0xC0) == 0x80;
        };
        std::size_t head = kHead;
        while (head > 0 && continuation(head))
        {
            --head;
        }
        std::size_t tail = msg.size() - kTail;
        while (tail < msg.size() && continuation(tail))
        {
            ++tail;
        }
        msg = msg.substr(0, head) + " [... " + std::to_string(tail - head) + " bytes cut ...] " +
              msg.substr(tail);
    }
    std::string out;
    out.reserve(msg.size());
    for (char c : msg)
    {
        if (c == '\n')
        {
            out += "\\n";
        }
        else if (c == '\r')
        {
            out += "\\r";
        }
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
        {
            out += '?';
        }
        else
        {
            out += c;
        }
    }
    return out;
}

ScenarioError::ScenarioError(const std::string& message)
    : std::runtime_error(OneLineError(message))
{
}

uint64_t
ParseByteSize(const std::string& text, const std::string& what)
{
    Decimal d;
    if (!SplitNumberUnit(text, d))
    {
        throw ScenarioError(what + ": expected a size, got " + Quote(text));
    }
    // Decimal units are powers of 1000 ("16MB" is 16,000,000 bytes), binary
    // units powers of 1024 ("16MiB" is 16,777,216 bytes); no unit is bytes.
    static const std::pair<const char*, uint64_t> kUnits[] = {{"", 1},
                                                              {"B", 1},
                                                              {"KB", 1000ULL},
                                                              {"kB", 1000ULL},
                                                              {"MB", 1000000ULL},
                                                              {"GB", 1000000000ULL},
                                                              {"TB", 1000000000000ULL},
                                                              {"KiB", 1ULL << 10},
                                                              {"MiB", 1ULL << 20},
                                                              {"GiB", 1ULL << 30},
                                                              {"TiB", 1ULL << 40}};
    for (const auto& u : kUnits)
    {
        if (d.unit == u.first)
        {
            uint64_t bytes = 0;
            switch (Scale(d, u.second, false, bytes))
            {
            case ScaleResult::NOT_WHOLE:
                throw ScenarioError(what + ": not a whole number of bytes: " + Quote(text));
            case ScaleResult::TOO_LARGE:
                throw ScenarioValueTooLarge((what + ": size too large: " + Quote(text)));
            case ScaleResult::OK:
                break;
            }
            return bytes;
        }
    }
    throw ScenarioError(what + ": unknown size unit in " + Quote(text) +
                        " (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
}

DataRate
ParseRate(const std::string& text, const std::string& what)
{
    Decimal d;
    if (!SplitNumberUnit(text, d))
    {
        throw ScenarioError(what + ": expected a rate, got " + Quote(text));
    }
    static const std::pair<const char*, uint64_t> kUnits[] = {{"bps", 1},
                                                              {"b/s", 1},
                                                              {"Kbps", 1000ULL},
                                                              {"kbps", 1000ULL},
                                                              {"Kb/s", 1000ULL},
                                                              {"kb/s", 1000ULL},
                                                              {"Mbps", 1000000ULL},
                                                              {"Mb/s", 1000000ULL},
                                                              {"Gbps", 1000000000ULL},
                                                              {"Gb/s", 1000000000ULL},
                                                              {"Tbps", 1000000000000ULL},
                                                              {"Tb/s", 1000000000000ULL}};
    for (const auto& u : kUnits)
    {
        if (d.unit == u.first)
        {
            uint64_t bps = 0;
            if (Scale(d, u.second, true, bps) != ScaleResult::OK)
            {
                throw ScenarioError(what + ": rate too large: " + Quote(text));
            }
            if (bps == 0)
            {
                throw ScenarioError(what + ": rate must be positive: " + Quote(text));
            }
            return DataRate(bps);
        }
    }
    throw ScenarioError(what + ": unknown rate unit in " + Quote(text) +
                        " (bps, Kbps, Mbps, Gbps, Tbps)");
}

std::string
CheckLinkRate(const DataRate& r)
{
    static_assert(ScenarioLimits::kMaxLinkRateBps == roce::WireBytes(0) * 8ULL * 1000000000000ULL,
                  "a minimum frame takes 1 ps at the fastest link rate");
    if (r.GetBitRate() <= ScenarioLimits::kMaxLinkRateBps)
    {
        return "";
    }
    return std::string("expected a link rate of at most ") + ScenarioLimits::kMaxLinkRateText +
           " (a minimum frame, " + std::to_string(roce::WireBytes(0)) +
           " B on the wire, must take at least the model's 1 ps clock tick)";
}

Time
ParseTime(const std::string& text, const std::string& what)
{
    FabricTopology::EnsurePicosecondResolution();
    Decimal d;
    if (!SplitNumberUnit(text, d))
    {
        throw ScenarioError(what + ": expected a time, got " + Quote(text));
    }
    if (d.unit.empty() && d.mantissa == 0)
    {
        return Time(0); // "0" needs no unit
    }
    static const std::pair<const char*, uint64_t> kUnits[] = {{"s", 1000000000000ULL},
                                                              {"ms", 1000000000ULL},
                                                              {"us", 1000000ULL},
                                                              {"ns", 1000ULL},
                                                              {"ps", 1}};
    for (const auto& u : kUnits)
    {
        if (d.unit == u.first)
        {
            uint64_t ps = 0;
            if (Scale(d, u.second, true, ps) != ScaleResult::OK || ps > kMaxTimePs)
            {
                throw ScenarioValueTooLarge((what + ": time too large: " + Quote(text) +
                                             " (at most " + kMaxTimeText + ")"));
            }
            return PicoSeconds(static_cast<int64_t>(ps));
        }
    }
    throw ScenarioError(what + ": unknown time unit in " + Quote(text) + " (s, ms, us, ns, ps)");
}

std::string
TimeToText(const Time& t)
{
    const int64_t ps = t.GetPicoSeconds();
    if (ps <= 0)
    {
        return "0"; // times are never negative here
    }
    return ExactText(static_cast<uint64_t>(ps),
                     {{1000000000000ULL, "s"},
                      {1000000000ULL, "ms"},
                      {1000000ULL, "us"},
                      {1000ULL, "ns"},
                      {1, "ps"}});
}

std::string
RateToText(const DataRate& r)
{
    return ExactText(r.GetBitRate(),
                     {{1000000000000ULL, "Tbps"},
                      {1000000000ULL, "Gbps"},
                      {1000000ULL, "Mbps"},
                      {1000ULL, "Kbps"},
                      {1, "bps"}});
}

} // namespace ns3
