/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-config.h"

#include "collective-plan.h"
#include "input-file.h"
#include "run-cost.h"
#include "text-trace.h"
#include "topology-file-helper.h"
#include "trace-generator.h"
#include "trace-runner.h"
#include "trace-workload.h"

#include "ns3/fabric-topology.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <tuple>

namespace ns3
{

using json = nlohmann::json;

namespace
{

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

/**
 * A value too large for its kind (ParseByteSize, ParseTime): Section reports
 * it with the maximum, where other parse failures get the expected form.
 */
class TooLarge : public ScenarioError
{
  public:
    using ScenarioError::ScenarioError;
};

using ScenarioLimits::kMaxTimeText;
constexpr uint64_t kMaxTimePs = ScenarioLimits::kMaxTimeSeconds * 1000000000000ULL;
constexpr uint64_t kMaxMessageBytes = ScenarioLimits::kMaxMessageBytes;
constexpr std::size_t kMaxNameBytes = ScenarioLimits::kMaxNameBytes;

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

/// \p msg with line breaks and other control characters escaped: errors are one line.
std::string
OneLine(const std::string& msg)
{
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

/// The error every failure here throws: \p msg made one line.
ScenarioError
Error(const std::string& msg)
{
    return ScenarioError(OneLine(msg));
}

/// \p j as compact JSON, ASCII only (invalid UTF-8 replaced, never a throw).
std::string
Dump(const json& j)
{
    return j.dump(-1, ' ', true, json::error_handler_t::replace);
}

std::string
Quote(const std::string& s)
{
    return Dump(json(s));
}

/// Stands for a required key that is absent, in "expected ..., got nothing".
json
Nothing()
{
    return json(json::value_t::discarded);
}

/// Reads one JSON object, remembering the keys it was asked for.
class Section
{
  public:
    Section(const std::string& file, const std::string& path, const json& j)
        : m_file(file),
          m_path(path),
          m_j(j)
    {
        if (!j.is_object())
        {
            Fail(path.empty() ? "(top level)" : path, "expected an object", j);
        }
    }

    /// Throw "<file>: <key>: <expected>, got <got>".
    [[noreturn]] void Fail(const std::string& key,
                           const std::string& expected,
                           const json& got) const
    {
        throw Error(m_file + ": " + key + ": " + expected + ", got " + Describe(got));
    }

    /// Throw "<file>: <key>: <message>".
    [[noreturn]] void Fail(const std::string& key, const std::string& message) const
    {
        throw Error(m_file + ": " + key + ": " + message);
    }

    static std::string Describe(const json& j)
    {
        if (j.is_discarded())
        {
            return "nothing (the key is required)";
        }
        std::string s = Dump(j);
        if (s.size() > 60)
        {
            s = s.substr(0, 57) + "...";
        }
        return s;
    }

    /**
     * Declare every key this object may hold and reject any other now, before
     * the values are read (so a misspelled section is reported as such, not
     * as the consequences of its defaults). Find() then insists on the list.
     */
    void Expect(const std::vector<std::string>& keys)
    {
        m_declared = keys;
        for (auto it = m_j.begin(); it != m_j.end(); ++it)
        {
            if (std::find(keys.begin(), keys.end(), it.key()) == keys.end())
            {
                Fail(Key(it.key()), "unknown key (valid: " + Join(keys) + ")");
            }
        }
    }

    std::string Key(const std::string& k) const
    {
        return m_path.empty() ? k : m_path + "." + k;
    }

    const json* Find(const std::string& k)
    {
        if (!m_declared.empty() &&
            std::find(m_declared.begin(), m_declared.end(), k) == m_declared.end())
        {
            // A programming error, not a user's: a key read but not declared.
            throw std::logic_error("scenario-config: key " + Key(k) + " is read but missing " +
                                   "from the Expect() list");
        }
        if (std::find(m_known.begin(), m_known.end(), k) == m_known.end())
        {
            m_known.push_back(k);
        }
        auto it = m_j.find(k);
        return it == m_j.end() ? nullptr : &*it;
    }

    uint64_t UInt(const std::string& k, uint64_t def, uint64_t min = 0, uint64_t max = UINT64_MAX)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        return UIntOf(Key(k), *v, min, max);
    }

    uint64_t UIntOf(const std::string& key, const json& v, uint64_t min, uint64_t max) const
    {
        if (!v.is_number_integer() ||
            (v.is_number_integer() && v.get<int64_t>() < 0 && !v.is_number_unsigned()))
        {
            Fail(key, "expected a non-negative integer", v);
        }
        uint64_t x = v.get<uint64_t>();
        if (x < min || x > max)
        {
            std::ostringstream os;
            os << "expected an integer in [" << min << ", " << max << "]";
            Fail(key, os.str(), v);
        }
        return x;
    }

    double Num(const std::string& k, double def, double min, double max)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        if (!v->is_number())
        {
            Fail(Key(k), "expected a number", *v);
        }
        double x = v->get<double>();
        if (!(x >= min && x <= max))
        {
            std::ostringstream os;
            os << "expected a number in [" << min << ", " << max << "]";
            Fail(Key(k), os.str(), *v);
        }
        return x;
    }

    bool Bool(const std::string& k, bool def)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        if (!v->is_boolean())
        {
            Fail(Key(k), "expected true or false", *v);
        }
        return v->get<bool>();
    }

    std::string Str(const std::string& k,
                    const std::string& def,
                    const std::vector<std::string>& allowed)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        if (!v->is_string())
        {
            Fail(Key(k), "expected a string", *v);
        }
        std::string s = v->get<std::string>();
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), s) == allowed.end())
        {
            std::string list;
            for (const auto& a : allowed)
            {
                list += (list.empty() ? "" : ", ") + a;
            }
            Fail(Key(k), "expected one of " + list, *v);
        }
        return s;
    }

    uint64_t Size(const std::string& k, uint64_t def, uint64_t min = 0, uint64_t max = UINT64_MAX)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        return SizeOf(Key(k), *v, min, max);
    }

    uint64_t SizeOf(const std::string& key,
                    const json& v,
                    uint64_t min,
                    uint64_t max = UINT64_MAX) const
    {
        const std::string most = "expected at most " + std::to_string(max) + " bytes";
        uint64_t x;
        if (v.is_number_integer() && (v.is_number_unsigned() || v.get<int64_t>() >= 0))
        {
            x = v.get<uint64_t>();
        }
        else if (v.is_string())
        {
            try
            {
                x = ParseByteSize(v.get<std::string>());
            }
            catch (const TooLarge&)
            {
                Fail(key, most, v);
            }
            catch (const ScenarioError&)
            {
                Fail(key, "expected a size such as 4096, \"64KB\" or \"16MiB\"", v);
            }
        }
        else
        {
            Fail(key, "expected a size such as 4096, \"64KB\" or \"16MiB\"", v);
        }
        if (x < min)
        {
            Fail(key, "expected at least " + std::to_string(min) + " bytes", v);
        }
        if (x > max)
        {
            Fail(key, most, v);
        }
        return x;
    }

    DataRate Rate(const std::string& k, DataRate def)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        if (!v->is_string())
        {
            Fail(Key(k), "expected a data rate such as \"100Gbps\"", *v);
        }
        try
        {
            return ParseRate(v->get<std::string>());
        }
        catch (const ScenarioError&)
        {
            Fail(Key(k), "expected a positive data rate such as \"100Gbps\"", *v);
        }
    }

    Time TimeOf(const std::string& key, const json& v) const
    {
        if (v.is_number_integer() && v.get<int64_t>() == 0)
        {
            return Time(0);
        }
        if (!v.is_string())
        {
            Fail(key, "expected a time such as \"1us\" or \"10ms\"", v);
        }
        try
        {
            return ParseTime(v.get<std::string>());
        }
        catch (const TooLarge&)
        {
            Fail(key,
                 "expected a time of at most " + std::string(kMaxTimeText) +
                     " (11.6 days: sums of times must stay inside the simulator's 2^63 ps "
                     "clock)",
                 v);
        }
        catch (const ScenarioError&)
        {
            Fail(key, "expected a non-negative time such as \"1us\" or \"10ms\"", v);
        }
    }

    Time TimeVal(const std::string& k, Time def)
    {
        const json* v = Find(k);
        return v ? TimeOf(Key(k), *v) : def;
    }

    /// Reject keys nobody asked for.
    void Finish() const
    {
        for (auto it = m_j.begin(); it != m_j.end(); ++it)
        {
            if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end())
            {
                Fail(Key(it.key()), "unknown key (valid: " + Join(m_known) + ")");
            }
        }
    }

    const std::string& File() const
    {
        return m_file;
    }

  private:
    static std::string Join(const std::vector<std::string>& keys)
    {
        std::string out;
        for (const auto& k : keys)
        {
            out += (out.empty() ? "" : ", ") + k;
        }
        return out;
    }

    std::string m_file;
    std::string m_path;
    const json& m_j;
    std::vector<std::string> m_known;    //!< keys asked for, in order
    std::vector<std::string> m_declared; //!< Expect()'s list (empty: none declared)
};

LinkSpec
ReadLink(Section& parent, const std::string& key, const LinkSpec& def)
{
    const json* v = parent.Find(key);
    if (!v)
    {
        return def;
    }
    Section s(parent.File(), parent.Key(key), *v);
    LinkSpec l;
    l.rate = s.Rate("rate", def.rate);
    l.delay = s.TimeVal("delay", def.delay);
    s.Finish();
    return l;
}

uint32_t
HostId(const Section& s, const std::string& key, const json& v, uint32_t hosts)
{
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
    {
        s.Fail(key, "expected a host index", v);
    }
    uint64_t h = v.get<uint64_t>();
    if (hosts == 0)
    {
        s.Fail(key, "host " + std::to_string(h) + " does not exist (the topology has no hosts)");
    }
    if (h >= hosts)
    {
        s.Fail(key,
               "host " + std::to_string(h) + " does not exist (topology has " +
                   std::to_string(hosts) + " hosts, 0.." + std::to_string(hosts - 1) + ")");
    }
    return static_cast<uint32_t>(h);
}

/// Generated patterns may expand to at most this many flows (4 M flows of
/// 32 bytes each: 128 MB of FlowSpec, far beyond a packet-level run anyway).
constexpr uint64_t kMaxGeneratedFlows = 4000000;

/// Fail unless a pattern's \p flows fit under kMaxGeneratedFlows.
void
CheckFlowCount(const Section& s, const std::string& key, uint64_t flows)
{
    if (flows > kMaxGeneratedFlows)
    {
        s.Fail(key,
               "the pattern would generate " + std::to_string(flows) + " flows (at most " +
                   std::to_string(kMaxGeneratedFlows) + ")");
    }
}

/**
 * splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014): a portable, seeded generator; the same seed gives
 * the same sequence on every platform and standard library.
 */
struct SplitMix64
{
    uint64_t state;

    uint64_t Next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    /// Uniform in [0, n) by rejection (no modulo bias).
    uint64_t Below(uint64_t n)
    {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x;
        do
        {
            x = Next();
        } while (x >= limit);
        return x % n;
    }
};

void
ReadWorkload(Section& root, ScenarioConfig& cfg)
{
    const json* v = root.Find("workload");
    const uint32_t hosts = cfg.topology.HostCount();
    if (!v)
    {
        cfg.workload.type = "flows";
        return;
    }
    Section w(root.File(), "workload", *v);
    WorkloadConfig& wl = cfg.workload;
    wl.type = w.Str(
        "type",
        "flows",
        {"flows", "all-to-all", "incast", "permutation", "collective", "chakra", "text", "gossip"});
    auto common = [&](Section& s, FlowSpec& f, bool needBytes) {
        if (needBytes && !s.Find("bytes"))
        {
            s.Fail(s.Key("bytes"), "expected the size of each flow's message", Nothing());
        }
        f.bytes = s.Size("bytes", 0, 1, kMaxMessageBytes);
        f.start = s.TimeVal("start", Time(0));
        if (f.start >= cfg.stop)
        {
            // It would never start: the run ends at stop.
            s.Fail(s.Key("start"),
                   "the flow would start at or after stop (" + TimeToText(cfg.stop) +
                       "): expected an earlier start or a later stop",
                   *s.Find("start"));
        }
        f.priority = static_cast<uint8_t>(s.UInt("priority", 3, 0, 7));
    };
    if (wl.type == "flows")
    {
        const json* list = w.Find("flows");
        if (!list || !list->is_array())
        {
            w.Fail("workload.flows",
                   "expected an array of {src, dst, bytes, start, priority}",
                   list ? *list : Nothing());
        }
        for (std::size_t i = 0; i < list->size(); ++i)
        {
            Section s(root.File(), "workload.flows[" + std::to_string(i) + "]", (*list)[i]);
            FlowSpec f;
            const json* src = s.Find("src");
            const json* dst = s.Find("dst");
            if (!src || !dst)
            {
                s.Fail(s.Key(src ? "dst" : "src"), "expected a host index", Nothing());
            }
            f.src = HostId(s, s.Key("src"), *src, hosts);
            f.dst = HostId(s, s.Key("dst"), *dst, hosts);
            if (f.src == f.dst)
            {
                s.Fail(s.Key("dst"), "a flow needs two different hosts (src == dst)");
            }
            common(s, f, true);
            s.Finish();
            wl.flows.push_back(f);
        }
        // ScenarioToJson() writes generated patterns as their flows and names
        // the pattern here, so the resolved file reads back to the same config.
        wl.type = w.Str("expanded_from", "flows", {"all-to-all", "incast", "permutation"});
    }
    else if (wl.type == "all-to-all")
    {
        FlowSpec proto;
        std::vector<uint32_t> members;
        const json* hv = w.Find("hosts");
        if (!hv || (hv->is_string() && hv->get<std::string>() == "all"))
        {
            CheckFlowCount(w, "workload.hosts", static_cast<uint64_t>(hosts) * (hosts - 1));
            for (uint32_t h = 0; h < hosts; ++h)
            {
                members.push_back(h);
            }
        }
        else if (hv->is_array())
        {
            // Before reading the list: every host is listed at most once.
            const uint64_t n = hv->size();
            CheckFlowCount(w, "workload.hosts", n * (n == 0 ? 0 : n - 1));
            std::set<uint32_t> seen;
            for (std::size_t i = 0; i < hv->size(); ++i)
            {
                uint32_t h =
                    HostId(w, "workload.hosts[" + std::to_string(i) + "]", (*hv)[i], hosts);
                if (!seen.insert(h).second)
                {
                    w.Fail("workload.hosts[" + std::to_string(i) + "]",
                           "host " + std::to_string(h) + " is listed twice");
                }
                members.push_back(h);
            }
        }
        else
        {
            w.Fail("workload.hosts", "expected \"all\" or an array of host indices", *hv);
        }
        if (members.size() < 2)
        {
            w.Fail("workload.hosts", "all-to-all needs at least two hosts");
        }
        common(w, proto, true);
        for (uint32_t s : members)
        {
            for (uint32_t d : members)
            {
                if (s != d)
                {
                    FlowSpec f = proto;
                    f.src = s;
                    f.dst = d;
                    wl.flows.push_back(f);
                }
            }
        }
    }
    else if (wl.type == "incast")
    {
        FlowSpec proto;
        const json* rv = w.Find("receiver");
        if (!rv)
        {
            w.Fail("workload.receiver", "expected the host index all senders send to", Nothing());
        }
        uint32_t receiver = HostId(w, "workload.receiver", *rv, hosts);
        const json* sv = w.Find("senders");
        if (!sv || !sv->is_array() || sv->empty())
        {
            w.Fail("workload.senders",
                   "expected a non-empty array of host indices",
                   sv ? *sv : Nothing());
        }
        common(w, proto, true);
        std::set<uint32_t> seen;
        for (std::size_t i = 0; i < sv->size(); ++i)
        {
            const std::string key = "workload.senders[" + std::to_string(i) + "]";
            uint32_t s = HostId(w, key, (*sv)[i], hosts);
            if (s == receiver)
            {
                w.Fail(key, "the receiver cannot also be a sender");
            }
            if (!seen.insert(s).second)
            {
                w.Fail(key, "host " + std::to_string(s) + " is listed twice");
            }
            FlowSpec f = proto;
            f.src = s;
            f.dst = receiver;
            wl.flows.push_back(f);
        }
    }
    else if (wl.type == "collective")
    {
        CollectiveWorkload& c = wl.collective;
        const json* gv = w.Find("group");
        if (!gv || (gv->is_string() && gv->get<std::string>() == "all"))
        {
            for (uint32_t h = 0; h < hosts; ++h)
            {
                c.group.push_back(h);
            }
        }
        else if (gv->is_array())
        {
            std::set<uint32_t> seen;
            for (std::size_t i = 0; i < gv->size(); ++i)
            {
                const std::string key = "workload.group[" + std::to_string(i) + "]";
                uint32_t h = HostId(w, key, (*gv)[i], hosts);
                if (!seen.insert(h).second)
                {
                    w.Fail(key, "host " + std::to_string(h) + " is listed twice");
                }
                c.group.push_back(h);
            }
        }
        else
        {
            w.Fail("workload.group", "expected \"all\" or an array of host indices", *gv);
        }
        if (c.group.size() < 2)
        {
            w.Fail("workload.group", "a collective needs at least two ranks");
        }
        c.iterations = static_cast<uint32_t>(w.UInt("iterations", 1, 1, 100000));
        c.priority = static_cast<uint8_t>(w.UInt("priority", 3, 0, 7));
        // One collective's keys, at the top level or in each of "phases".
        auto readPhase = [&](Section& ps) {
            CollectiveSpec spec;
            spec.type = ps.Str("collective",
                               "all-reduce",
                               {"all-reduce", "reduce-scatter", "all-gather", "all-to-all"});
            spec.algorithm = ps.Str(
                "algorithm",
                "ring",
                {"ring", "direct", "halving-doubling", "double-binary-tree", "hierarchical"});
            if (!ps.Find("bytes"))
            {
                ps.Fail(ps.Key("bytes"),
                        "expected the collective's size per rank as nccl-tests gives it "
                        "(all-gather: the output)",
                        Nothing());
            }
            spec.bytes = ps.Size("bytes", 0, 1, kMaxMessageBytes);
            spec.chunks = static_cast<uint32_t>(ps.UInt("chunks", 1, 1, 4096));
            spec.channels = static_cast<uint32_t>(ps.UInt("channels", 1, 1, 64));
            if (const json* dv = ps.Find("dims"))
            {
                if (!dv->is_array())
                {
                    ps.Fail(ps.Key("dims"), "expected an array of dimension sizes", *dv);
                }
                for (std::size_t i = 0; i < dv->size(); ++i)
                {
                    spec.dims.push_back(static_cast<uint32_t>(
                        ps.UIntOf(ps.Key("dims") + "[" + std::to_string(i) + "]",
                                  (*dv)[i],
                                  1,
                                  65536)));
                }
            }
            if (const json* av = ps.Find("dim_algorithms"))
            {
                if (!av->is_array())
                {
                    ps.Fail(ps.Key("dim_algorithms"), "expected an array of algorithm names", *av);
                }
                for (std::size_t i = 0; i < av->size(); ++i)
                {
                    const std::string key =
                        ps.Key("dim_algorithms") + "[" + std::to_string(i) + "]";
                    if (!(*av)[i].is_string())
                    {
                        ps.Fail(key, "expected ring, direct or halving-doubling", (*av)[i]);
                    }
                    spec.dimAlgorithms.push_back((*av)[i].get<std::string>());
                }
            }
            // The plan checks the algorithm against the collective and the
            // group, once its size is known to be reasonable.
            spec.ranks = static_cast<uint32_t>(c.group.size());
            const std::string tooLarge = CheckPlanSize(spec);
            if (!tooLarge.empty())
            {
                ps.Fail(ps.Key("algorithm"), tooLarge);
            }
            try
            {
                CollectiveSpec probe = spec;
                probe.bytes = std::min<uint64_t>(spec.bytes, 1u << 20);
                probe.chunks = 1;
                probe.channels = 1;
                PlanCollective(probe);
            }
            catch (const std::invalid_argument& e)
            {
                ps.Fail(ps.Key("algorithm"), e.what());
            }
            return spec;
        };
        if (const json* pv = w.Find("phases"))
        {
            if (!pv->is_array() || pv->empty())
            {
                w.Fail("workload.phases", "expected a non-empty array of collectives", *pv);
            }
            for (std::size_t i = 0; i < pv->size(); ++i)
            {
                Section ps(root.File(), "workload.phases[" + std::to_string(i) + "]", (*pv)[i]);
                c.phases.push_back(readPhase(ps));
                ps.Finish();
            }
        }
        else
        {
            c.phases.push_back(readPhase(w));
        }
        const CollectiveSpec& first = c.phases.front();
        c.collective = first.type;
        c.algorithm = first.algorithm;
        c.bytes = first.bytes;
        c.chunks = first.chunks;
        c.channels = first.channels;
        c.dims = first.dims;
        c.dimAlgorithms = first.dimAlgorithms;
    }
    else if (wl.type == "gossip")
    {
        TraceWorkload& t = wl.trace;
        const uint32_t steps = static_cast<uint32_t>(w.UInt("steps", 10, 1, 100000));
        if (!w.Find("bytes"))
        {
            w.Fail("workload.bytes", "missing (the model size each learner sends per step)");
        }
        const uint64_t bytes = w.Size("bytes", 0, 1, kMaxMessageBytes);
        const Time compute = w.TimeVal("compute", MicroSeconds(100));
        const std::string partner = w.Str("partner", "ring", {"ring", "random"});
        const bool delay = w.Bool("delay_by_one", false);
        const uint64_t seed = w.UInt("seed", cfg.seed);
        if (hosts < 2)
        {
            w.Fail("workload.type", "gossip needs at least two hosts");
        }
        // One send per learner and step.
        CheckFlowCount(w, "workload.steps", static_cast<uint64_t>(hosts) * steps);
        t.path = "gossip";
        t.steps = steps;
        t.bytes = bytes;
        t.computeUs = static_cast<uint64_t>(compute.GetMicroSeconds());
        t.randomPartner = partner == "random";
        t.delayByOne = delay;
        t.seed = seed;
        t.graphs = GenerateGossip(hosts,
                                  steps,
                                  bytes,
                                  static_cast<uint64_t>(compute.GetMicroSeconds()),
                                  partner == "random",
                                  delay,
                                  seed);
    }
    else if (wl.type == "chakra" || wl.type == "text")
    {
        TraceWorkload& t = wl.trace;
        const char* pathKey = wl.type == "chakra" ? "prefix" : "path";
        t.path = w.Str(pathKey, "", {});
        if (t.path.empty())
        {
            w.Fail(std::string("workload.") + pathKey,
                   wl.type == "chakra" ? "missing (the traces' prefix: <prefix>.<rank>.et)"
                                       : "missing (the text trace file)");
        }
        t.commGroups = w.Str("comm_groups", "", {});
        t.chunks = static_cast<uint32_t>(w.UInt("chunks", 1, 1, 4096));
        t.channels = static_cast<uint32_t>(w.UInt("channels", 1, 1, 64));
        if (const json* dv = w.Find("dims"))
        {
            if (!dv->is_array())
            {
                w.Fail("workload.dims", "expected an array of dimension sizes", *dv);
            }
            for (std::size_t i = 0; i < dv->size(); ++i)
            {
                t.dims.push_back(static_cast<uint32_t>(
                    w.UIntOf("workload.dims[" + std::to_string(i) + "]", (*dv)[i], 1, 65536)));
            }
        }
        if (const json* av = w.Find("dim_algorithms"))
        {
            if (!av->is_array())
            {
                w.Fail("workload.dim_algorithms", "expected an array of algorithm names", *av);
            }
            for (std::size_t i = 0; i < av->size(); ++i)
            {
                if (!(*av)[i].is_string())
                {
                    w.Fail("workload.dim_algorithms[" + std::to_string(i) + "]",
                           "expected ring, direct or halving-doubling",
                           (*av)[i]);
                }
                t.dimAlgorithms.push_back((*av)[i].get<std::string>());
            }
        }
        if (const json* av = w.Find("algorithms"))
        {
            if (!av->is_object())
            {
                w.Fail("workload.algorithms", "expected {\"all-reduce\": \"ring\", ...}", *av);
            }
            for (auto it = av->begin(); it != av->end(); ++it)
            {
                static const std::vector<std::string> colls{"all-reduce",
                                                            "all-gather",
                                                            "reduce-scatter",
                                                            "all-to-all"};
                if (std::find(colls.begin(), colls.end(), it.key()) == colls.end() ||
                    !it->is_string())
                {
                    w.Fail("workload.algorithms." + it.key(),
                           "expected a collective (all-reduce, all-gather, reduce-scatter, "
                           "all-to-all) mapped to an algorithm name",
                           *it);
                }
                t.algorithms[it.key()] = it->get<std::string>();
            }
        }
        try
        {
            if (wl.type == "chakra")
            {
                t.graphs = ReadChakraPrefix(t.path);
            }
            else
            {
                t.graphs = ParseTextTrace(
                    ReadInputFile<TraceError>(t.path, "text trace", InputLimits::kTextTraceBytes),
                    t.path);
            }
            if (!t.commGroups.empty() && t.commGroups != "empty") // "empty": none, as ASTRA-sim
            {
                t.groups = ReadCommGroups(t.commGroups, static_cast<uint32_t>(t.graphs.size()));
            }
            AddMetadataGroups(t.graphs, t.groups);
            t.warnings = ValidateWorkload(t.graphs, t.groups);
            CheckTraceCollectives(t.graphs,
                                  t.groups,
                                  TraceCollectiveOptions{t.algorithms,
                                                         t.chunks,
                                                         t.channels,
                                                         t.dims,
                                                         t.dimAlgorithms});
        }
        catch (const TraceError& e)
        {
            throw ScenarioError(root.File() + ": workload: " + e.what());
        }
        if (t.graphs.size() > hosts)
        {
            w.Fail(std::string("workload.") + pathKey,
                   "the trace has " + std::to_string(t.graphs.size()) + " ranks, the topology " +
                       std::to_string(hosts) + " hosts");
        }
    }
    else // permutation
    {
        FlowSpec proto;
        common(w, proto, true);
        const uint64_t seed = w.UInt("seed", cfg.seed);
        if (hosts < 2)
        {
            w.Fail("workload.type", "a permutation needs at least two hosts");
        }
        CheckFlowCount(w, "workload.type", hosts);
        // Sattolo's algorithm: a uniformly random cyclic permutation (one
        // cycle through all hosts), so no host sends to itself and every host
        // sends and receives exactly once. Portable by construction: perm
        // starts as the identity; for i = hosts-1 down to 1, j = Below(i)
        // (splitmix64 seeded with workload.seed, default the scenario seed;
        // rejection sampling, no modulo bias) and perm[i], perm[j] swap.
        std::vector<uint32_t> perm(hosts);
        for (uint32_t i = 0; i < hosts; ++i)
        {
            perm[i] = i;
        }
        SplitMix64 rng{seed};
        for (uint32_t i = hosts - 1; i > 0; --i)
        {
            uint32_t j = static_cast<uint32_t>(rng.Below(i));
            std::swap(perm[i], perm[j]);
        }
        for (uint32_t s = 0; s < hosts; ++s)
        {
            FlowSpec f = proto;
            f.src = s;
            f.dst = perm[s];
            wl.flows.push_back(f);
        }
    }
    w.Finish();
}

/**
 * Parser callback that rejects an object key given twice in one object
 * (nlohmann::json would silently keep the last one) and nesting deeper than
 * InputLimits::kJsonDepth. It follows the parse to name the object:
 * "topology.leaves", "workload.flows[2].src".
 */
class DuplicateKeyCheck
{
  public:
    DuplicateKeyCheck(const std::string& file, const std::string& base)
        : m_file(file),
          m_base(base)
    {
    }

    bool operator()(int depth, json::parse_event_t event, json& parsed)
    {
        switch (event)
        {
        case json::parse_event_t::object_start:
        case json::parse_event_t::array_start:
            // Bounded here, while parsing: everything after (error messages
            // included) walks the document recursively.
            if (depth >= InputLimits::kJsonDepth)
            {
                throw Error(m_file + ": " + Path(2) + ": nested deeper than " +
                            std::to_string(InputLimits::kJsonDepth) +
                            " levels of arrays and objects");
            }
            m_stack.push_back(Frame{event == json::parse_event_t::array_start, 0, {}, {}});
            break;
        case json::parse_event_t::key: {
            Frame& f = m_stack.back();
            f.key = parsed.get<std::string>();
            if (!f.keys.insert(f.key).second)
            {
                throw Error(m_file + ": " + Path() + ": key given twice in one object");
            }
            break;
        }
        case json::parse_event_t::object_end:
        case json::parse_event_t::array_end:
            m_stack.pop_back();
            ElementDone();
            break;
        case json::parse_event_t::value:
            ElementDone();
            break;
        }
        return true;
    }

  private:
    struct Frame
    {
        bool array;
        std::size_t index; //!< arrays: index of the element being read
        std::set<std::string> keys;
        std::string key; //!< objects: key being read
    };

    void ElementDone()
    {
        if (!m_stack.empty() && m_stack.back().array)
        {
            ++m_stack.back().index;
        }
    }

    /// The key being read, e.g. "workload.flows[2].src"; at most \p levels levels, then "...".
    std::string Path(std::size_t levels = SIZE_MAX) const
    {
        std::string p = m_base;
        for (std::size_t i = 0; i < m_stack.size(); ++i)
        {
            if (i == levels)
            {
                return p + "...";
            }
            const Frame& f = m_stack[i];
            if (f.array)
            {
                p += "[" + std::to_string(f.index) + "]";
            }
            else
            {
                p += (p.empty() ? "" : ".") + f.key;
            }
        }
        return p;
    }

    std::string m_file;
    std::string m_base;
    std::vector<Frame> m_stack;
};

/// Parse \p text strictly (duplicate keys rejected); nlohmann's parse_error on bad syntax.
json
ParseStrict(const std::string& text, const std::string& file, const std::string& base)
{
    DuplicateKeyCheck check(file, base);
    return json::parse(text, [&check](int depth, json::parse_event_t event, json& parsed) {
        return check(depth, event, parsed);
    });
}

/// One step of a --set key path: an object key or an array index.
struct PathStep
{
    std::string key;
    bool bracket{false}; //!< written as [n]: must index an array
};

/**
 * Split a --set key path: keys separated by dots, array elements either as
 * `[n]` after a key or as a numeric key: "workload.flows[0].bytes" and
 * "workload.flows.0.bytes" are the same. Returns false on a malformed path.
 */
bool
SplitKeyPath(const std::string& path, std::vector<PathStep>& steps)
{
    std::size_t i = 0;
    while (true)
    {
        std::size_t end = path.find_first_of(".[", i);
        std::string name = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (name.empty() || name.find(']') != std::string::npos)
        {
            return false; // empty key: "a..b", ".a", "a.", "[0]" first
        }
        steps.push_back(PathStep{name, false});
        i = end;
        while (i != std::string::npos && path[i] == '[')
        {
            const std::size_t close = path.find(']', i);
            if (close == std::string::npos || close == i + 1)
            {
                return false;
            }
            const std::string index = path.substr(i + 1, close - i - 1);
            if (!std::all_of(index.begin(), index.end(), [](char c) {
                    return c >= '0' && c <= '9';
                }))
            {
                return false;
            }
            steps.push_back(PathStep{index, true});
            i = close + 1 < path.size() ? close + 1 : std::string::npos;
        }
        if (i == std::string::npos)
        {
            return true;
        }
        if (path[i] != '.')
        {
            return false; // "a[0]b"
        }
        ++i;
    }
}

/**
 * Apply one `key.path=value` override to the document. The value is JSON
 * when it parses as JSON (numbers, true/false, "quoted strings", objects,
 * arrays), else the text itself as a string. Missing objects on the way are
 * created; whether the key is allowed there is up to the validation after.
 */
void
ApplySet(json& doc, const std::string& set, const std::string& file)
{
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        throw Error(file + ": --set " + Quote(set) + ": expected key.path=value");
    }
    const std::string path = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    std::vector<PathStep> steps;
    if (!SplitKeyPath(path, steps))
    {
        throw Error(file + ": --set " + Quote(set) +
                    ": malformed key path (expected keys separated by dots, array "
                    "elements as [n] or .n, e.g. workload.flows[0].bytes)");
    }
    json value;
    try
    {
        value = ParseStrict(text, file, "--set " + path);
    }
    catch (const json::exception&) // parse_error, or out_of_range for a number like 1e999
    {
        value = text; // not JSON: a string
    }
    json* node = &doc;
    std::string walked;
    for (std::size_t k = 0; k < steps.size(); ++k)
    {
        const PathStep& step = steps[k];
        const bool numeric = std::all_of(step.key.begin(), step.key.end(), [](char c) {
            return c >= '0' && c <= '9';
        });
        if (node->is_array())
        {
            walked += "[" + step.key + "]";
            if (!numeric)
            {
                throw Error(file + ": --set " + walked + ": expected an array index, got " +
                            Quote(step.key));
            }
            // At most 9 digits: the value fits, and no array is that long.
            const std::size_t idx =
                step.key.size() > 9 ? SIZE_MAX : static_cast<std::size_t>(std::stoul(step.key));
            if (idx >= node->size())
            {
                throw Error(file + ": --set " + walked + ": index out of range (the array has " +
                            std::to_string(node->size()) + " elements)");
            }
            node = &(*node)[idx];
        }
        else
        {
            walked += step.bracket ? "[" + step.key + "]" : (walked.empty() ? "" : ".") + step.key;
            if (step.bracket)
            {
                throw Error(file + ": --set " + walked + ": not an array, got " +
                            Section::Describe(*node));
            }
            if (node->is_null())
            {
                *node = json::object();
            }
            if (!node->is_object())
            {
                throw Error(file + ": --set " + walked + ": its parent is not an object, got " +
                            Section::Describe(*node));
            }
            node = &(*node)[step.key];
        }
    }
    *node = value;
}

} // namespace

uint64_t
ParseByteSize(const std::string& text, const std::string& what)
{
    Decimal d;
    if (!SplitNumberUnit(text, d))
    {
        throw Error(what + ": expected a size, got " + Quote(text));
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
                throw Error(what + ": not a whole number of bytes: " + Quote(text));
            case ScaleResult::TOO_LARGE:
                throw TooLarge(OneLine(what + ": size too large: " + Quote(text)));
            case ScaleResult::OK:
                break;
            }
            return bytes;
        }
    }
    throw Error(what + ": unknown size unit in " + Quote(text) +
                " (B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
}

DataRate
ParseRate(const std::string& text, const std::string& what)
{
    Decimal d;
    if (!SplitNumberUnit(text, d))
    {
        throw Error(what + ": expected a rate, got " + Quote(text));
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
                throw Error(what + ": rate too large: " + Quote(text));
            }
            if (bps == 0)
            {
                throw Error(what + ": rate must be positive: " + Quote(text));
            }
            return DataRate(bps);
        }
    }
    throw Error(what + ": unknown rate unit in " + Quote(text) + " (bps, Kbps, Mbps, Gbps, Tbps)");
}

Time
ParseTime(const std::string& text, const std::string& what)
{
    FabricTopology::EnsurePicosecondResolution();
    Decimal d;
    if (!SplitNumberUnit(text, d))
    {
        throw Error(what + ": expected a time, got " + Quote(text));
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
                throw TooLarge(OneLine(what + ": time too large: " + Quote(text) + " (at most " +
                                       kMaxTimeText + ")"));
            }
            return PicoSeconds(static_cast<int64_t>(ps));
        }
    }
    throw Error(what + ": unknown time unit in " + Quote(text) + " (s, ms, us, ns, ps)");
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

const std::vector<std::string>&
ValidCcNames()
{
    static const std::vector<std::string> names{"none",
                                                "dcqcn",
                                                "hpcc",
                                                "timely",
                                                "timely-patched",
                                                "dctcp"};
    return names;
}

ScenarioConfig
ParseScenarioText(const std::string& jsonText,
                  const std::vector<std::string>& sets,
                  const std::string& sourceName)
{
    FabricTopology::EnsurePicosecondResolution();
    const std::string& file = sourceName;
    json doc;
    try
    {
        doc = ParseStrict(jsonText, file, "");
    }
    catch (const json::exception& e) // parse_error; out_of_range for 1e999
    {
        // "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
        throw Error(file + ": invalid JSON: " + e.what());
    }
    for (const auto& s : sets)
    {
        ApplySet(doc, s, file);
    }
    ScenarioConfig cfg;
    cfg.sourcePath = sourceName;
    Section root(file, "", doc);
    // Every top-level key; a new section must be added here too (Find() checks).
    root.Expect({"name",
                 "seed",
                 "stop",
                 "stall_timeout",
                 "fixed_length",
                 "pcap",
                 "topology",
                 "switch",
                 "nic",
                 "routing",
                 "workload",
                 "trace",
                 "monitor"});
    cfg.name = root.Str("name", "scenario", {});
    // The name becomes a directory name (results/<name>/).
    if (cfg.name.empty() || cfg.name.find_first_of("/\\") != std::string::npos || cfg.name == "." ||
        cfg.name == ".." || std::any_of(cfg.name.begin(), cfg.name.end(), [](char c) {
            return static_cast<unsigned char>(c) < 0x20;
        }))
    {
        root.Fail("name",
                  "expected a non-empty name usable as a directory name (no '/', '\\')",
                  json(cfg.name));
    }
    if (!IsValidUtf8(cfg.name))
    {
        // A --set value is taken as it comes; summary.json must hold it as text.
        root.Fail("name", "expected valid UTF-8 text", json(cfg.name));
    }
    if (cfg.name.size() > kMaxNameBytes)
    {
        // It names results/<name>/ and pcap/<name>-<node>-<device>.pcap: file
        // names are at most 255 bytes (NAME_MAX), the pcap suffix takes up to 27.
        root.Fail("name",
                  "expected at most " + std::to_string(kMaxNameBytes) +
                      " bytes (it becomes part of file names), got " +
                      std::to_string(cfg.name.size()));
    }
    cfg.seed = static_cast<uint32_t>(root.UInt("seed", 1, 0, UINT32_MAX));
    cfg.stop = root.TimeVal("stop", Seconds(1));
    if (!cfg.stop.IsStrictlyPositive())
    {
        root.Fail("stop", "expected a positive time", *root.Find("stop"));
    }
    // 10 ms: three full 65535-quanta pauses at 10 Gb/s (3.4 ms each), longer
    // than any pause of a fabric that still moves; 0 turns detection off.
    cfg.stallTimeout = root.TimeVal("stall_timeout", MilliSeconds(10));
    cfg.fixedLength = root.Bool("fixed_length", false);
    cfg.pcap = root.Bool("pcap", false);

    // topology
    {
        const json empty = json::object();
        const json* v = root.Find("topology");
        Section t(file, "topology", v ? *v : empty);
        TopologyConfig& tc = cfg.topology;
        tc.type = t.Str("type",
                        "leaf-spine",
                        {"leaf-spine", "fat-tree", "torus", "rail-optimized", "file"});
        const LinkSpec def{DataRate("100Gbps"), MicroSeconds(1)};
        if (tc.type == "leaf-spine")
        {
            tc.leaves = static_cast<uint32_t>(t.UInt("leaves", 2, 1, 4096));
            tc.spines = static_cast<uint32_t>(t.UInt("spines", 2, 1, 4096));
            tc.hostsPerLeaf = static_cast<uint32_t>(t.UInt("hosts_per_leaf", 4, 1, 4096));
            tc.linksPerPair = static_cast<uint32_t>(t.UInt("links_per_pair", 1, 1, 64));
            tc.hostLink = ReadLink(t, "host_link", def);
            tc.fabricLink = ReadLink(t, "fabric_link", def);
        }
        else if (tc.type == "fat-tree")
        {
            const bool clos = t.Find("pods") != nullptr;
            if (t.Find("k") && clos)
            {
                t.Fail("topology.k", "give either k or the Clos shape (pods, ...), not both");
            }
            if (!clos)
            {
                // k: 0 is an error like any other odd or small k, never the default.
                tc.k = static_cast<uint32_t>(t.UInt("k", 4, 0, 256));
                if (tc.k % 2 != 0 || tc.k < 2)
                {
                    t.Fail("topology.k", "expected an even number of at least 2", json(tc.k));
                }
                tc.pods = tc.k;
                tc.edgesPerPod = tc.aggsPerPod = tc.hostsPerEdge = tc.coresPerAgg = tc.k / 2;
            }
            else
            {
                tc.pods = static_cast<uint32_t>(t.UInt("pods", 4, 1, 1024));
                tc.edgesPerPod = static_cast<uint32_t>(t.UInt("edges_per_pod", 2, 1, 1024));
                tc.aggsPerPod = static_cast<uint32_t>(t.UInt("aggs_per_pod", 2, 1, 1024));
                tc.hostsPerEdge = static_cast<uint32_t>(t.UInt("hosts_per_edge", 2, 1, 1024));
                tc.coresPerAgg = static_cast<uint32_t>(t.UInt("cores_per_agg", 2, 1, 1024));
            }
            tc.hostLink = ReadLink(t, "host_link", def);
            tc.fabricLink = ReadLink(t, "fabric_link", def);
        }
        else if (tc.type == "torus")
        {
            const json* dv = t.Find("dims");
            if (!dv || !dv->is_array() || dv->empty() || dv->size() > 8)
            {
                t.Fail("topology.dims",
                       "expected a list of 1 to 8 dimension sizes such as [4, 4, 4]",
                       dv ? *dv : Nothing());
            }
            uint64_t n = 1;
            for (std::size_t i = 0; i < dv->size(); ++i)
            {
                tc.dims.push_back(static_cast<uint32_t>(
                    t.UIntOf("topology.dims[" + std::to_string(i) + "]", (*dv)[i], 1, 4096)));
                n *= tc.dims.back();
            }
            if (n < 2 || n > 65536)
            {
                t.Fail("topology.dims", "expected 2 to 65536 vertices in all", *dv);
            }
            tc.wrap = t.Bool("wrap", true);
            const LinkSpec torusDef{DataRate("400Gbps"), NanoSeconds(500)};
            const LinkSpec link = ReadLink(t, "link", torusDef);
            tc.dimLinks.assign(tc.dims.size(), link);
            if (const json* dl = t.Find("dim_links"))
            {
                if (!dl->is_array() || dl->size() != tc.dims.size())
                {
                    t.Fail("topology.dim_links", "expected one {rate, delay} per dimension", *dl);
                }
                for (std::size_t i = 0; i < dl->size(); ++i)
                {
                    Section ls(file, "topology.dim_links[" + std::to_string(i) + "]", (*dl)[i]);
                    tc.dimLinks[i].rate = ls.Rate("rate", link.rate);
                    tc.dimLinks[i].delay = ls.TimeVal("delay", link.delay);
                    ls.Finish();
                }
            }
            tc.hostLink = ReadLink(t, "host_link", LinkSpec{link.rate, NanoSeconds(100)});
        }
        else if (tc.type == "rail-optimized")
        {
            tc.scaleUnits = static_cast<uint32_t>(t.UInt("scale_units", 1, 1, 1024));
            tc.serversPerUnit = static_cast<uint32_t>(t.UInt("servers", 4, 1, 4096));
            tc.nicsPerServer = static_cast<uint32_t>(t.UInt("nics_per_server", 8, 1, 64));
            tc.spines = static_cast<uint32_t>(t.UInt("spines", 2, 0, 4096));
            if (tc.scaleUnits > 1 && tc.spines == 0)
            {
                t.Fail("topology.spines", "several scale units need at least one spine");
            }
            const LinkSpec nic{DataRate("400Gbps"), MicroSeconds(1)};
            tc.hostLink = ReadLink(t, "host_link", nic);
            tc.fabricLink = ReadLink(t, "fabric_link", nic);
            tc.nvlink = ReadLink(t, "nvlink", LinkSpec{DataRate("3600Gbps"), NanoSeconds(100)});
            tc.railRouting = t.Bool("rail_routing", true);
        }
        else // file
        {
            tc.file = t.Str("path", "", {});
            if (tc.file.empty())
            {
                t.Fail("topology.path", "expected the topology file to read", Nothing());
            }
            try
            {
                tc.fileHosts = TopologyFileHelper::CountHosts(tc.file);
            }
            catch (const std::invalid_argument& e)
            {
                t.Fail("topology.path", e.what());
            }
        }
        t.Finish();
    }
    // switch
    {
        const json empty = json::object();
        const json* v = root.Find("switch");
        Section s(file, "switch", v ? *v : empty);
        SwitchConfig& sc = cfg.sw;
        sc.bufferBytes = s.Size("buffer", 16000000, 1);
        sc.pfc = s.Bool("pfc", true);
        sc.alpha = s.Num("alpha", 0.125, 1e-6, 1e6);
        sc.reservedBytes = s.Size("reserved", 4096);
        if (const json* h = s.Find("headroom"))
        {
            if (!(h->is_string() && h->get<std::string>() == "auto"))
            {
                uint64_t x = 0;
                bool ok =
                    h->is_number_unsigned() || (h->is_number_integer() && h->get<int64_t>() >= 0);
                if (ok)
                {
                    x = h->get<uint64_t>();
                }
                else if (h->is_string())
                {
                    try
                    {
                        x = ParseByteSize(h->get<std::string>());
                        ok = true;
                    }
                    catch (const ScenarioError&)
                    {
                    }
                }
                if (!ok || x == 0)
                {
                    s.Fail("switch.headroom",
                           "expected \"auto\" or a positive size such as \"64KB\"",
                           *h);
                }
                sc.headroomBytes = x;
            }
        }
        sc.allowSmallHeadroom = s.Bool("allow_small_headroom", false);
        sc.xonOffsetBytes = s.Size("xon_offset", 3072);
        if (const json* e = s.Find("ecn"))
        {
            if (e->is_boolean())
            {
                sc.ecn.enabled = e->get<bool>();
            }
            else
            {
                Section es(file, "switch.ecn", *e);
                sc.ecn.enabled = true;
                sc.ecn.kminBytes = es.Size("kmin", 100000);
                sc.ecn.kmaxBytes = es.Size("kmax", 400000);
                sc.ecn.pmax = es.Num("pmax", 0.2, 0.0, 1.0);
                es.Finish();
                if (sc.ecn.kminBytes > sc.ecn.kmaxBytes)
                {
                    es.Fail("switch.ecn.kmin",
                            "kmin must not exceed kmax (" + std::to_string(sc.ecn.kmaxBytes) +
                                " bytes)",
                            json(sc.ecn.kminBytes));
                }
            }
        }
        sc.scheduler = s.Str("scheduler", "strict", {"strict", "wrr"});
        if (const json* w = s.Find("wrr_weights"))
        {
            if (!w->is_array() || w->size() != 8)
            {
                s.Fail("switch.wrr_weights", "expected an array of 8 positive integers", *w);
            }
            for (std::size_t i = 0; i < 8; ++i)
            {
                sc.wrrWeights.push_back(
                    static_cast<uint32_t>(s.UIntOf("switch.wrr_weights[" + std::to_string(i) + "]",
                                                   (*w)[i],
                                                   1,
                                                   1000000)));
            }
        }
        s.Finish();
        if (sc.reservedBytes >= sc.bufferBytes)
        {
            s.Fail("switch.reserved", "reserved space must be smaller than the buffer");
        }
        if (sc.headroomBytes && *sc.headroomBytes >= sc.bufferBytes)
        {
            s.Fail("switch.headroom", "headroom must be smaller than the buffer");
        }
        if (sc.xonOffsetBytes >= sc.bufferBytes)
        {
            s.Fail("switch.xon_offset", "the XON offset must be smaller than the buffer");
        }
    }
    // nic
    {
        const json empty = json::object();
        const json* v = root.Find("nic");
        Section n(file, "nic", v ? *v : empty);
        NicConfig& nc = cfg.nic;
        nc.mtu = static_cast<uint32_t>(n.UInt("mtu", 4096, 0, UINT32_MAX));
        if (nc.mtu != 256 && nc.mtu != 512 && nc.mtu != 1024 && nc.mtu != 2048 && nc.mtu != 4096)
        {
            n.Fail("nic.mtu",
                   "expected an InfiniBand MTU (256, 512, 1024, 2048 or 4096)",
                   json(nc.mtu));
        }
        nc.cc = n.Str("cc", "none", ValidCcNames());
        if (const json* p = n.Find("cc_params"))
        {
            if (!p->is_object())
            {
                n.Fail("nic.cc_params", "expected an object of parameter names to values", *p);
            }
            for (auto it = p->begin(); it != p->end(); ++it)
            {
                if (it->is_string())
                {
                    nc.ccParams[it.key()] = it->get<std::string>();
                }
                else if (it->is_number() || it->is_boolean())
                {
                    nc.ccParams[it.key()] = it->dump();
                }
                else
                {
                    n.Fail("nic.cc_params." + it.key(),
                           "expected a string, number or boolean",
                           *it);
                }
            }
        }
        nc.ackInterval = static_cast<uint32_t>(n.UInt("ack_interval", 1, 1, 1 << 20));
        nc.rto = n.TimeVal("rto", MilliSeconds(1));
        nc.cnpInterval = n.TimeVal("cnp_interval", MicroSeconds(50));
        if (!nc.rto.IsStrictlyPositive())
        {
            n.Fail("nic.rto", "expected a positive time", json(0));
        }
        n.Finish();
    }
    // routing
    {
        const json empty = json::object();
        const json* v = root.Find("routing");
        Section r(file, "routing", v ? *v : empty);
        RoutingConfig& rc = cfg.routing;
        rc.mode = r.Str("mode", "ecmp", {"ecmp", "static", "balanced-static", "dor"});
        if (rc.mode == "dor" && cfg.topology.type != "torus")
        {
            r.Fail("routing.mode", "dimension-order routing (dor) needs a torus topology");
        }
        rc.hash = r.Str("hash", "crc32", {"crc32", "crc32-plain", "mix64"});
        rc.seed = static_cast<uint32_t>(r.UInt("seed", 1, 0, UINT32_MAX));
        if (const json* p = r.Find("pins"))
        {
            if (!p->is_array())
            {
                r.Fail("routing.pins", "expected an array of {src, dst, spine[, sport]}", *p);
            }
            if (rc.mode != "static" && !p->empty())
            {
                r.Fail("routing.pins", "pins need routing.mode \"static\"");
            }
            if (cfg.topology.type != "leaf-spine" && !p->empty())
            {
                r.Fail("routing.pins", "pins name spines of a leaf-spine topology");
            }
            const uint32_t hosts = cfg.topology.HostCount();
            for (std::size_t i = 0; i < p->size(); ++i)
            {
                Section ps(file, "routing.pins[" + std::to_string(i) + "]", (*p)[i]);
                StaticPin pin;
                const json* src = ps.Find("src");
                const json* dst = ps.Find("dst");
                const json* spine = ps.Find("spine");
                if (!src || !dst || !spine)
                {
                    ps.Fail(ps.Key(!src ? "src" : (!dst ? "dst" : "spine")),
                            "expected an index",
                            Nothing());
                }
                pin.src = HostId(ps, ps.Key("src"), *src, hosts);
                pin.dst = HostId(ps, ps.Key("dst"), *dst, hosts);
                pin.spine =
                    static_cast<uint32_t>(ps.UIntOf(ps.Key("spine"), *spine, 0, UINT32_MAX));
                if (pin.spine >= cfg.topology.spines)
                {
                    ps.Fail(ps.Key("spine"),
                            "spine " + std::to_string(pin.spine) +
                                " does not exist (topology has " +
                                std::to_string(cfg.topology.spines) + " spines, 0.." +
                                std::to_string(cfg.topology.spines - 1) + ")");
                }
                if (pin.src / cfg.topology.hostsPerLeaf == pin.dst / cfg.topology.hostsPerLeaf)
                {
                    ps.Fail(ps.Key("dst"),
                            "src and dst share a leaf: their traffic crosses no spine");
                }
                if (const json* sp = ps.Find("sport"))
                {
                    pin.srcPort = static_cast<uint16_t>(ps.UIntOf(ps.Key("sport"), *sp, 1, 65535));
                }
                ps.Finish();
                for (std::size_t k = 0; k < rc.pins.size(); ++k)
                {
                    const StaticPin& o = rc.pins[k];
                    if (o.src == pin.src && o.dst == pin.dst && o.srcPort == pin.srcPort)
                    {
                        ps.Fail(ps.Key("src"),
                                "this src, dst" + std::string(pin.srcPort ? ", sport" : "") +
                                    " is already pinned by routing.pins[" + std::to_string(k) +
                                    "]");
                    }
                }
                rc.pins.push_back(pin);
            }
        }
        r.Finish();
    }
    ReadWorkload(root, cfg);
    {
        const json empty = json::object();
        const json* v = root.Find("trace");
        Section tr(file, "trace", v ? *v : empty);
        cfg.trace.interval = tr.TimeVal("interval", MicroSeconds(10));
        if (!cfg.trace.interval.IsStrictlyPositive())
        {
            tr.Fail("trace.interval", "expected a positive time", json(0));
        }
        if (const json* fl = tr.Find("flows"))
        {
            if (!fl->is_array())
            {
                tr.Fail("trace.flows", "expected an array of flow indices or selectors", *fl);
            }
            const bool flowsWorkload = !cfg.workload.flows.empty();
            for (std::size_t i = 0; i < fl->size(); ++i)
            {
                const std::string key = "trace.flows[" + std::to_string(i) + "]";
                const json& e = (*fl)[i];
                FlowSelector sel;
                if (flowsWorkload)
                {
                    sel.index =
                        static_cast<int64_t>(tr.UIntOf(key, e, 0, cfg.workload.flows.size() - 1));
                }
                else
                {
                    // A collective's or a trace's flows exist once posted: select them.
                    if (!e.is_object())
                    {
                        tr.Fail(key,
                                "expected a selector such as {\"collective\": 0, \"step\": 1} "
                                "(this workload posts its flows as it runs)",
                                e);
                    }
                    Section s(file, key, e);
                    sel.collective =
                        s.Find("collective") ? s.UInt("collective", 0, 0, INT64_MAX) : -1;
                    sel.step = s.Find("step") ? s.UInt("step", 0, 0, INT32_MAX) : -1;
                    sel.node = s.Find("node") ? s.UInt("node", 0, 0, INT64_MAX) : -1;
                    sel.src = s.Find("src") ? s.UInt("src", 0, 0, INT64_MAX) : -1;
                    s.Finish();
                    if ((sel.collective < 0) == (sel.node < 0) ||
                        (sel.step >= 0 && sel.collective < 0))
                    {
                        tr.Fail(key,
                                "expected {\"collective\": C, \"step\": S, \"src\": H} (step "
                                "and src optional) or {\"node\": N, \"src\": H} (src optional)",
                                e);
                    }
                }
                cfg.trace.flows.push_back(sel);
            }
        }
        tr.Finish();
    }
    {
        const json empty = json::object();
        const json* v = root.Find("monitor");
        Section m(file, "monitor", v ? *v : empty);
        cfg.monitor.enabled = m.Bool("enabled", v != nullptr);
        cfg.monitor.bin = m.TimeVal("bin", MicroSeconds(10));
        if (cfg.monitor.bin < NanoSeconds(1))
        {
            // PathMonitor's BinWidth attribute stops at 1 ns (finer bins
            // would hold no frame at any line rate).
            m.Fail("monitor.bin", "expected at least 1ns", *m.Find("bin"));
        }
        cfg.monitor.elephantBytes = m.Size("elephant", 1000000);
        m.Finish();
    }
    root.Finish();
    return cfg;
}

ScenarioConfig
LoadScenarioFile(const std::string& path, const std::vector<std::string>& sets)
{
    return ParseScenarioText(
        ReadInputFile<ScenarioError>(path, "scenario file", InputLimits::kScenarioBytes),
        sets,
        path);
}

std::string
ScenarioToJson(const ScenarioConfig& c)
{
    // Exact and readable: the largest unit that divides the value ("100Gbps",
    // "1us"), so the file reads back to the same bits and picoseconds.
    const auto rate = RateToText;
    const auto time = TimeToText;
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["seed"] = c.seed;
    j["stop"] = time(c.stop);
    j["stall_timeout"] = time(c.stallTimeout);
    j["fixed_length"] = c.fixedLength;
    j["pcap"] = c.pcap;
    const TopologyConfig& t = c.topology;
    auto link = [&](const LinkSpec& l) {
        return nlohmann::ordered_json{{"rate", rate(l.rate)}, {"delay", time(l.delay)}};
    };
    nlohmann::ordered_json topo;
    topo["type"] = t.type;
    if (t.type == "leaf-spine")
    {
        topo["leaves"] = t.leaves;
        topo["spines"] = t.spines;
        topo["hosts_per_leaf"] = t.hostsPerLeaf;
        topo["links_per_pair"] = t.linksPerPair;
        topo["host_link"] = link(t.hostLink);
        topo["fabric_link"] = link(t.fabricLink);
    }
    else if (t.type == "fat-tree")
    {
        topo["pods"] = t.pods;
        topo["edges_per_pod"] = t.edgesPerPod;
        topo["aggs_per_pod"] = t.aggsPerPod;
        topo["hosts_per_edge"] = t.hostsPerEdge;
        topo["cores_per_agg"] = t.coresPerAgg;
        topo["host_link"] = link(t.hostLink);
        topo["fabric_link"] = link(t.fabricLink);
    }
    else if (t.type == "torus")
    {
        topo["dims"] = t.dims;
        topo["wrap"] = t.wrap;
        topo["dim_links"] = nlohmann::ordered_json::array();
        for (const auto& l : t.dimLinks)
        {
            topo["dim_links"].push_back(link(l));
        }
        topo["host_link"] = link(t.hostLink);
    }
    else if (t.type == "rail-optimized")
    {
        topo["scale_units"] = t.scaleUnits;
        topo["servers"] = t.serversPerUnit;
        topo["nics_per_server"] = t.nicsPerServer;
        topo["spines"] = t.spines;
        topo["host_link"] = link(t.hostLink);
        topo["fabric_link"] = link(t.fabricLink);
        topo["nvlink"] = link(t.nvlink);
        topo["rail_routing"] = t.railRouting;
    }
    else
    {
        topo["path"] = t.file;
    }
    j["topology"] = topo;
    const SwitchConfig& s = c.sw;
    nlohmann::ordered_json sw;
    sw["buffer"] = s.bufferBytes;
    sw["pfc"] = s.pfc;
    sw["alpha"] = s.alpha;
    sw["reserved"] = s.reservedBytes;
    if (s.headroomBytes)
    {
        sw["headroom"] = *s.headroomBytes;
    }
    else
    {
        sw["headroom"] = "auto";
    }
    sw["allow_small_headroom"] = s.allowSmallHeadroom;
    sw["xon_offset"] = s.xonOffsetBytes;
    if (s.ecn.enabled)
    {
        sw["ecn"] = {{"kmin", s.ecn.kminBytes}, {"kmax", s.ecn.kmaxBytes}, {"pmax", s.ecn.pmax}};
    }
    else
    {
        sw["ecn"] = false;
    }
    sw["scheduler"] = s.scheduler;
    if (!s.wrrWeights.empty())
    {
        sw["wrr_weights"] = s.wrrWeights;
    }
    j["switch"] = sw;
    nlohmann::ordered_json nic;
    nic["mtu"] = c.nic.mtu;
    nic["cc"] = c.nic.cc;
    nic["cc_params"] = nlohmann::ordered_json::object();
    for (const auto& kv : c.nic.ccParams)
    {
        nic["cc_params"][kv.first] = kv.second;
    }
    nic["ack_interval"] = c.nic.ackInterval;
    nic["rto"] = time(c.nic.rto);
    nic["cnp_interval"] = time(c.nic.cnpInterval);
    j["nic"] = nic;
    nlohmann::ordered_json r;
    r["mode"] = c.routing.mode;
    r["hash"] = c.routing.hash;
    r["seed"] = c.routing.seed;
    r["pins"] = nlohmann::ordered_json::array();
    for (const auto& p : c.routing.pins)
    {
        nlohmann::ordered_json pj = {{"src", p.src}, {"dst", p.dst}, {"spine", p.spine}};
        if (p.srcPort)
        {
            pj["sport"] = *p.srcPort;
        }
        r["pins"].push_back(pj);
    }
    j["routing"] = r;
    nlohmann::ordered_json w;
    // Every workload form ends the document the same way.
    auto finish = [&](const nlohmann::ordered_json& workload) {
        j["workload"] = workload;
        json flows = json::array();
        for (const FlowSelector& s : c.trace.flows)
        {
            if (s.index >= 0)
            {
                flows.push_back(s.index);
                continue;
            }
            json o = json::object();
            for (const auto& [k, v] : {std::pair<const char*, int64_t>{"collective", s.collective},
                                       {"step", s.step},
                                       {"node", s.node},
                                       {"src", s.src}})
            {
                if (v >= 0)
                {
                    o[k] = v;
                }
            }
            flows.push_back(o);
        }
        j["trace"] = {{"flows", flows}, {"interval", time(c.trace.interval)}};
        j["monitor"] = {{"enabled", c.monitor.enabled},
                        {"bin", time(c.monitor.bin)},
                        {"elephant", c.monitor.elephantBytes}};
        return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
    };
    if (c.workload.type == "gossip")
    {
        const TraceWorkload& t = c.workload.trace;
        w["type"] = "gossip";
        w["steps"] = t.steps;
        w["bytes"] = t.bytes;
        w["compute"] = std::to_string(t.computeUs) + "us";
        w["partner"] = t.randomPartner ? "random" : "ring";
        w["delay_by_one"] = t.delayByOne;
        w["seed"] = t.seed;
        return finish(w);
    }
    if (c.workload.type == "chakra" || c.workload.type == "text")
    {
        const TraceWorkload& t = c.workload.trace;
        w["type"] = c.workload.type;
        w[c.workload.type == "chakra" ? "prefix" : "path"] = t.path;
        if (!t.commGroups.empty())
        {
            w["comm_groups"] = t.commGroups;
        }
        w["algorithms"] = nlohmann::ordered_json::object();
        for (const auto& kv : t.algorithms)
        {
            w["algorithms"][kv.first] = kv.second;
        }
        w["chunks"] = t.chunks;
        w["channels"] = t.channels;
        if (!t.dims.empty())
        {
            w["dims"] = t.dims;
        }
        if (!t.dimAlgorithms.empty())
        {
            w["dim_algorithms"] = t.dimAlgorithms;
        }
        return finish(w);
    }
    if (c.workload.type == "collective")
    {
        const CollectiveWorkload& cw = c.workload.collective;
        w["type"] = "collective";
        w["group"] = cw.group;
        w["iterations"] = cw.iterations;
        w["priority"] = cw.priority;
        w["phases"] = nlohmann::ordered_json::array();
        for (const CollectiveSpec& p : cw.phases)
        {
            nlohmann::ordered_json pj;
            pj["collective"] = p.type;
            pj["algorithm"] = p.algorithm;
            pj["bytes"] = p.bytes;
            pj["chunks"] = p.chunks;
            pj["channels"] = p.channels;
            if (!p.dims.empty())
            {
                pj["dims"] = p.dims;
            }
            if (!p.dimAlgorithms.empty())
            {
                pj["dim_algorithms"] = p.dimAlgorithms;
            }
            w["phases"].push_back(pj);
        }
        return finish(w);
    }
    // Generated patterns are written as the flows they expanded to.
    w["type"] = "flows";
    if (c.workload.type != "flows")
    {
        w["expanded_from"] = c.workload.type;
    }
    w["flows"] = nlohmann::ordered_json::array();
    for (const auto& f : c.workload.flows)
    {
        w["flows"].push_back({{"src", f.src},
                              {"dst", f.dst},
                              {"bytes", f.bytes},
                              {"start", time(f.start)},
                              {"priority", f.priority}});
    }
    return finish(w);
}

} // namespace ns3
