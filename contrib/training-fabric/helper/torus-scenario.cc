/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Scenario files' `topology` of type "torus" (TorusHelper), and the routing
 * mode "dor" (dimension-order routing) that only a torus offers.
 */
#include "fabric-routing-helper.h"
#include "scenario-registry.h"
#include "torus-helper.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// `dims`, `wrap`, `link` (every dimension), `dim_links` (one per dimension), `host_link`.
class TorusTopology : public ScenarioTopology
{
  public:
    void Read(ScenarioSection& t) override
    {
        const nlohmann::json* dv = t.Find("dims");
        if (!dv || !dv->is_array() || dv->empty() || dv->size() > 8)
        {
            t.Fail("topology.dims",
                   "expected a list of 1 to 8 dimension sizes such as [4, 4, 4]",
                   dv ? *dv : ScenarioSection::Nothing());
        }
        uint64_t n = 1;
        for (std::size_t i = 0; i < dv->size(); ++i)
        {
            m_dims.push_back(static_cast<uint32_t>(
                t.UIntOf("topology.dims[" + std::to_string(i) + "]", (*dv)[i], 1, 4096)));
            n *= m_dims.back();
        }
        if (n < 2 || n > 65536)
        {
            t.Fail("topology.dims", "expected 2 to 65536 vertices in all", *dv);
        }
        m_wrap = t.Bool("wrap", true);
        const LinkSpec torusDef{DataRate("400Gbps"), NanoSeconds(500)};
        const LinkSpec link = t.Link("link", torusDef);
        m_dimLinks.assign(m_dims.size(), link);
        if (const nlohmann::json* dl = t.Find("dim_links"))
        {
            if (!dl->is_array() || dl->size() != m_dims.size())
            {
                t.Fail("topology.dim_links", "expected one {rate, delay} per dimension", *dl);
            }
            for (std::size_t i = 0; i < dl->size(); ++i)
            {
                ScenarioSection ls(t.File(),
                                   "topology.dim_links[" + std::to_string(i) + "]",
                                   (*dl)[i]);
                m_dimLinks[i].rate = ls.LinkRate("rate", link.rate);
                m_dimLinks[i].delay = ls.TimeVal("delay", link.delay);
                ls.Finish();
            }
        }
        m_hostLink = t.Link("host_link", LinkSpec{link.rate, NanoSeconds(100)});
    }

    void Write(nlohmann::ordered_json& j) const override
    {
        j["dims"] = m_dims;
        j["wrap"] = m_wrap;
        j["dim_links"] = nlohmann::ordered_json::array();
        for (const auto& l : m_dimLinks)
        {
            j["dim_links"].push_back(LinkToJson(l));
        }
        j["host_link"] = LinkToJson(m_hostLink);
    }

    uint32_t HostCount() const override
    {
        uint32_t n = 1;
        for (uint32_t d : m_dims)
        {
            n *= d;
        }
        return n;
    }

    uint64_t LinkCount() const override
    {
        // Per vertex its host; per dimension of size s, s - 1 links along
        // each line of it, and the wrap link when wrapping and s > 2 (a
        // ring of two has one), as TorusHelper builds them.
        const uint64_t n = HostCount();
        uint64_t links = n;
        for (uint32_t s : m_dims)
        {
            links += n / s * ((s - 1) + (m_wrap && s > 2 ? 1 : 0));
        }
        return links;
    }

    DataRate GetHostLinkRate() const override
    {
        return m_hostLink.rate;
    }

    std::unique_ptr<FabricTopologyHelper> MakeHelper(const std::string& file) const override
    {
        auto h = std::make_unique<TorusHelper>();
        h->SetDimensions(m_dims);
        h->SetWrap(m_wrap);
        for (uint32_t d = 0; d < m_dims.size(); ++d)
        {
            h->SetDimensionLink(d, m_dimLinks[d].rate, m_dimLinks[d].delay);
        }
        h->SetHostLink(m_hostLink.rate, m_hostLink.delay);
        return h;
    }

    std::vector<std::string> GetRoutingPolicies() const override
    {
        return {"dor"};
    }

  private:
    std::vector<uint32_t> m_dims;
    bool m_wrap{true};
    std::vector<LinkSpec> m_dimLinks; //!< one per dimension
    LinkSpec m_hostLink;
};

/// `routing.mode` "dor": ECMP tables, then the torus's dimension-order routes.
class DorRoutingMode : public ScenarioRoutingMode
{
  public:
    void Check(const ScenarioConfig& cfg, ScenarioSection& r) const override
    {
        const auto policies = cfg.topology->GetRoutingPolicies();
        if (std::find(policies.begin(), policies.end(), "dor") == policies.end())
        {
            r.Fail("routing.mode", "dimension-order routing (dor) needs a torus topology");
        }
    }

    void Install(Ptr<FabricTopology> topo, const ScenarioConfig& cfg) const override
    {
        FabricRoutingHelper::InstallEcmp(topo,
                                         ScenarioHashType(cfg.routing),
                                         cfg.routing.seed,
                                         ScenarioCrcOffsets(cfg.routing));
        FindTopologyRouting(topo, "dor")->Install(topo);
    }
};

} // namespace

TF_SCENARIO_REGISTER(ScenarioTopology, TorusTopology, "torus");
TF_SCENARIO_REGISTER(ScenarioRoutingMode, DorRoutingMode, "dor");

} // namespace ns3
