/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The typed section validator every scenario reader uses: one JSON object,
 * its keys declared, each value read as a typed, bounded value, and every
 * problem a ScenarioError of one line:
 *   <file>: <key.path>: <what was expected>, got <what was found>
 * e.g. `x.json: topology.host_link.rate: expected a positive data rate such as
 * "100Gbps", got "fast"`.
 */
#ifndef SCENARIO_SECTION_H
#define SCENARIO_SECTION_H

#include "scenario-units.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ns3
{

/// Rate and one-way delay of a link.
struct LinkSpec
{
    DataRate rate;
    Time delay;
};

/**
 * \ingroup training-fabric
 * \brief Reads one JSON object of a scenario, remembering the keys asked for.
 *
 * Keys a reader may read are declared with Expect() (any other is rejected at
 * once) or collected as they are read (Finish() then rejects the rest).
 */
class ScenarioSection
{
  public:
    using json = nlohmann::json;

    /// \p j must be an object; \p path is its key path ("" for the top level).
    ScenarioSection(const std::string& file, const std::string& path, const json& j);

    /// Throw "<file>: <key>: <expected>, got <got>".
    [[noreturn]] void Fail(const std::string& key,
                           const std::string& expected,
                           const json& got) const;
    /// Throw "<file>: <key>: <message>".
    [[noreturn]] void Fail(const std::string& key, const std::string& message) const;

    /// \p j for an error message: compact JSON, at most 60 characters.
    static std::string Describe(const json& j);
    /// Stands for a required key that is absent, in "expected ..., got nothing".
    static json Nothing();
    /// \p j as compact JSON, ASCII only (invalid UTF-8 replaced, never a throw).
    static std::string Dump(const json& j);

    /**
     * Declare every key this object may hold and reject any other now, before
     * the values are read (so a misspelled section is reported as such, not
     * as the consequences of its defaults). Find() then insists on the list.
     */
    void Expect(const std::vector<std::string>& keys);
    /// The full key path of key \p k of this object.
    std::string Key(const std::string& k) const;
    /// The value of key \p k, or null when absent (\p k counts as known).
    const json* Find(const std::string& k);

    uint64_t UInt(const std::string& k, uint64_t def, uint64_t min = 0, uint64_t max = UINT64_MAX);
    uint64_t UIntOf(const std::string& key, const json& v, uint64_t min, uint64_t max) const;
    double Num(const std::string& k, double def, double min, double max);
    bool Bool(const std::string& k, bool def);
    /// A string; one of \p allowed unless it is empty.
    std::string Str(const std::string& k,
                    const std::string& def,
                    const std::vector<std::string>& allowed);
    uint64_t Size(const std::string& k, uint64_t def, uint64_t min = 0, uint64_t max = UINT64_MAX);
    uint64_t SizeOf(const std::string& key,
                    const json& v,
                    uint64_t min,
                    uint64_t max = UINT64_MAX) const;
    DataRate Rate(const std::string& k, DataRate def);
    /// A link's (a port's line) rate: Rate, at most ScenarioLimits::kMaxLinkRateBps.
    DataRate LinkRate(const std::string& k, DataRate def);
    Time TimeOf(const std::string& key, const json& v) const;
    Time TimeVal(const std::string& k, Time def);
    /// An optional {rate, delay} object.
    LinkSpec Link(const std::string& k, const LinkSpec& def);
    /// A host index below \p hosts, with an error naming the topology's size.
    uint32_t HostId(const std::string& key, const json& v, uint32_t hosts) const;

    /// Reject keys nobody asked for.
    void Finish() const;

    const std::string& File() const;

    /// \p keys joined by ", ".
    static std::string Join(const std::vector<std::string>& keys);

  private:
    std::string m_file;
    std::string m_path;
    const json& m_j;
    std::vector<std::string> m_known;    //!< keys asked for, in order
    std::vector<std::string> m_declared; //!< Expect()'s list (empty: none declared)
};

/// A link as a scenario writes it: {"rate": "100Gbps", "delay": "1us"}.
nlohmann::ordered_json LinkToJson(const LinkSpec& l);

/**
 * Parse \p text strictly: an object key given twice in one object (which
 * nlohmann::json would silently keep the last of) and nesting deeper than
 * InputLimits::kJsonDepth are ScenarioErrors naming \p file and the key path
 * under \p base; bad syntax is nlohmann's parse_error.
 */
nlohmann::json ParseStrictJson(const std::string& text,
                               const std::string& file,
                               const std::string& base);

} // namespace ns3

#endif /* SCENARIO_SECTION_H */
