/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' `topology` of type "file" (TopologyFileHelper).
 */
#include "scenario-registry.h"
#include "topology-file-helper.h"

#include <stdexcept>

namespace ns3
{

namespace
{

/// `path`: a topology file of the HPCC simulator lineage.
class FileTopology : public ScenarioTopology
{
  public:
    void Read(ScenarioSection& t) override
    {
        m_path = t.Str("path", "", {});
        if (m_path.empty())
        {
            t.Fail("topology.path",
                   "expected the topology file to read",
                   ScenarioSection::Nothing());
        }
        try
        {
            m_hosts = TopologyFileHelper::CountHosts(m_path, &m_links);
        }
        catch (const std::invalid_argument& e)
        {
            t.Fail("topology.path", e.what());
        }
    }

    void Write(nlohmann::ordered_json& j) const override
    {
        j["path"] = m_path;
    }

    uint32_t HostCount() const override
    {
        return m_hosts;
    }

    uint64_t LinkCount() const override
    {
        return m_links;
    }

    std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const override
    {
        auto h = std::make_unique<TopologyFileHelper>();
        try
        {
            h->SetFile(m_path);
        }
        catch (const std::invalid_argument& e)
        {
            throw ScenarioError(file + ": topology.path: " + e.what());
        }
        return h;
    }

  private:
    std::string m_path;
    uint32_t m_hosts{0};
    uint32_t m_links{0}; //!< the header's link count (checked against the file)
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioTopology, FileTopology, "file");

} // namespace ns3
