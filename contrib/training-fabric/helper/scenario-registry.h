/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The extension points of scenario files. A topology, workload or routing
 * mode is one class registered under its scenario `type` (or `mode`) name by
 * a static registrar in its own .cc file, in the manner of ns-3's
 * NS_OBJECT_ENSURE_REGISTERED:
 *
 * \code
 *   class StarTopology : public ScenarioTopology { ... };
 *   TF_SCENARIO_REGISTER(ScenarioTopology, StarTopology, "star");
 * \endcode
 *
 * Loading the object file that holds it (linking it in, or dlopen) is all it
 * takes: the scenario reader, `--set`, the "valid: ..." lists of error
 * messages and scenario.json find it by name. Congestion controls need no
 * registrar: they are found among ns-3's registered TypeIds (subclasses of
 * RdmaCongestionOps, by the GetName() of an instance).
 */
#ifndef SCENARIO_REGISTRY_H
#define SCENARIO_REGISTRY_H

#include "scenario-config.h"
#include "scenario-section.h"

#include "ns3/fabric-routing.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FabricTopology;
class FabricTopologyHelper;

/**
 * \ingroup training-fabric
 * \brief One topology type of the `topology` section: reads and writes its
 * keys, counts its hosts and sets up the helper that builds it.
 */
class ScenarioTopology
{
  public:
    virtual ~ScenarioTopology();

    /**
     * Read this type's keys of \p s (the `topology` object; "type" is read).
     * Errors via \p s.Fail. Unknown keys are rejected after, by the reader.
     */
    virtual void Read(ScenarioSection& s) = 0;
    /// Write the resolved keys, after "type", as scenario.json holds them.
    virtual void Write(nlohmann::ordered_json& j) const = 0;
    /// \return the number of hosts the topology will have
    virtual uint32_t HostCount() const = 0;
    /// \return the number of links (host and switch links) it will have,
    /// checked against ScenarioLimits::kMaxLinks before anything is built.
    /// Default: HostCount(), each host's own link (a type with switch links
    /// says how many).
    virtual uint64_t LinkCount() const;
    /**
     * \return a helper set up with the shape and links read, ready for
     * attributes and Install(). Throws ScenarioError (\p file names the
     * scenario in the message).
     */
    virtual std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const = 0;
    /**
     * \return the names of the TopologyRouting policies the helper aggregates
     * to the fabric it builds (routing modes such as "dor" check for theirs)
     */
    virtual std::vector<std::string> GetRoutingPolicies() const;
    /// Install this topology's own routing after the routing mode's (default: nothing).
    virtual void InstallRouting(Ptr<FabricTopology> topo) const;
    /**
     * \return the rate of every host's link, which a generator's `load`
     * refers to; zero (the default) when the hosts' links differ or the rate
     * is not known before the fabric is built
     */
    virtual DataRate GetHostLinkRate() const;

    /**
     * Static pins (`routing.pins`) route a host pair through a spine.
     * \return the number of spines a pin may name (0: pins do not apply)
     */
    virtual uint32_t GetPinSpines() const;
    /// \return the leaf (first-hop switch group) of \p host, for pins
    virtual uint32_t GetPinLeafOf(uint32_t host) const;
    /// \return the switch index of spine \p spine, for pins
    virtual uint32_t GetPinSpineSwitch(uint32_t spine) const;
};

/// What a workload reader may need of the rest of the scenario.
struct ScenarioWorkloadContext
{
    std::string file;      //!< the scenario, for errors
    uint32_t hosts;        //!< hosts of the topology
    Time stop;             //!< flows must start before it
    uint32_t seed;         //!< generators' default seed (a background's: BackgroundSeed)
    DataRate hostLinkRate; //!< ScenarioTopology::GetHostLinkRate() (zero: not known)
};

/**
 * The default seed of a background's generators for scenario seed \p seed:
 * \p seed XOR 0x9E3779B9 (2^32 / golden ratio), so that a background and a
 * workload of the same random type, both without a seed, draw independent
 * flows rather than the same ones twice. A seed given to either is used as
 * given.
 */
inline uint32_t
BackgroundSeed(uint32_t seed)
{
    return seed ^ 0x9E3779B9u;
}

/**
 * \ingroup training-fabric
 * \brief One workload type of the `workload` section: reads its keys into
 * the WorkloadConfig the runner drives (explicit flows, a collective, or
 * per-rank execution traces) and writes them back.
 */
class ScenarioWorkload
{
  public:
    virtual ~ScenarioWorkload();

    /// Read this type's keys of \p w (the `workload` object) into \p out.
    virtual void Read(ScenarioSection& w,
                      const ScenarioWorkloadContext& ctx,
                      WorkloadConfig& out) const = 0;
    /// Write \p in back (\p w holds nothing yet).
    virtual void Write(const WorkloadConfig& in, nlohmann::ordered_json& w) const = 0;
    /**
     * \return whether this type is a pattern expanded into flows: scenario.json
     * then writes it as type "flows" with "expanded_from" naming it.
     */
    virtual bool ExpandsToFlows() const;
    /**
     * \return whether this type yields flows only (WorkloadConfig::flows, no
     * collective or trace): such a type may also be a scenario's `background`
     */
    virtual bool YieldsFlowsOnly() const;
};

/**
 * \ingroup training-fabric
 * \brief One `routing.mode`: checks it fits the scenario, and installs
 * itself on the built fabric (the switches' FabricRouting objects).
 */
class ScenarioRoutingMode
{
  public:
    virtual ~ScenarioRoutingMode();

    /// Check the mode fits \p cfg (its topology); errors via \p r.Fail.
    virtual void Check(const ScenarioConfig& cfg, ScenarioSection& r) const;
    /// Read this mode's own `routing` keys into \p rc (default: none).
    virtual void Read(ScenarioSection& r, RoutingConfig& rc) const;
    /// Write this mode's own keys back, as scenario.json holds them (default: none).
    virtual void Write(const RoutingConfig& rc, nlohmann::ordered_json& r) const;
    /// \return whether `routing.pins` apply to this mode
    virtual bool TakesPins() const;
    /// Install on \p topo; throws std::invalid_argument on an impossible pin.
    virtual void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const = 0;
};

/**
 * \ingroup training-fabric
 * \brief Name -> factory of one family (ScenarioTopology, ScenarioWorkload,
 * ScenarioRoutingMode). Filled by TF_SCENARIO_REGISTER before main().
 */
template <typename Family>
class ScenarioRegistry
{
  public:
    using Factory = std::function<std::unique_ptr<Family>()>;

    /// Register \p name; a name registered twice is a programming error (abort).
    static void Add(const std::string& name, Factory factory);
    /// \return a new member named \p name, or null when none is registered
    static std::unique_ptr<Family> Create(const std::string& name);
    /// \return every name: \p first (the default) first, the others sorted
    static std::vector<std::string> Names(const std::string& first);

  private:
    static std::map<std::string, Factory>& Map();
};

/// Registers \p Member under \p name at static-initialization time.
template <typename Family, typename Member>
struct ScenarioRegistrar
{
    explicit ScenarioRegistrar(const char* name)
    {
        ScenarioRegistry<Family>::Add(name, []() { return std::make_unique<Member>(); });
    }
};

/// Register class \p Member of \p Family (ScenarioTopology, ...) under \p name.
#define TF_SCENARIO_REGISTER(Family, Member, name)                                                 \
    static const ns3::ScenarioRegistrar<Family, Member> g_tfScenarioRegistrar##Member(name)

extern template class ScenarioRegistry<ScenarioTopology>;
extern template class ScenarioRegistry<ScenarioWorkload>;
extern template class ScenarioRegistry<ScenarioRoutingMode>;

/// The ECMP hash `routing.hash` names.
EcmpRouting::HashType ScenarioHashType(const RoutingConfig& routing);
/// Whether the CRC32 hash gets per-switch offsets (all but `crc32-plain`).
bool ScenarioCrcOffsets(const RoutingConfig& routing);

/**
 * \return the flow count of a generated pattern, or a ScenarioError (via \p s)
 * when it exceeds 4 M flows (128 MB of FlowSpec, far beyond a packet-level run)
 */
uint64_t CheckFlowCount(const ScenarioSection& s, const std::string& key, uint64_t flows);

/**
 * Key \p k of \p s: "all" (also when absent: every host of \p hosts, in
 * order) or an array of distinct host indices, in the order given. Errors
 * name the key (and the element).
 */
std::vector<uint32_t> ReadHostSet(ScenarioSection& s, const std::string& k, uint32_t hosts);

/**
 * The congestion control named \p name: the registered TypeId, subclass of
 * RdmaCongestionOps with a constructor, whose instances' GetName() is \p name.
 * \return false when there is none
 */
bool FindCongestionControl(const std::string& name, TypeId* tid);
/// Every congestion control's name: "none" first, the others sorted.
std::vector<std::string> CongestionControlNames();

} // namespace ns3

#endif /* SCENARIO_REGISTRY_H */
