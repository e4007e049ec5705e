/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' `topology` of type "rail-optimized" (RailOptimizedHelper).
 */
#include "rail-optimized-helper.h"
#include "scenario-registry.h"

namespace ns3
{

namespace
{

/**
 * `scale_units`, `servers`, `nics_per_server`, `spines`, `host_link` (NIC to
 * rail leaf), `fabric_link` (rail leaf to spine), `nvlink` (GPU to server
 * switch), `rail_routing` (keep each GPU's traffic on its own rail).
 */
class RailOptimizedTopology : public ScenarioTopology
{
  public:
    void Read(ScenarioSection& t) override
    {
        m_scaleUnits = static_cast<uint32_t>(t.UInt("scale_units", 1, 1, 1024));
        m_serversPerUnit = static_cast<uint32_t>(t.UInt("servers", 4, 1, 4096));
        m_nicsPerServer = static_cast<uint32_t>(t.UInt("nics_per_server", 8, 1, 64));
        m_spines = static_cast<uint32_t>(t.UInt("spines", 2, 0, 4096));
        if (m_scaleUnits > 1 && m_spines == 0)
        {
            t.Fail("topology.spines", "several scale units need at least one spine");
        }
        const LinkSpec nic{DataRate("400Gbps"), MicroSeconds(1)};
        m_hostLink = t.Link("host_link", nic);
        m_fabricLink = t.Link("fabric_link", nic);
        m_nvlink = t.Link("nvlink", LinkSpec{DataRate("3600Gbps"), NanoSeconds(100)});
        m_railRouting = t.Bool("rail_routing", true);
    }

    void Write(nlohmann::ordered_json& j) const override
    {
        j["scale_units"] = m_scaleUnits;
        j["servers"] = m_serversPerUnit;
        j["nics_per_server"] = m_nicsPerServer;
        j["spines"] = m_spines;
        j["host_link"] = LinkToJson(m_hostLink);
        j["fabric_link"] = LinkToJson(m_fabricLink);
        j["nvlink"] = LinkToJson(m_nvlink);
        j["rail_routing"] = m_railRouting;
    }

    uint32_t HostCount() const override
    {
        return m_scaleUnits * m_serversPerUnit * m_nicsPerServer;
    }

    uint64_t LinkCount() const override
    {
        // Per GPU its NVLink to the server switch and the server's NIC link
        // to its rail leaf; every rail leaf to every spine.
        return 2 * uint64_t{HostCount()} + uint64_t{m_scaleUnits} * m_nicsPerServer * m_spines;
    }

    DataRate GetHostLinkRate() const override
    {
        return m_hostLink.rate;
    }

    std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const override
    {
        auto h = std::make_unique<RailOptimizedHelper>();
        h->SetShape(m_scaleUnits, m_serversPerUnit, m_nicsPerServer, m_spines);
        h->SetHostLink(m_hostLink.rate, m_hostLink.delay);
        h->SetFabricLink(m_fabricLink.rate, m_fabricLink.delay);
        h->SetIntraServerLink(m_nvlink.rate, m_nvlink.delay);
        return h;
    }

    std::vector<std::string> GetRoutingPolicies() const override
    {
        return {"rail"};
    }

    void InstallRouting(Ptr<FabricTopology> topo) const override
    {
        if (m_railRouting)
        {
            FindTopologyRouting(topo, "rail")->Install(topo);
        }
    }

  private:
    uint32_t m_scaleUnits{1};
    uint32_t m_serversPerUnit{4};
    uint32_t m_nicsPerServer{8};
    uint32_t m_spines{2};
    LinkSpec m_hostLink;
    LinkSpec m_fabricLink;
    LinkSpec m_nvlink;
    bool m_railRouting{true};
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioTopology, RailOptimizedTopology, "rail-optimized");

} // namespace ns3
