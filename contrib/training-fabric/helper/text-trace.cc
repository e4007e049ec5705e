/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "text-trace.h"

#include "et_def.pb.h"
#include "scenario-config.h"

#include <algorithm>
#include <climits>
#include <set>
#include <sstream>

namespace ns3
{

std::vector<TraceGraph>
ParseTextTrace(const std::string& text, const std::string& source)
{
    std::vector<TraceGraph> graphs;
    std::istringstream in(text);
    std::string line;
    int ln = 0;
    auto fail = [&](const std::string& what) {
        throw TraceError(source, "line " + std::to_string(ln) + ": " + what);
    };
    auto ids = [&](const std::string& list) {
        std::vector<uint64_t> out;
        if (!list.empty() && list.back() == ',')
        {
            fail("expected node ids (at most 18 digits) separated by commas, got \"" + list + "\"");
        }
        std::stringstream ss(list);
        std::string item;
        while (std::getline(ss, item, ','))
        {
            if (item.empty() || item.size() > 18 ||
                !std::all_of(item.begin(), item.end(), ::isdigit))
            {
                fail("expected node ids (at most 18 digits) separated by commas, got \"" + list +
                     "\"");
            }
            out.push_back(std::stoull(item));
        }
        return out;
    };
    auto number = [&](const std::string& tok, const char* what) {
        if (tok.empty() || !std::all_of(tok.begin(), tok.end(), ::isdigit) || tok.size() > 18)
        {
            fail(std::string("expected ") + what + ", got \"" + tok + "\"");
        }
        return std::stoull(tok);
    };
    // A rank or a tag: Chakra's comm_src, comm_dst and comm_tag are int32.
    auto int32 = [&](const std::string& tok, const char* what) {
        const uint64_t v = number(tok, what);
        if (v > static_cast<uint64_t>(INT32_MAX))
        {
            fail(std::string("expected ") + what + " of at most 2147483647, got " + tok);
        }
        return static_cast<int32_t>(v);
    };
    // Dependencies must name nodes of their rank: in a hand-written file a
    // dangling one is a typo (Chakra files may have them, see ValidateGraph).
    std::vector<std::pair<int, uint64_t>> refs; // (line, node id) of the current rank
    auto checkRefs = [&]() {
        std::set<uint64_t> present;
        for (const TraceNode& n : graphs.back().nodes)
        {
            present.insert(n.id);
        }
        for (const auto& r : refs)
        {
            if (!present.count(r.second))
            {
                throw TraceError(source,
                                 "line " + std::to_string(r.first) + ": node " +
                                     std::to_string(r.second) + " is not in rank " +
                                     std::to_string(graphs.back().rank));
            }
        }
        refs.clear();
    };
    while (std::getline(in, line))
    {
        ++ln;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos)
        {
            line.resize(hash);
        }
        std::istringstream ls(line);
        std::vector<std::string> tok;
        std::string t;
        while (ls >> t)
        {
            tok.push_back(t);
        }
        if (tok.empty())
        {
            continue;
        }
        if (tok[0] == "rank")
        {
            if (tok.size() != 2)
            {
                fail("expected \"rank <r>\"");
            }
            const uint64_t r = number(tok[1], "a rank");
            if (r != graphs.size())
            {
                fail("ranks must come in order 0, 1, ...: expected rank " +
                     std::to_string(graphs.size()));
            }
            if (!graphs.empty())
            {
                checkRefs();
            }
            TraceGraph g;
            g.rank = static_cast<uint32_t>(r);
            g.source = source + " (rank " + tok[1] + ")";
            graphs.push_back(g);
            continue;
        }
        if (graphs.empty())
        {
            fail("a node before the first \"rank <r>\" line");
        }
        if (tok.size() < 3 || tok[0].back() != ':')
        {
            fail("expected \"<id>: comp|send|recv|coll ...\"");
        }
        TraceNode n;
        n.id = number(tok[0].substr(0, tok[0].size() - 1), "a node id");
        const std::string& op = tok[1];
        std::size_t i = 2;
        if (op == "comp")
        {
            n.kind = TraceNode::COMP;
            n.durationMicros = number(tok[i++], "a duration in microseconds");
        }
        else if (op == "send" || op == "recv")
        {
            n.kind = op == "send" ? TraceNode::COMM_SEND : TraceNode::COMM_RECV;
            try
            {
                n.commSize = ParseByteSize(tok[i++]);
                n.hasCommSize = true;
            }
            catch (const ScenarioError&)
            {
                fail("expected a size such as 4096 or \"1MB\", got \"" + tok[i - 1] + "\"");
            }
            const char* dir = op == "send" ? "to" : "from";
            if (i + 1 >= tok.size() || tok[i] != dir)
            {
                fail(std::string("expected \"") + dir + " <rank>\"");
            }
            const int32_t peer = int32(tok[i + 1], "a rank");
            i += 2;
            const int32_t self = static_cast<int32_t>(graphs.back().rank);
            n.commSrc = op == "send" ? self : peer;
            n.commDst = op == "send" ? peer : self;
        }
        else if (op == "coll")
        {
            n.kind = TraceNode::COMM_COLL;
            const std::string& c = tok[i++];
            static const std::map<std::string, int64_t> types{
                {"all-reduce", ChakraProtoMsg::ALL_REDUCE},
                {"all-gather", ChakraProtoMsg::ALL_GATHER},
                {"reduce-scatter", ChakraProtoMsg::REDUCE_SCATTER},
                {"all-to-all", ChakraProtoMsg::ALL_TO_ALL},
                {"broadcast", ChakraProtoMsg::BROADCAST},
                {"reduce", ChakraProtoMsg::REDUCE},
                {"barrier", ChakraProtoMsg::BARRIER}};
            auto it = types.find(c);
            if (it == types.end())
            {
                fail("unknown collective \"" + c +
                     "\" (valid: all-reduce, all-gather, reduce-scatter, all-to-all, broadcast, "
                     "reduce, barrier)");
            }
            n.commType = it->second;
            if (i >= tok.size())
            {
                fail("expected the collective's size");
            }
            try
            {
                n.commSize = ParseByteSize(tok[i++]);
                n.hasCommSize = true;
            }
            catch (const ScenarioError&)
            {
                fail("expected a size such as 4096 or \"1MB\", got \"" + tok[i - 1] + "\"");
            }
        }
        else
        {
            fail("unknown operation \"" + op + "\" (valid: comp, send, recv, coll)");
        }
        std::set<std::string> given;
        while (i < tok.size())
        {
            const std::string& key = tok[i];
            if (i + 1 >= tok.size())
            {
                fail("\"" + key + "\" needs a value");
            }
            if (!given.insert(key).second)
            {
                fail("\"" + key + "\" given twice");
            }
            const std::string& val = tok[i + 1];
            if (key == "after")
            {
                n.dataDeps = ids(val);
            }
            else if (key == "ctrl")
            {
                n.ctrlDeps = ids(val);
            }
            else if (key == "tag" &&
                     (n.kind == TraceNode::COMM_SEND || n.kind == TraceNode::COMM_RECV))
            {
                n.commTag = int32(val, "a tag");
            }
            else if (key == "group" && n.kind == TraceNode::COMM_COLL)
            {
                n.pgName = val;
            }
            else if (key == "name")
            {
                n.name = val;
            }
            else
            {
                fail("unexpected \"" + key +
                     "\" (valid: after, ctrl, name, tag for send/recv, "
                     "group for coll)");
            }
            i += 2;
        }
        if (n.name.empty())
        {
            n.name = op + std::to_string(n.id);
        }
        for (const auto* deps : {&n.dataDeps, &n.ctrlDeps})
        {
            for (uint64_t d : *deps)
            {
                refs.emplace_back(ln, d);
            }
        }
        graphs.back().nodes.push_back(n);
    }
    if (graphs.empty())
    {
        throw TraceError(source, "no \"rank <r>\" section");
    }
    checkRefs();
    return graphs;
}

} // namespace ns3
