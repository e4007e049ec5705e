/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "torus-helper.h"

#include "ns3/fabric-switch.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

/**
 * Dimension-order routing of a torus, aggregated by TorusHelper::Install() to the
 * fabric it builds (FindTopologyRouting(topo, "dor")).
 */
class TorusDimensionOrderRouting : public TopologyRouting
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::TorusDimensionOrderRouting")
                                .SetParent<TopologyRouting>()
                                .SetGroupName("TrainingFabric");
        return tid;
    }

    /// The shape of the fabric (a copy of its spent helper).
    void SetHelper(const TorusHelper& helper)
    {
        m_helper = std::make_unique<TorusHelper>(helper);
    }

    std::string GetName() const override
    {
        return "dor";
    }

    void Install(Ptr<FabricTopology> topo) const override
    {
        m_helper->InstallDimensionOrderRouting(topo);
    }

  private:
    std::unique_ptr<TorusHelper> m_helper;
};

NS_OBJECT_ENSURE_REGISTERED(TorusDimensionOrderRouting);

TorusHelper::TorusHelper()
    : FabricTopologyHelper(DataRate("400Gbps"),
                           NanoSeconds(100),
                           DataRate("400Gbps"),
                           NanoSeconds(500))
{
}

void
TorusHelper::SetDimensions(const std::vector<uint32_t>& dims)
{
    m_dims = dims;
    m_dimLinks.assign(dims.size(), std::nullopt);
}

void
TorusHelper::SetWrap(bool wrap)
{
    m_wrap = wrap;
}

void
TorusHelper::SetDimensionLink(uint32_t d, DataRate rate, Time delay)
{
    if (d >= m_dims.size())
    {
        throw std::invalid_argument("torus: no dimension " + std::to_string(d));
    }
    m_dimLinks[d] = std::make_pair(rate, delay);
}

uint32_t
TorusHelper::GetNVertices() const
{
    uint64_t n = 1;
    for (uint32_t d : m_dims)
    {
        n *= d;
    }
    return static_cast<uint32_t>(n);
}

std::vector<uint32_t>
TorusHelper::GetCoordinates(uint32_t v) const
{
    std::vector<uint32_t> c(m_dims.size());
    for (std::size_t d = 0; d < m_dims.size(); ++d)
    {
        c[d] = v % m_dims[d];
        v /= m_dims[d];
    }
    return c;
}

uint32_t
TorusHelper::Neighbour(uint32_t v, uint32_t d, bool up) const
{
    std::vector<uint32_t> c = GetCoordinates(v);
    const uint32_t n = m_dims[d];
    c[d] = up ? (c[d] + 1) % n : (c[d] + n - 1) % n;
    uint32_t w = 0;
    for (std::size_t i = m_dims.size(); i-- > 0;)
    {
        w = w * m_dims[i] + c[i];
    }
    return w;
}

uint32_t
TorusHelper::GetDistance(uint32_t a, uint32_t b) const
{
    std::vector<uint32_t> ca = GetCoordinates(a);
    std::vector<uint32_t> cb = GetCoordinates(b);
    uint32_t dist = 0;
    for (std::size_t d = 0; d < m_dims.size(); ++d)
    {
        const uint32_t n = m_dims[d];
        const uint32_t delta = (cb[d] + n - ca[d]) % n;
        dist +=
            m_wrap ? std::min(delta, n - delta) : (ca[d] > cb[d] ? ca[d] - cb[d] : cb[d] - ca[d]);
    }
    return dist;
}

Ptr<FabricTopology>
TorusHelper::Install()
{
    if (m_dims.empty())
    {
        throw std::invalid_argument("torus: dims must list at least one dimension size");
    }
    uint64_t n = 1;
    for (uint32_t d : m_dims)
    {
        if (d == 0)
        {
            throw std::invalid_argument("torus: every dimension size must be at least 1");
        }
        n *= d;
        if (n > 1000000)
        {
            throw std::invalid_argument("torus: more than 1,000,000 vertices");
        }
    }
    if (n < 2)
    {
        throw std::invalid_argument("torus: needs at least two vertices");
    }
    Ptr<FabricTopology> topo = Begin("TorusHelper::Install");
    const uint32_t nv = static_cast<uint32_t>(n);
    for (uint32_t v = 0; v < nv; ++v)
    {
        topo->AddSwitch("npu" + std::to_string(v));
    }
    for (uint32_t v = 0; v < nv; ++v)
    {
        topo->ConnectHost(topo->AddHost(), v, m_hostRate, m_hostDelay);
    }
    for (uint32_t d = 0; d < m_dims.size(); ++d)
    {
        const uint32_t size = m_dims[d];
        if (size == 1)
        {
            continue;
        }
        // SetDimensionLink's, else the fabric link (SetFabricLink).
        const DataRate rate = m_dimLinks[d] ? m_dimLinks[d]->first : m_fabricRate;
        const Time delay = m_dimLinks[d] ? m_dimLinks[d]->second : m_fabricDelay;
        for (uint32_t v = 0; v < nv; ++v)
        {
            const uint32_t c = GetCoordinates(v)[d];
            const bool last = (c + 1 == size);
            // Link to the +1 neighbour; the wrap link from the last vertex
            // only when wrapping, and never twice in a ring of two.
            if (!last || (m_wrap && size > 2))
            {
                topo->ConnectSwitches(v, Neighbour(v, d, true), rate, delay);
            }
        }
    }
    Ptr<FabricTopology> built = Finish();
    Ptr<TorusDimensionOrderRouting> routing = CreateObject<TorusDimensionOrderRouting>();
    routing->SetHelper(*this); // after Finish(): the copy holds no topology
    built->AggregateObject(routing);
    return built;
}

void
TorusHelper::InstallDimensionOrderRouting(Ptr<FabricTopology> topo) const
{
    const uint32_t nv = GetNVertices();
    for (uint32_t s = 0; s < nv; ++s)
    {
        Ptr<FabricSwitch> sw = topo->GetSwitch(s);
        const std::vector<uint32_t> cs = GetCoordinates(s);
        for (uint32_t h = 0; h < nv; ++h)
        {
            if (h == s)
            {
                continue; // the local host port, already the only next hop
            }
            const std::vector<uint32_t> ch = GetCoordinates(h);
            uint32_t d = 0;
            while (cs[d] == ch[d])
            {
                ++d;
            }
            const uint32_t size = m_dims[d];
            const uint32_t up = (ch[d] + size - cs[d]) % size; // hops going up
            bool goUp;
            if (m_wrap)
            {
                goUp = up <= size - up; // shorter way; tie toward increasing
            }
            else
            {
                goUp = ch[d] > cs[d];
            }
            const uint32_t next = Neighbour(s, d, goUp);
            std::vector<uint16_t> port;
            for (uint32_t p = 0; p < sw->GetNPorts() && port.empty(); ++p)
            {
                FabricTopology::Endpoint peer = topo->GetSwitchPortPeer(s, p);
                if (!peer.isHost && peer.index == next)
                {
                    port.push_back(static_cast<uint16_t>(p));
                }
            }
            if (port.empty())
            {
                throw std::logic_error("torus: no link from vertex " + std::to_string(s) +
                                       " toward " + std::to_string(next));
            }
            sw->SetRoute(h, port);
        }
    }
}

FabricPartition
TorusHelper::MakePartition(uint32_t ranks) const
{
    return FabricPartition::Slabs(m_dims, ranks);
}

} // namespace ns3
