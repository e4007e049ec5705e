/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "link-events.h"

#include "fabric-channel.h"
#include "fabric-net-device.h"
#include "fabric-topology.h"

#include "ns3/log.h"
#include "ns3/simulator.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("LinkEvents");
NS_OBJECT_ENSURE_REGISTERED(LinkEvents);

TypeId
LinkEvents::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::LinkEvents")
            .SetParent<Object>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<LinkEvents>()
            .AddAttribute(
                "Reconvergence",
                "Delay from a link going down or up to the switches' recomputed next hops. "
                "Default 1 ms: data-plane fast reroute in a datacenter fabric takes a few "
                "milliseconds (IETF draft-fft-architecture-00, Li et al. 2024); "
                "control-plane BGP convergence with BFD (RFC 5880) detection takes hundreds "
                "of milliseconds.",
                TimeValue(MilliSeconds(1)),
                MakeTimeAccessor(&LinkEvents::m_reconvergence),
                MakeTimeChecker(Time(0)))
            .AddTraceSource("LinkEvent",
                            "An event was applied: the link's state and rate after it.",
                            MakeTraceSourceAccessor(&LinkEvents::m_eventTrace),
                            "ns3::LinkEvents::RecordCallback");
    return tid;
}

LinkEvents::LinkEvents() = default;

void
LinkEvents::DoDispose()
{
    m_topo = nullptr;
    Object::DoDispose();
}

void
LinkEvents::SetTopology(Ptr<FabricTopology> topo)
{
    m_topo = topo;
}

uint32_t
LinkEvents::FindLink(uint32_t a, uint32_t b) const
{
    NS_ABORT_MSG_UNLESS(m_topo, "LinkEvents: call SetTopology() first");
    const uint32_t nodes = m_topo->GetNHosts() + m_topo->GetNSwitches();
    for (uint32_t n : {a, b})
    {
        if (n >= nodes)
        {
            throw std::invalid_argument(
                "node " + std::to_string(n) + " does not exist (the fabric has nodes 0.." +
                std::to_string(nodes - 1) +
                (m_topo->GetNodeNumbering().empty()
                     ? ": hosts 0.." + std::to_string(m_topo->GetNHosts() - 1) + ", then switches)"
                     : ", numbered as its topology file numbers them)"));
        }
    }
    const std::vector<uint32_t> links = m_topo->FindLinks(a, b);
    if (links.empty())
    {
        throw std::invalid_argument("no link joins nodes " + std::to_string(a) + " and " +
                                    std::to_string(b));
    }
    if (links.size() > 1)
    {
        // Parallel cables are indistinguishable by their ends.
        throw std::invalid_argument(std::to_string(links.size()) + " parallel links join nodes " +
                                    std::to_string(a) + " and " + std::to_string(b) +
                                    "; an event cannot choose among them");
    }
    return links[0];
}

void
LinkEvents::Add(Event e)
{
    NS_LOG_FUNCTION(this << e.at << e.nodeA << e.nodeB << +e.state);
    NS_ABORT_MSG_IF(e.at < Simulator::Now(), "LinkEvents: an event in the past");
    e.link = FindLink(e.nodeA, e.nodeB);
    // Frames in flight on this link must be deliverable through the check.
    m_topo->GetLink(e.link).devA->GetFabricChannel()->EnableLinkEvents();
    Simulator::Schedule(e.at - Simulator::Now(), &LinkEvents::Apply, this, e);
}

void
LinkEvents::SetLinkDown(uint32_t a, uint32_t b, Time at)
{
    Add(Event{at, a, b, 0, DataRate(0), 0});
}

void
LinkEvents::SetLinkUp(uint32_t a, uint32_t b, Time at)
{
    Add(Event{at, a, b, 1, DataRate(0), 0});
}

void
LinkEvents::SetLinkRate(uint32_t a, uint32_t b, Time at, DataRate rate)
{
    NS_ABORT_MSG_IF(rate.GetBitRate() == 0, "LinkEvents: a rate must be positive");
    Add(Event{at, a, b, -1, rate, 0});
}

const std::vector<LinkEvents::Record>&
LinkEvents::GetRecords() const
{
    return m_records;
}

void
LinkEvents::Apply(Event e)
{
    const FabricTopology::Link& link = m_topo->GetLink(e.link);
    Ptr<FabricChannel> channel = link.devA->GetFabricChannel();
    NS_LOG_INFO("link " << e.nodeA << "-" << e.nodeB << (e.state == 0 ? " down" : "")
                        << (e.state == 1 ? " up" : "") << (e.rate.GetBitRate() ? " rate " : "")
                        << (e.rate.GetBitRate() ? e.rate : DataRate(0)));
    if (e.rate.GetBitRate() != 0)
    {
        // Both directions; a frame being serialized keeps the rate it started at.
        link.devA->SetDataRate(e.rate);
        link.devB->SetDataRate(e.rate);
    }
    if (e.state >= 0 && channel->IsLinkUp() != (e.state == 1))
    {
        channel->SetLinkUp(e.state == 1);
        Simulator::Schedule(m_reconvergence, &FabricTopology::RecomputeRoutes, m_topo);
    }
    m_records.push_back(
        Record{Simulator::Now(), e.nodeA, e.nodeB, channel->IsLinkUp(), link.devA->GetDataRate()});
    m_eventTrace(m_records.back());
}

} // namespace ns3
