/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-registry.h"

#include "fabric-topology-helper.h"

#include "ns3/abort.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-ops.h"

#include <algorithm>
#include <set>

namespace ns3
{

ScenarioTopology::~ScenarioTopology() = default;

std::vector<std::string>
ScenarioTopology::GetRoutingPolicies() const
{
    return {};
}

void
ScenarioTopology::InstallRouting(Ptr<FabricTopology> topo) const
{
}

uint64_t
ScenarioTopology::LinkCount() const
{
    return HostCount();
}

DataRate
ScenarioTopology::GetHostLinkRate() const
{
    return DataRate(0);
}

uint32_t
ScenarioTopology::GetPinSpines() const
{
    return 0;
}

uint32_t
ScenarioTopology::GetPinLeafOf(uint32_t host) const
{
    return 0;
}

uint32_t
ScenarioTopology::GetPinSpineSwitch(uint32_t spine) const
{
    NS_ABORT_MSG("ScenarioTopology: pins do not apply to this topology");
    return 0;
}

ScenarioWorkload::~ScenarioWorkload() = default;

bool
ScenarioWorkload::ExpandsToFlows() const
{
    return false;
}

bool
ScenarioWorkload::YieldsFlowsOnly() const
{
    return false;
}

ScenarioRoutingMode::~ScenarioRoutingMode() = default;

void
ScenarioRoutingMode::Check(const ScenarioConfig& cfg, ScenarioSection& r) const
{
}

void
ScenarioRoutingMode::Read(ScenarioSection& r, RoutingConfig& rc) const
{
}

void
ScenarioRoutingMode::Write(const RoutingConfig& rc, nlohmann::ordered_json& r) const
{
}

bool
ScenarioRoutingMode::TakesPins() const
{
    return false;
}

EcmpRouting::HashType
ScenarioHashType(const RoutingConfig& routing)
{
    return routing.hash == "mix64" ? EcmpRouting::MIX64 : EcmpRouting::CRC32;
}

bool
ScenarioCrcOffsets(const RoutingConfig& routing)
{
    return routing.hash != "crc32-plain";
}

uint64_t
CheckFlowCount(const ScenarioSection& s, const std::string& key, uint64_t flows)
{
    // 4 M flows of 32 bytes each: 128 MB of FlowSpec.
    constexpr uint64_t kMaxGeneratedFlows = 4000000;
    if (flows > kMaxGeneratedFlows)
    {
        s.Fail(key,
               "the pattern would generate " +
                   (flows == UINT64_MAX ? std::string("2^64 or more") : std::to_string(flows)) +
                   " flows (at most " + std::to_string(kMaxGeneratedFlows) + ")");
    }
    return flows;
}

std::vector<uint32_t>
ReadHostSet(ScenarioSection& s, const std::string& k, uint32_t hosts)
{
    std::vector<uint32_t> members;
    const nlohmann::json* v = s.Find(k);
    if (!v || (v->is_string() && v->get<std::string>() == "all"))
    {
        for (uint32_t h = 0; h < hosts; ++h)
        {
            members.push_back(h);
        }
        return members;
    }
    if (!v->is_array())
    {
        s.Fail(s.Key(k), "expected \"all\" or an array of host indices", *v);
    }
    std::set<uint32_t> seen;
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        const std::string key = s.Key(k) + "[" + std::to_string(i) + "]";
        const uint32_t h = s.HostId(key, (*v)[i], hosts);
        if (!seen.insert(h).second)
        {
            s.Fail(key, "host " + std::to_string(h) + " is listed twice");
        }
        members.push_back(h);
    }
    return members;
}

template <typename Family>
std::map<std::string, typename ScenarioRegistry<Family>::Factory>&
ScenarioRegistry<Family>::Map()
{
    // A function-local static: filled by registrars of any translation unit,
    // whatever the order of their static initialization.
    static std::map<std::string, Factory> map;
    return map;
}

template <typename Family>
void
ScenarioRegistry<Family>::Add(const std::string& name, Factory factory)
{
    NS_ABORT_MSG_UNLESS(Map().emplace(name, std::move(factory)).second,
                        "scenario registry: \"" << name << "\" is registered twice");
}

template <typename Family>
std::unique_ptr<Family>
ScenarioRegistry<Family>::Create(const std::string& name)
{
    auto it = Map().find(name);
    return it == Map().end() ? nullptr : it->second();
}

template <typename Family>
std::vector<std::string>
ScenarioRegistry<Family>::Names(const std::string& first)
{
    std::vector<std::string> names;
    if (Map().count(first))
    {
        names.push_back(first);
    }
    for (const auto& kv : Map()) // sorted: std::map
    {
        if (kv.first != first)
        {
            names.push_back(kv.first);
        }
    }
    return names;
}

template class ScenarioRegistry<ScenarioTopology>;
template class ScenarioRegistry<ScenarioWorkload>;
template class ScenarioRegistry<ScenarioRoutingMode>;

namespace
{

/// Every congestion control ns-3 knows of now: name -> TypeId, sorted by name.
std::map<std::string, TypeId>
ScanCongestionControls()
{
    // Scanned at each call, not cached: a library loaded later (dlopen) may
    // register more. A few hundred TypeIds; read once per scenario.
    std::map<std::string, TypeId> found;
    const TypeId base = RdmaCongestionOps::GetTypeId();
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        const TypeId tid = TypeId::GetRegistered(i);
        if (!tid.IsChildOf(base) || !tid.HasConstructor())
        {
            continue;
        }
        ObjectFactory factory;
        factory.SetTypeId(tid);
        const std::string name = factory.Create<RdmaCongestionOps>()->GetName();
        auto [it, added] = found.emplace(name, tid);
        NS_ABORT_MSG_UNLESS(added,
                            "congestion controls " << it->second.GetName() << " and "
                                                   << tid.GetName() << " are both named \"" << name
                                                   << "\"");
    }
    return found;
}

} // namespace

bool
FindCongestionControl(const std::string& name, TypeId* tid)
{
    const auto found = ScanCongestionControls();
    auto it = found.find(name);
    if (it == found.end())
    {
        return false;
    }
    *tid = it->second;
    return true;
}

std::vector<std::string>
CongestionControlNames()
{
    std::vector<std::string> names{"none"};
    for (const auto& kv : ScanCongestionControls())
    {
        if (kv.first != "none")
        {
            names.push_back(kv.first);
        }
    }
    return names;
}

} // namespace ns3
