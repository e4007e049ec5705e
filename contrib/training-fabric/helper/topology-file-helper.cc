/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "topology-file-helper.h"

#include "input-file.h"
#include "scenario-config.h"

#include "ns3/fabric-switch.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ns3
{

namespace
{
struct FileLink
{
    uint32_t a;
    uint32_t b;
    DataRate rate;
    Time delay;
};

struct FileTopology
{
    uint32_t nodes{0};
    std::vector<uint32_t> switches;
    std::vector<FileLink> links;
    uint32_t linkCount{0}; //!< the header's (equal to the file's link lines)
};

std::string
ReadAll(const std::string& path)
{
    return ReadInputFile<std::invalid_argument>(path, "topology file", InputLimits::kTopologyBytes);
}

/// Lines with their numbers, comments and blank lines dropped.
std::vector<std::pair<int, std::vector<std::string>>>
Tokenize(const std::string& text)
{
    std::vector<std::pair<int, std::vector<std::string>>> out;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line))
    {
        ++number;
        std::istringstream ls(line);
        std::vector<std::string> tok;
        std::string t;
        while (ls >> t)
        {
            tok.push_back(t);
        }
        if (!tok.empty() && tok[0][0] != '#')
        {
            out.emplace_back(number, tok);
        }
    }
    return out;
}

uint32_t
ToUint(const std::string& name, int line, const std::string& what, const std::string& tok)
{
    if (tok.empty() || !std::all_of(tok.begin(), tok.end(), ::isdigit) || tok.size() > 9)
    {
        throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what +
                                    ": expected a non-negative integer, got \"" + tok + "\"");
    }
    return static_cast<uint32_t>(std::stoul(tok));
}

FileTopology
Parse(const std::string& text, const std::string& name, bool headerOnly)
{
    auto lines = Tokenize(text);
    auto fail = [&](int line, const std::string& what) {
        throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
    };
    if (lines.empty())
    {
        fail(1, "empty file: expected \"<nodes> <switches> <links>\"");
    }
    const auto& head = lines[0];
    if (head.second.size() != 3)
    {
        fail(head.first,
             "expected \"<nodes> <switches> <links>\", got " + std::to_string(head.second.size()) +
                 " fields");
    }
    FileTopology t;
    t.nodes = ToUint(name, head.first, "nodes", head.second[0]);
    const uint32_t nsw = ToUint(name, head.first, "switches", head.second[1]);
    const uint32_t nlinks = ToUint(name, head.first, "links", head.second[2]);
    if (nsw > t.nodes)
    {
        fail(head.first, "more switches than nodes");
    }
    if (lines.size() < 2 && nsw > 0)
    {
        fail(head.first + 1, "missing the line of switch ids");
    }
    std::size_t next = 1;
    if (nsw > 0)
    {
        const auto& sl = lines[1];
        if (sl.second.size() != nsw)
        {
            fail(sl.first,
                 "expected " + std::to_string(nsw) + " switch ids, got " +
                     std::to_string(sl.second.size()));
        }
        std::set<uint32_t> seen;
        for (const auto& tok : sl.second)
        {
            uint32_t id = ToUint(name, sl.first, "switch id", tok);
            if (id >= t.nodes)
            {
                fail(sl.first,
                     "switch id " + tok + " is not a node (0.." + std::to_string(t.nodes - 1) +
                         ")");
            }
            if (!seen.insert(id).second)
            {
                fail(sl.first, "switch id " + tok + " listed twice");
            }
            t.switches.push_back(id);
        }
        next = 2;
    }
    if (lines.size() - next != nlinks)
    {
        const int at = lines.size() > next ? lines.back().first : lines[next - 1].first;
        fail(at,
             "header announces " + std::to_string(nlinks) + " links, the file has " +
                 std::to_string(lines.size() - next));
    }
    // Every host has its own link, so the node count is bounded by the
    // file's length (checked before anything is sized by it).
    if (t.nodes - nsw > nlinks)
    {
        fail(head.first,
             std::to_string(t.nodes - nsw) + " hosts need " + std::to_string(t.nodes - nsw) +
                 " links (one each), the header announces " + std::to_string(nlinks));
    }
    t.linkCount = nlinks;
    if (headerOnly)
    {
        return t;
    }
    for (std::size_t i = next; i < lines.size(); ++i)
    {
        const int ln = lines[i].first;
        const auto& tok = lines[i].second;
        if (tok.size() != 5)
        {
            fail(ln,
                 "expected \"<src> <dst> <rate> <delay> <error_rate>\", got " +
                     std::to_string(tok.size()) + " fields");
        }
        FileLink l;
        l.a = ToUint(name, ln, "src", tok[0]);
        l.b = ToUint(name, ln, "dst", tok[1]);
        if (l.a >= t.nodes || l.b >= t.nodes)
        {
            fail(ln,
                 "node " + std::to_string(std::max(l.a, l.b)) + " does not exist (0.." +
                     std::to_string(t.nodes - 1) + ")");
        }
        if (l.a == l.b)
        {
            fail(ln, "a link joins two different nodes");
        }
        try
        {
            l.rate = ParseRate(tok[2], "rate");
            l.delay = ParseTime(tok[3], "delay");
        }
        catch (const ScenarioError& e)
        {
            fail(ln, e.what());
        }
        if (const std::string tooFast = CheckLinkRate(l.rate); !tooFast.empty())
        {
            fail(ln, "rate " + tok[2] + ": " + tooFast);
        }
        std::istringstream er(tok[4]);
        double err = -1;
        er >> err;
        if (!er || !er.eof() || err < 0 || err > 1)
        {
            fail(ln, "error_rate: expected a number in [0, 1], got \"" + tok[4] + "\"");
        }
        if (err != 0)
        {
            fail(ln, "error_rate " + tok[4] + ": link errors are not modelled (use 0)");
        }
        t.links.push_back(l);
    }
    return t;
}
} // namespace

TopologyFileHelper::TopologyFileHelper()
    : FabricTopologyHelper(DataRate(0), Time(0), DataRate(0), Time(0))
{
}

void
TopologyFileHelper::SetFile(const std::string& path)
{
    m_text = ReadAll(path);
    m_name = path;
}

void
TopologyFileHelper::SetText(const std::string& text, const std::string& name)
{
    m_text = text;
    m_name = name;
}

uint32_t
TopologyFileHelper::CountHosts(const std::string& path, uint32_t* links)
{
    FileTopology t = Parse(ReadAll(path), path, true);
    if (links)
    {
        *links = t.linkCount;
    }
    return t.nodes - static_cast<uint32_t>(t.switches.size());
}

Ptr<FabricTopology>
TopologyFileHelper::Install()
{
    FileTopology t = Parse(m_text, m_name, false);
    std::vector<int> kind(t.nodes, 0); // 0 host, 1 switch
    for (uint32_t s : t.switches)
    {
        kind[s] = 1;
    }
    // Index hosts and switches in increasing node id.
    std::vector<uint32_t> index(t.nodes);
    uint32_t hosts = 0;
    uint32_t switches = 0;
    for (uint32_t n = 0; n < t.nodes; ++n)
    {
        index[n] = kind[n] ? switches++ : hosts++;
    }
    if (hosts < 2)
    {
        throw std::invalid_argument(m_name + ": a fabric needs at least two hosts");
    }
    std::vector<int> hostLinks(t.nodes, 0);
    for (const auto& l : t.links)
    {
        if (!kind[l.a] && !kind[l.b])
        {
            throw std::invalid_argument(m_name + ": link " + std::to_string(l.a) + "-" +
                                        std::to_string(l.b) +
                                        " joins two hosts: hosts attach to switches");
        }
        for (uint32_t n : {l.a, l.b})
        {
            if (!kind[n] && ++hostLinks[n] > 1)
            {
                throw std::invalid_argument(m_name + ": host node " + std::to_string(n) +
                                            " has more than one link (one port per host)");
            }
        }
    }
    for (uint32_t n = 0; n < t.nodes; ++n)
    {
        if (!kind[n] && hostLinks[n] == 0)
        {
            throw std::invalid_argument(m_name + ": host node " + std::to_string(n) +
                                        " has no link");
        }
    }
    Ptr<FabricTopology> topo = Topology("TopologyFileHelper::Install");
    for (uint32_t n = 0; n < t.nodes; ++n)
    {
        if (kind[n])
        {
            topo->AddSwitch("sw" + std::to_string(n));
        }
    }
    for (uint32_t h = 0; h < hosts; ++h)
    {
        topo->AddHost();
    }
    for (const auto& l : t.links)
    {
        if (kind[l.a] && kind[l.b])
        {
            topo->ConnectSwitches(index[l.a], index[l.b], l.rate, l.delay);
        }
        else
        {
            const uint32_t host = kind[l.a] ? l.b : l.a;
            const uint32_t sw = kind[l.a] ? l.a : l.b;
            topo->ConnectHost(index[host], index[sw], l.rate, l.delay);
        }
    }
    // Events name nodes as the file does: when it does not list its hosts
    // first, say which fabric node (hosts, then switches) each id is.
    std::vector<uint32_t> fabricNode(t.nodes);
    bool hostsFirst = true;
    for (uint32_t n = 0; n < t.nodes; ++n)
    {
        fabricNode[n] = kind[n] ? hosts + index[n] : index[n];
        hostsFirst = hostsFirst && fabricNode[n] == n;
    }
    if (!hostsFirst)
    {
        topo->SetNodeNumbering(std::move(fabricNode));
    }
    try
    {
        return Finish();
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(m_name + ": " + e.what());
    }
}

std::string
WriteTopologyFile(Ptr<FabricTopology> topo)
{
    const uint32_t h = topo->GetNHosts();
    const uint32_t s = topo->GetNSwitches();
    std::ostringstream out;
    out << (h + s) << " " << s << " " << topo->GetNLinks() << "\n";
    for (uint32_t i = 0; i < s; ++i)
    {
        out << (i ? " " : "") << (h + i);
    }
    out << "\n";
    auto node = [&](const FabricTopology::Endpoint& e) { return e.isHost ? e.index : h + e.index; };
    for (uint32_t l = 0; l < topo->GetNLinks(); ++l)
    {
        const auto& link = topo->GetLink(l);
        const int64_t ps = link.delay.GetPicoSeconds();
        out << node(link.a) << " " << node(link.b) << " " << link.rate.GetBitRate() << "bps ";
        if (ps % 1000 == 0)
        {
            out << ps / 1000 << "ns";
        }
        else
        {
            out << ps << "ps";
        }
        out << " 0\n";
    }
    return out.str();
}

} // namespace ns3
