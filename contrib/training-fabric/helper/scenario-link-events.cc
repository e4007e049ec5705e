/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "scenario-link-events.h"

#include "scenario-section.h"
#include "scenario-units.h"

#include "ns3/fabric-topology.h"
#include "ns3/link-events.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

using json = nlohmann::json;

std::vector<LinkEventSpec>
ReadLinkEvents(const std::string& file, const json* v, Time stop)
{
    std::vector<LinkEventSpec> events;
    if (!v)
    {
        return events;
    }
    if (!v->is_array())
    {
        throw ScenarioError(file + ": events: expected an array of {at, link, state, rate}, got " +
                            ScenarioSection::Describe(*v));
    }
    for (std::size_t i = 0; i < v->size(); ++i)
    {
        ScenarioSection e(file, "events[" + std::to_string(i) + "]", (*v)[i]);
        e.Expect({"at", "link", "state", "rate"});
        LinkEventSpec spec;
        const json* at = e.Find("at");
        if (!at)
        {
            e.Fail(e.Key("at"), "expected a time such as \"2ms\"", ScenarioSection::Nothing());
        }
        spec.at = e.TimeOf(e.Key("at"), *at);
        if (spec.at >= stop)
        {
            e.Fail(e.Key("at"),
                   "expected a time before stop (" + TimeToText(stop) +
                       "): the event would never happen",
                   *at);
        }
        const json* link = e.Find("link");
        if (!link || !link->is_array() || link->size() != 2)
        {
            e.Fail(e.Key("link"),
                   "expected two node ids [a, b] (as the topology file format numbers "
                   "them: hosts first, then switches, or a topology file's own ids)",
                   link ? *link : ScenarioSection::Nothing());
        }
        spec.a = static_cast<uint32_t>(e.UIntOf(e.Key("link") + "[0]", (*link)[0], 0, UINT32_MAX));
        spec.b = static_cast<uint32_t>(e.UIntOf(e.Key("link") + "[1]", (*link)[1], 0, UINT32_MAX));
        if (spec.a == spec.b)
        {
            e.Fail(e.Key("link"), "expected two different nodes", *link);
        }
        if (e.Find("state"))
        {
            spec.up = e.Str("state", "", {"down", "up"}) == "up";
        }
        if (e.Find("rate"))
        {
            spec.rate = e.LinkRate("rate", DataRate(0));
        }
        if (!spec.up && !spec.rate)
        {
            e.Fail(e.Key("state"),
                   "expected \"state\" (\"down\" or \"up\") or \"rate\" (or both) in an event");
        }
        events.push_back(spec);
    }
    return events;
}

nlohmann::ordered_json
LinkEventsToJson(const std::vector<LinkEventSpec>& events)
{
    nlohmann::ordered_json a = nlohmann::ordered_json::array();
    for (const LinkEventSpec& s : events)
    {
        nlohmann::ordered_json e;
        e["at"] = TimeToText(s.at);
        e["link"] = {s.a, s.b};
        if (s.up)
        {
            e["state"] = *s.up ? "up" : "down";
        }
        if (s.rate)
        {
            e["rate"] = RateToText(*s.rate);
        }
        a.push_back(e);
    }
    return a;
}

Time
DefaultReconvergence()
{
    TimeValue v;
    CreateObject<LinkEvents>()->GetAttribute("Reconvergence", v);
    return v.Get();
}

Ptr<LinkEvents>
InstallLinkEvents(const std::string& file,
                  const std::vector<LinkEventSpec>& events,
                  Time reconvergence,
                  Ptr<FabricTopology> topo)
{
    Ptr<LinkEvents> le = CreateObject<LinkEvents>();
    le->SetAttribute("Reconvergence", TimeValue(reconvergence));
    le->SetTopology(topo);
    for (std::size_t i = 0; i < events.size(); ++i)
    {
        const LinkEventSpec& s = events[i];
        LinkEvents::Event e;
        e.at = s.at;
        e.nodeA = s.a;
        e.nodeB = s.b;
        e.state = s.up ? (*s.up ? 1 : 0) : -1;
        e.rate = s.rate.value_or(DataRate(0));
        try
        {
            le->Add(e);
        }
        catch (const std::invalid_argument& err)
        {
            throw ScenarioError(file + ": events[" + std::to_string(i) + "].link: " + err.what());
        }
    }
    return le;
}

std::string
LinkEventsCsv(const LinkEvents& events)
{
    std::ostringstream os;
    os.precision(9);
    os << "time_s,a,b,state,rate_bps\n";
    for (const LinkEvents::Record& r : events.GetRecords())
    {
        os << r.at.GetSeconds() << ',' << r.nodeA << ',' << r.nodeB << ',' << (r.up ? "up" : "down")
           << ',' << r.rate.GetBitRate() << '\n';
    }
    return os.str();
}

} // namespace ns3
