/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' `topology` of type "leaf-spine" (LeafSpineHelper).
 */
#include "leaf-spine-helper.h"
#include "scenario-registry.h"

namespace ns3
{

namespace
{

/// `leaves`, `spines`, `hosts_per_leaf`, `links_per_pair`, `host_link`, `fabric_link`.
class LeafSpineTopology : public ScenarioTopology
{
  public:
    void Read(ScenarioSection& t) override
    {
        const LinkSpec def{DataRate("100Gbps"), MicroSeconds(1)};
        m_leaves = static_cast<uint32_t>(t.UInt("leaves", 2, 1, 4096));
        m_spines = static_cast<uint32_t>(t.UInt("spines", 2, 1, 4096));
        m_hostsPerLeaf = static_cast<uint32_t>(t.UInt("hosts_per_leaf", 4, 1, 4096));
        m_linksPerPair = static_cast<uint32_t>(t.UInt("links_per_pair", 1, 1, 64));
        m_hostLink = t.Link("host_link", def);
        m_fabricLink = t.Link("fabric_link", def);
    }

    void Write(nlohmann::ordered_json& j) const override
    {
        j["leaves"] = m_leaves;
        j["spines"] = m_spines;
        j["hosts_per_leaf"] = m_hostsPerLeaf;
        j["links_per_pair"] = m_linksPerPair;
        j["host_link"] = LinkToJson(m_hostLink);
        j["fabric_link"] = LinkToJson(m_fabricLink);
    }

    uint32_t HostCount() const override
    {
        return m_leaves * m_hostsPerLeaf;
    }

    uint64_t LinkCount() const override
    {
        return uint64_t{HostCount()} + uint64_t{m_leaves} * m_spines * m_linksPerPair;
    }

    DataRate GetHostLinkRate() const override
    {
        return m_hostLink.rate;
    }

    std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const override
    {
        auto h = std::make_unique<LeafSpineHelper>();
        h->SetShape(m_leaves, m_spines, m_hostsPerLeaf, m_linksPerPair);
        h->SetHostLink(m_hostLink.rate, m_hostLink.delay);
        h->SetFabricLink(m_fabricLink.rate, m_fabricLink.delay);
        return h;
    }

    uint32_t GetPinSpines() const override
    {
        return m_spines;
    }

    uint32_t GetPinLeafOf(uint32_t host) const override
    {
        return host / m_hostsPerLeaf;
    }

    uint32_t GetPinSpineSwitch(uint32_t spine) const override
    {
        // LeafSpineHelper's numbering: leaves first, then spines.
        return m_leaves + spine;
    }

  private:
    uint32_t m_leaves{2};
    uint32_t m_spines{2};
    uint32_t m_hostsPerLeaf{4};
    uint32_t m_linksPerPair{1};
    LinkSpec m_hostLink;
    LinkSpec m_fabricLink;
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioTopology, LeafSpineTopology, "leaf-spine");

} // namespace ns3
