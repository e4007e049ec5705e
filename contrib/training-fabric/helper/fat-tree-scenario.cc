/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' `topology` of type "fat-tree" (FatTreeHelper).
 */
#include "fat-tree-helper.h"
#include "scenario-registry.h"

namespace ns3
{

namespace
{

/**
 * Either `k` (a k-ary fat-tree, default 4) or the three-tier Clos shape
 * (`pods`, `edges_per_pod`, `aggs_per_pod`, `hosts_per_edge`,
 * `cores_per_agg`); then `host_link`, `fabric_link`. scenario.json writes the
 * Clos shape.
 */
class FatTreeTopology : public ScenarioTopology
{
  public:
    void Read(ScenarioSection& t) override
    {
        const LinkSpec def{DataRate("100Gbps"), MicroSeconds(1)};
        const bool clos = t.Find("pods") != nullptr;
        if (t.Find("k") && clos)
        {
            t.Fail("topology.k", "give either k or the Clos shape (pods, ...), not both");
        }
        if (!clos)
        {
            // k: 0 is an error like any other odd or small k, never the default.
            const uint32_t k = static_cast<uint32_t>(t.UInt("k", 4, 0, 256));
            if (k % 2 != 0 || k < 2)
            {
                t.Fail("topology.k", "expected an even number of at least 2", nlohmann::json(k));
            }
            m_pods = k;
            m_edgesPerPod = m_aggsPerPod = m_hostsPerEdge = m_coresPerAgg = k / 2;
        }
        else
        {
            m_pods = static_cast<uint32_t>(t.UInt("pods", 4, 1, 1024));
            m_edgesPerPod = static_cast<uint32_t>(t.UInt("edges_per_pod", 2, 1, 1024));
            m_aggsPerPod = static_cast<uint32_t>(t.UInt("aggs_per_pod", 2, 1, 1024));
            m_hostsPerEdge = static_cast<uint32_t>(t.UInt("hosts_per_edge", 2, 1, 1024));
            m_coresPerAgg = static_cast<uint32_t>(t.UInt("cores_per_agg", 2, 1, 1024));
        }
        m_hostLink = t.Link("host_link", def);
        m_fabricLink = t.Link("fabric_link", def);
    }

    void Write(nlohmann::ordered_json& j) const override
    {
        j["pods"] = m_pods;
        j["edges_per_pod"] = m_edgesPerPod;
        j["aggs_per_pod"] = m_aggsPerPod;
        j["hosts_per_edge"] = m_hostsPerEdge;
        j["cores_per_agg"] = m_coresPerAgg;
        j["host_link"] = LinkToJson(m_hostLink);
        j["fabric_link"] = LinkToJson(m_fabricLink);
    }

    uint32_t HostCount() const override
    {
        return m_pods * m_edgesPerPod * m_hostsPerEdge;
    }

    uint64_t LinkCount() const override
    {
        // Hosts, edge-aggregation (every edge to every aggregation of its
        // pod), aggregation-core (each aggregation to its cores_per_agg).
        return uint64_t{HostCount()} + uint64_t{m_pods} * m_edgesPerPod * m_aggsPerPod +
               uint64_t{m_pods} * m_aggsPerPod * m_coresPerAgg;
    }

    DataRate GetHostLinkRate() const override
    {
        return m_hostLink.rate;
    }

    std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const override
    {
        auto h = std::make_unique<FatTreeHelper>();
        h->SetClos(m_pods, m_edgesPerPod, m_aggsPerPod, m_hostsPerEdge, m_coresPerAgg);
        h->SetHostLink(m_hostLink.rate, m_hostLink.delay);
        h->SetFabricLink(m_fabricLink.rate, m_fabricLink.delay);
        return h;
    }

  private:
    uint32_t m_pods{0};
    uint32_t m_edgesPerPod{0};
    uint32_t m_aggsPerPod{0};
    uint32_t m_hostsPerEdge{0};
    uint32_t m_coresPerAgg{0};
    LinkSpec m_hostLink;
    LinkSpec m_fabricLink;
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioTopology, FatTreeTopology, "fat-tree");

} // namespace ns3
