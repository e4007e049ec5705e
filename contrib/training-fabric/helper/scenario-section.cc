/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-section.h"

#include "input-file.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace ns3
{

using json = nlohmann::json;

namespace
{
/// What the text forms of sizes, rates and times allow (scenario-units.h).
const std::string kNumberForm = "(no sign, no exponent)";
} // namespace

ScenarioSection::ScenarioSection(const std::string& file, const std::string& path, const json& j)
    : m_file(file),
      m_path(path),
      m_j(j)
{
    if (!j.is_object())
    {
        Fail(path.empty() ? "(top level)" : path, "expected an object", j);
    }
}

void
ScenarioSection::Fail(const std::string& key, const std::string& expected, const json& got) const
{
    throw ScenarioError(m_file + ": " + key + ": " + expected + ", got " + Describe(got));
}

void
ScenarioSection::Fail(const std::string& key, const std::string& message) const
{
    throw ScenarioError(m_file + ": " + key + ": " + message);
}

std::string
ScenarioSection::Describe(const json& j)
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

void
ScenarioSection::Expect(const std::vector<std::string>& keys)
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

std::string
ScenarioSection::Key(const std::string& k) const
{
    return m_path.empty() ? k : m_path + "." + k;
}

const ScenarioSection::json*
ScenarioSection::Find(const std::string& k)
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

uint64_t
ScenarioSection::UInt(const std::string& k, uint64_t def, uint64_t min, uint64_t max)
{
    const json* v = Find(k);
    if (!v)
    {
        return def;
    }
    return UIntOf(Key(k), *v, min, max);
}

uint64_t
ScenarioSection::UIntOf(const std::string& key, const json& v, uint64_t min, uint64_t max) const
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

double
ScenarioSection::Num(const std::string& k, double def, double min, double max)
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

bool
ScenarioSection::Bool(const std::string& k, bool def)
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

std::string
ScenarioSection::Str(const std::string& k,
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

uint64_t
ScenarioSection::Size(const std::string& k, uint64_t def, uint64_t min, uint64_t max)
{
    const json* v = Find(k);
    if (!v)
    {
        return def;
    }
    return SizeOf(Key(k), *v, min, max);
}

uint64_t
ScenarioSection::SizeOf(const std::string& key, const json& v, uint64_t min, uint64_t max) const
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
        catch (const ScenarioValueTooLarge&)
        {
            Fail(key, most, v);
        }
        catch (const ScenarioError&)
        {
            Fail(key, "expected a size such as 4096, \"64KB\" or \"16MiB\" " + kNumberForm, v);
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

DataRate
ScenarioSection::Rate(const std::string& k, DataRate def)
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
        Fail(Key(k), "expected a positive data rate such as \"100Gbps\" " + kNumberForm, *v);
    }
}

DataRate
ScenarioSection::LinkRate(const std::string& k, DataRate def)
{
    const DataRate r = Rate(k, def);
    const std::string tooFast = CheckLinkRate(r);
    if (!tooFast.empty())
    {
        Fail(Key(k), tooFast, *Find(k));
    }
    return r;
}

Time
ScenarioSection::TimeOf(const std::string& key, const json& v) const
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
    catch (const ScenarioValueTooLarge&)
    {
        Fail(key,
             "expected a time of at most " + std::string(ScenarioLimits::kMaxTimeText) +
                 " (11.6 days: sums of times must stay inside the simulator's 2^63 ps "
                 "clock)",
             v);
    }
    catch (const ScenarioError&)
    {
        // ("1e-30s" was told "non-negative", as if its sign were wrong.)
        Fail(key, "expected a non-negative time such as \"1us\" or \"10ms\" " + kNumberForm, v);
    }
}

Time
ScenarioSection::TimeVal(const std::string& k, Time def)
{
    const json* v = Find(k);
    return v ? TimeOf(Key(k), *v) : def;
}

void
ScenarioSection::Finish() const
{
    for (auto it = m_j.begin(); it != m_j.end(); ++it)
    {
        if (std::find(m_known.begin(), m_known.end(), it.key()) == m_known.end())
        {
            Fail(Key(it.key()), "unknown key (valid: " + Join(m_known) + ")");
        }
    }
}

const std::string&
ScenarioSection::File() const
{
    return m_file;
}

std::string
ScenarioSection::Join(const std::vector<std::string>& keys)
{
    std::string out;
    for (const auto& k : keys)
    {
        out += (out.empty() ? "" : ", ") + k;
    }
    return out;
}

ScenarioSection::json
ScenarioSection::Nothing()
{
    return json(json::value_t::discarded);
}

std::string
ScenarioSection::Dump(const json& j)
{
    return j.dump(-1, ' ', true, json::error_handler_t::replace);
}

LinkSpec
ScenarioSection::Link(const std::string& k, const LinkSpec& def)
{
    const json* v = Find(k);
    if (!v)
    {
        return def;
    }
    ScenarioSection s(m_file, Key(k), *v);
    LinkSpec l;
    l.rate = s.LinkRate("rate", def.rate);
    l.delay = s.TimeVal("delay", def.delay);
    s.Finish();
    return l;
}

uint32_t
ScenarioSection::HostId(const std::string& key, const json& v, uint32_t hosts) const
{
    if (!v.is_number_integer() || v.get<int64_t>() < 0)
    {
        Fail(key, "expected a host index", v);
    }
    uint64_t h = v.get<uint64_t>();
    if (hosts == 0)
    {
        Fail(key, "host " + std::to_string(h) + " does not exist (the topology has no hosts)");
    }
    if (h >= hosts)
    {
        Fail(key,
             "host " + std::to_string(h) + " does not exist (topology has " +
                 std::to_string(hosts) + " hosts, 0.." + std::to_string(hosts - 1) + ")");
    }
    return static_cast<uint32_t>(h);
}

nlohmann::ordered_json
LinkToJson(const LinkSpec& l)
{
    return nlohmann::ordered_json{{"rate", RateToText(l.rate)}, {"delay", TimeToText(l.delay)}};
}

namespace
{

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
                throw ScenarioError(m_file + ": " + Path(2) + ": nested deeper than " +
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
                throw ScenarioError(m_file + ": " + Path() + ": key given twice in one object");
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

} // namespace

json
ParseStrictJson(const std::string& text, const std::string& file, const std::string& base)
{
    DuplicateKeyCheck check(file, base);
    return json::parse(text, [&check](int depth, json::parse_event_t event, json& parsed) {
        return check(depth, event, parsed);
    });
}

} // namespace ns3
