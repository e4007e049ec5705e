/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An extension written outside the module (test/extension/run.py compiles it
 * in a scratch directory): a one-switch "star" topology, its helper and its
 * scenario section, registered under topology.type "star".
 */
#include "ns3/fabric-topology-helper.h"
#include "ns3/scenario-registry.h"

namespace ns3
{

/// Every host on one switch.
class StarHelper : public FabricTopologyHelper
{
  public:
    StarHelper()
        : FabricTopologyHelper(DataRate("100Gbps"),
                               MicroSeconds(1),
                               DataRate("100Gbps"),
                               MicroSeconds(1))
    {
    }

    void SetHosts(uint32_t hosts)
    {
        m_hosts = hosts;
    }

    Ptr<FabricTopology> Install() override
    {
        Ptr<FabricTopology> topo = Topology("StarHelper::Install");
        const uint32_t sw = topo->AddSwitch("star");
        for (uint32_t h = 0; h < m_hosts; ++h)
        {
            topo->ConnectHost(topo->AddHost(), sw, m_hostRate, m_hostDelay);
        }
        return Finish();
    }

  private:
    uint32_t m_hosts{2};
};

/// `hosts` (2 to 64, default 4), `host_link`.
class StarTopology : public ScenarioTopology
{
  public:
    void Read(ScenarioSection& t) override
    {
        m_hosts = static_cast<uint32_t>(t.UInt("hosts", 4, 2, 64));
        m_link = t.Link("host_link", LinkSpec{DataRate("100Gbps"), MicroSeconds(1)});
    }

    void Write(nlohmann::ordered_json& j) const override
    {
        j["hosts"] = m_hosts;
        j["host_link"] = LinkToJson(m_link);
    }

    uint32_t HostCount() const override
    {
        return m_hosts;
    }

    std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const override
    {
        auto h = std::make_unique<StarHelper>();
        h->SetHosts(m_hosts);
        h->SetHostLink(m_link.rate, m_link.delay);
        return h;
    }

  private:
    uint32_t m_hosts{4};
    LinkSpec m_link;
};

TF_SCENARIO_REGISTER(ScenarioTopology, StarTopology, "star");

} // namespace ns3
