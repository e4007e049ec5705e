/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-config.h"

#include "collective-plan.h"
#include "topology-file-helper.h"

#include "ns3/fabric-topology.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace ns3
{

using json = nlohmann::json;

namespace
{

/// A number followed by a unit, e.g. "400Gbps", "1.5us", "16MB".
bool
SplitNumberUnit(const std::string& text, long double& value, std::string& unit)
{
    std::size_t i = 0;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    {
        ++i;
    }
    if (i == 0)
    {
        return false;
    }
    const std::string number = text.substr(0, i);
    if (std::count(number.begin(), number.end(), '.') > 1 || number == ".")
    {
        return false;
    }
    value = std::stold(number);
    std::size_t j = i;
    while (j < text.size() && text[j] == ' ')
    {
        ++j;
    }
    unit = text.substr(j);
    return true;
}

std::string
Quote(const std::string& s)
{
    return json(s).dump();
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
            Fail(path, "expected an object", j);
        }
    }

    [[noreturn]] void Fail(const std::string& key,
                           const std::string& expected,
                           const json& got) const
    {
        throw ScenarioError(m_file + ": " + key + ": " + expected + ", got " + Describe(got));
    }

    [[noreturn]] void Fail(const std::string& key, const std::string& message) const
    {
        throw ScenarioError(m_file + ": " + key + ": " + message);
    }

    static std::string Describe(const json& j)
    {
        std::string s = j.dump();
        if (s.size() > 60)
        {
            s = s.substr(0, 57) + "...";
        }
        return s;
    }

    std::string Key(const std::string& k) const
    {
        return m_path.empty() ? k : m_path + "." + k;
    }

    const json* Find(const std::string& k)
    {
        m_known.push_back(k);
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

    uint64_t Size(const std::string& k, uint64_t def, uint64_t min = 0)
    {
        const json* v = Find(k);
        if (!v)
        {
            return def;
        }
        return SizeOf(Key(k), *v, min);
    }

    uint64_t SizeOf(const std::string& key, const json& v, uint64_t min) const
    {
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
                std::string valid;
                for (const auto& k : m_known)
                {
                    valid += (valid.empty() ? "" : ", ") + k;
                }
                Fail(Key(it.key()), "unknown key (valid: " + valid + ")");
            }
        }
    }

    const std::string& File() const
    {
        return m_file;
    }

  private:
    std::string m_file;
    std::string m_path;
    const json& m_j;
    std::vector<std::string> m_known;
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
    if (h >= hosts)
    {
        s.Fail(key,
               "host " + std::to_string(h) + " does not exist (topology has " +
                   std::to_string(hosts) + " hosts, 0.." + std::to_string(hosts - 1) + ")");
    }
    return static_cast<uint32_t>(h);
}

/// splitmix64 (Steele, Lea & Flood 2014): a portable, seeded generator.
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
    wl.type =
        w.Str("type", "flows", {"flows", "all-to-all", "incast", "permutation", "collective"});
    auto common = [&](Section& s, FlowSpec& f, bool needBytes) {
        if (needBytes && !s.Find("bytes"))
        {
            s.Fail(s.Key("bytes"), "missing (the message size of each flow)");
        }
        f.bytes = s.Size("bytes", 0, 1);
        f.start = s.TimeVal("start", Time(0));
        f.priority = static_cast<uint8_t>(s.UInt("priority", 3, 0, 7));
    };
    if (wl.type == "flows")
    {
        const json* list = w.Find("flows");
        if (!list || !list->is_array())
        {
            w.Fail("workload.flows",
                   "expected an array of {src, dst, bytes, start, priority}",
                   list ? *list : json());
        }
        for (std::size_t i = 0; i < list->size(); ++i)
        {
            Section s(root.File(), "workload.flows[" + std::to_string(i) + "]", (*list)[i]);
            FlowSpec f;
            const json* src = s.Find("src");
            const json* dst = s.Find("dst");
            if (!src || !dst)
            {
                s.Fail(s.Key(src ? "dst" : "src"), "missing");
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
    }
    else if (wl.type == "all-to-all")
    {
        FlowSpec proto;
        std::vector<uint32_t> members;
        const json* hv = w.Find("hosts");
        if (!hv || (hv->is_string() && hv->get<std::string>() == "all"))
        {
            for (uint32_t h = 0; h < hosts; ++h)
            {
                members.push_back(h);
            }
        }
        else if (hv->is_array())
        {
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
            w.Fail("workload.receiver", "missing (the host all senders send to)");
        }
        uint32_t receiver = HostId(w, "workload.receiver", *rv, hosts);
        const json* sv = w.Find("senders");
        if (!sv || !sv->is_array() || sv->empty())
        {
            w.Fail("workload.senders",
                   "expected a non-empty array of host indices",
                   sv ? *sv : json());
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
                ps.Fail(ps.Key("bytes"), "missing (the collective's buffer size per rank)");
            }
            spec.bytes = ps.Size("bytes", 0, 1);
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
            // The plan checks the algorithm against the collective and the group.
            spec.ranks = static_cast<uint32_t>(c.group.size());
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
    else // permutation
    {
        FlowSpec proto;
        common(w, proto, true);
        const uint64_t seed = w.UInt("seed", cfg.seed);
        if (hosts < 2)
        {
            w.Fail("workload.type", "a permutation needs at least two hosts");
        }
        // Sattolo's algorithm: a uniformly random cyclic permutation, so no
        // host sends to itself and every host sends and receives exactly once.
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

/// Apply one `a.b.c=value` override to the document.
void
ApplySet(json& doc, const std::string& set, const std::string& file)
{
    const std::size_t eq = set.find('=');
    if (eq == std::string::npos || eq == 0)
    {
        throw ScenarioError(file + ": --set " + Quote(set) + ": expected key.path=value");
    }
    const std::string path = set.substr(0, eq);
    const std::string text = set.substr(eq + 1);
    json value = json::parse(text, nullptr, false);
    if (value.is_discarded())
    {
        value = text; // not JSON: a string
    }
    json* node = &doc;
    std::size_t pos = 0;
    std::string walked;
    while (true)
    {
        std::size_t dot = path.find('.', pos);
        std::string part =
            path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
        if (part.empty())
        {
            throw ScenarioError(file + ": --set " + Quote(set) + ": empty key in path");
        }
        walked += (walked.empty() ? "" : ".") + part;
        const bool last = (dot == std::string::npos);
        if (node->is_array())
        {
            if (!std::all_of(part.begin(), part.end(), ::isdigit))
            {
                throw ScenarioError(file + ": --set " + walked + ": expected an array index");
            }
            std::size_t idx = std::stoul(part);
            if (idx >= node->size())
            {
                throw ScenarioError(file + ": --set " + walked +
                                    ": index out of range (array has " +
                                    std::to_string(node->size()) + " elements)");
            }
            node = &(*node)[idx];
        }
        else
        {
            if (node->is_null())
            {
                *node = json::object();
            }
            if (!node->is_object())
            {
                throw ScenarioError(file + ": --set " + walked + ": parent is not an object");
            }
            node = &(*node)[part];
        }
        if (last)
        {
            *node = value;
            return;
        }
        pos = dot + 1;
    }
}

} // namespace

uint64_t
ParseByteSize(const std::string& text, const std::string& what)
{
    long double v;
    std::string unit;
    if (!SplitNumberUnit(text, v, unit))
    {
        throw ScenarioError(what + ": expected a size, got " + Quote(text));
    }
    static const std::pair<const char*, long double> kUnits[] = {{"", 1},
                                                                 {"B", 1},
                                                                 {"KB", 1e3},
                                                                 {"kB", 1e3},
                                                                 {"MB", 1e6},
                                                                 {"GB", 1e9},
                                                                 {"TB", 1e12},
                                                                 {"KiB", 1024.0},
                                                                 {"MiB", 1048576.0},
                                                                 {"GiB", 1073741824.0},
                                                                 {"TiB", 1099511627776.0}};
    for (const auto& u : kUnits)
    {
        if (unit == u.first)
        {
            long double bytes = v * u.second;
            if (bytes != std::floor(bytes) || bytes > 1.8e19L)
            {
                throw ScenarioError(what + ": not a whole number of bytes: " + Quote(text));
            }
            return static_cast<uint64_t>(bytes);
        }
    }
    throw ScenarioError(what + ": unknown size unit in " + Quote(text));
}

DataRate
ParseRate(const std::string& text, const std::string& what)
{
    long double v;
    std::string unit;
    if (!SplitNumberUnit(text, v, unit))
    {
        throw ScenarioError(what + ": expected a rate, got " + Quote(text));
    }
    static const std::pair<const char*, long double> kUnits[] = {{"bps", 1},
                                                                 {"b/s", 1},
                                                                 {"Kbps", 1e3},
                                                                 {"kbps", 1e3},
                                                                 {"Kb/s", 1e3},
                                                                 {"Mbps", 1e6},
                                                                 {"Mb/s", 1e6},
                                                                 {"Gbps", 1e9},
                                                                 {"Gb/s", 1e9},
                                                                 {"Tbps", 1e12},
                                                                 {"Tb/s", 1e12}};
    for (const auto& u : kUnits)
    {
        if (unit == u.first)
        {
            long double bps = std::round(v * u.second);
            if (bps <= 0 || bps > 1.8e19L)
            {
                throw ScenarioError(what + ": rate must be positive: " + Quote(text));
            }
            return DataRate(static_cast<uint64_t>(bps));
        }
    }
    throw ScenarioError(what + ": unknown rate unit in " + Quote(text));
}

Time
ParseTime(const std::string& text, const std::string& what)
{
    FabricTopology::EnsurePicosecondResolution();
    long double v;
    std::string unit;
    if (!SplitNumberUnit(text, v, unit))
    {
        throw ScenarioError(what + ": expected a time, got " + Quote(text));
    }
    static const std::pair<const char*, long double> kUnits[] = {{"s", 1e12},
                                                                 {"ms", 1e9},
                                                                 {"us", 1e6},
                                                                 {"ns", 1e3},
                                                                 {"ps", 1}};
    if (unit.empty() && v == 0)
    {
        return Time(0);
    }
    for (const auto& u : kUnits)
    {
        if (unit == u.first)
        {
            long double ps = std::round(v * u.second);
            if (ps > 9.2e18L)
            {
                throw ScenarioError(what + ": time too large: " + Quote(text));
            }
            return PicoSeconds(static_cast<int64_t>(ps));
        }
    }
    throw ScenarioError(what + ": unknown time unit in " + Quote(text));
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
        doc = json::parse(jsonText);
    }
    catch (const json::parse_error& e)
    {
        std::string msg = e.what();
        std::replace(msg.begin(), msg.end(), '\n', ' ');
        throw ScenarioError(file + ": invalid JSON: " + msg);
    }
    for (const auto& s : sets)
    {
        ApplySet(doc, s, file);
    }
    ScenarioConfig cfg;
    cfg.sourcePath = sourceName;
    Section root(file, "", doc);
    cfg.name = root.Str("name", "scenario", {});
    if (cfg.name.empty() || cfg.name.find('/') != std::string::npos || cfg.name == "." ||
        cfg.name == "..")
    {
        root.Fail("name", "expected a non-empty name without '/'", json(cfg.name));
    }
    cfg.seed = static_cast<uint32_t>(root.UInt("seed", 1, 0, UINT32_MAX));
    cfg.stop = root.TimeVal("stop", Seconds(1));
    if (!cfg.stop.IsStrictlyPositive())
    {
        root.Fail("stop", "expected a positive time", doc["stop"]);
    }
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
            tc.k = static_cast<uint32_t>(t.UInt("k", 0, 0, 256));
            const bool clos = t.Find("pods") != nullptr;
            if (tc.k != 0 && clos)
            {
                t.Fail("topology.k", "give either k or the Clos shape (pods, ...), not both");
            }
            if (tc.k == 0 && !clos)
            {
                tc.k = 4;
            }
            if (tc.k != 0)
            {
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
                       dv ? *dv : json());
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
                t.Fail("topology.path", "missing (the topology file to read)");
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
                sc.headroomBytes = s.SizeOf("switch.headroom", *h, 1);
            }
        }
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
                    es.Fail("switch.ecn.kmin", "kmin must not exceed kmax", (*e)["kmin"]);
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
    }
    // nic
    {
        const json empty = json::object();
        const json* v = root.Find("nic");
        Section n(file, "nic", v ? *v : empty);
        NicConfig& nc = cfg.nic;
        nc.mtu = static_cast<uint32_t>(n.UInt("mtu", 4096));
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
        rc.hash = r.Str("hash", "crc32", {"crc32", "mix64"});
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
                    ps.Fail(ps.Key(!src ? "src" : (!dst ? "dst" : "spine")), "missing");
                }
                pin.src = HostId(ps, ps.Key("src"), *src, hosts);
                pin.dst = HostId(ps, ps.Key("dst"), *dst, hosts);
                pin.spine = static_cast<uint32_t>(
                    ps.UIntOf(ps.Key("spine"), *spine, 0, cfg.topology.spines - 1));
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
                tr.Fail("trace.flows", "expected an array of flow indices", *fl);
            }
            for (std::size_t i = 0; i < fl->size(); ++i)
            {
                cfg.trace.flows.push_back(static_cast<uint32_t>(
                    tr.UIntOf("trace.flows[" + std::to_string(i) + "]",
                              (*fl)[i],
                              0,
                              cfg.workload.flows.empty() ? 0 : cfg.workload.flows.size() - 1)));
            }
            if (!fl->empty() && cfg.workload.flows.empty())
            {
                tr.Fail("trace.flows", "the workload has no flows");
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
        if (!cfg.monitor.bin.IsStrictlyPositive())
        {
            m.Fail("monitor.bin", "expected a positive time", json(0));
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
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        throw ScenarioError(path + ": cannot open the scenario file");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return ParseScenarioText(text.str(), sets, path);
}

std::string
ScenarioToJson(const ScenarioConfig& c)
{
    auto rate = [](const DataRate& r) { return std::to_string(r.GetBitRate()) + "bps"; };
    auto time = [](const Time& t) { return std::to_string(t.GetPicoSeconds()) + "ps"; };
    nlohmann::ordered_json j;
    j["name"] = c.name;
    j["seed"] = c.seed;
    j["stop"] = time(c.stop);
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
                pj["dim_algorithms"] = p.dimAlgorithms;
            }
            w["phases"].push_back(pj);
        }
        j["workload"] = w;
        j["trace"] = {{"flows", c.trace.flows}, {"interval", time(c.trace.interval)}};
        j["monitor"] = {{"enabled", c.monitor.enabled},
                        {"bin", time(c.monitor.bin)},
                        {"elephant", c.monitor.elephantBytes}};
        return j.dump(2) + "\n";
    }
    w["type"] = "flows";
    w["flows"] = nlohmann::ordered_json::array();
    for (const auto& f : c.workload.flows)
    {
        w["flows"].push_back({{"src", f.src},
                              {"dst", f.dst},
                              {"bytes", f.bytes},
                              {"start", time(f.start)},
                              {"priority", f.priority}});
    }
    j["workload"] = w;
    j["trace"] = {{"flows", c.trace.flows}, {"interval", time(c.trace.interval)}};
    j["monitor"] = {{"enabled", c.monitor.enabled},
                    {"bin", time(c.monitor.bin)},
                    {"elephant", c.monitor.elephantBytes}};
    return j.dump(2) + "\n";
}

} // namespace ns3
