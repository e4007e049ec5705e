/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "execution-trace.h"

#include "et_def.pb.h"
#include "scenario-config.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <zlib.h>

namespace ns3
{

namespace
{
[[noreturn]] void
Fail(const std::string& source, const std::string& what)
{
    throw TraceError(source + ": " + what);
}

std::string
Inflate(const std::string& in, const std::string& source)
{
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
    {
        Fail(source, "cannot start gzip decompression");
    }
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    zs.avail_in = static_cast<uInt>(in.size());
    std::string out;
    char buf[65536];
    int ret;
    do
    {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof(buf);
        ret = inflate(&zs, Z_NO_FLUSH);
        if (ret != Z_OK && ret != Z_STREAM_END)
        {
            inflateEnd(&zs);
            Fail(source, "corrupt gzip stream");
        }
        out.append(buf, sizeof(buf) - zs.avail_out);
        if (out.size() > (1ull << 32))
        {
            inflateEnd(&zs);
            Fail(source, "gzip stream inflates beyond 4 GiB");
        }
    } while (ret != Z_STREAM_END && zs.avail_in > 0);
    inflateEnd(&zs);
    if (ret != Z_STREAM_END)
    {
        Fail(source, "truncated gzip stream");
    }
    return out;
}

/// Read one base-128 varint at \p pos; false at a clean end of stream.
bool
ReadVarint(const std::string& b, std::size_t& pos, uint64_t& value, const std::string& source)
{
    if (pos == b.size())
    {
        return false;
    }
    value = 0;
    for (int shift = 0; shift < 64; shift += 7)
    {
        if (pos == b.size())
        {
            Fail(source, "truncated length prefix at byte " + std::to_string(pos));
        }
        const uint8_t c = static_cast<uint8_t>(b[pos++]);
        value |= static_cast<uint64_t>(c & 0x7f) << shift;
        if (!(c & 0x80))
        {
            return true;
        }
    }
    Fail(source, "bad varint length prefix (more than 10 bytes) at byte " + std::to_string(pos));
}

void
WriteVarint(std::string& out, uint64_t v)
{
    while (v >= 0x80)
    {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

/// An integer attribute of any of the protobuf integer kinds.
bool
IntOf(const ChakraProtoMsg::AttributeProto& a, int64_t& v)
{
    using A = ChakraProtoMsg::AttributeProto;
    switch (a.value_case())
    {
    case A::kInt32Val:
        v = a.int32_val();
        return true;
    case A::kInt64Val:
        v = a.int64_val();
        return true;
    case A::kUint32Val:
        v = a.uint32_val();
        return true;
    case A::kUint64Val:
        v = static_cast<int64_t>(a.uint64_val());
        return true;
    case A::kSint32Val:
        v = a.sint32_val();
        return true;
    case A::kSint64Val:
        v = a.sint64_val();
        return true;
    case A::kFixed32Val:
        v = a.fixed32_val();
        return true;
    case A::kFixed64Val:
        v = static_cast<int64_t>(a.fixed64_val());
        return true;
    case A::kSfixed32Val:
        v = a.sfixed32_val();
        return true;
    case A::kSfixed64Val:
        v = a.sfixed64_val();
        return true;
    default:
        return false;
    }
}

std::string
NodeRef(const TraceGraph& g, uint64_t id)
{
    return g.source + ": node " + std::to_string(id);
}
} // namespace

std::string
CollectiveName(int64_t t)
{
    switch (t)
    {
    case ChakraProtoMsg::ALL_REDUCE:
        return "all-reduce";
    case ChakraProtoMsg::ALL_GATHER:
        return "all-gather";
    case ChakraProtoMsg::REDUCE_SCATTER:
        return "reduce-scatter";
    case ChakraProtoMsg::ALL_TO_ALL:
        return "all-to-all";
    case ChakraProtoMsg::REDUCE_SCATTER_BLOCK:
        return "reduce-scatter";
    case ChakraProtoMsg::BROADCAST:
        return "broadcast";
    case ChakraProtoMsg::REDUCE:
        return "reduce";
    case ChakraProtoMsg::BARRIER:
        return "barrier";
    default:
        return "";
    }
}

TraceGraph
ParseChakra(const std::string& raw, const std::string& source, uint32_t rank)
{
    const std::string bytes = (raw.size() >= 2 && static_cast<uint8_t>(raw[0]) == 0x1f &&
                               static_cast<uint8_t>(raw[1]) == 0x8b)
                                  ? Inflate(raw, source)
                                  : raw;
    TraceGraph g;
    g.rank = rank;
    g.source = source;
    std::size_t pos = 0;
    uint64_t len;
    if (!ReadVarint(bytes, pos, len, source))
    {
        Fail(source, "empty trace: expected a GlobalMetadata message");
    }
    if (len > bytes.size() - pos)
    {
        Fail(source, "truncated GlobalMetadata message");
    }
    ChakraProtoMsg::GlobalMetadata meta;
    if (!meta.ParseFromArray(bytes.data() + pos, static_cast<int>(len)))
    {
        Fail(source, "undecodable GlobalMetadata message");
    }
    g.version = meta.version();
    pos += len;
    uint32_t index = 0;
    while (ReadVarint(bytes, pos, len, source))
    {
        if (len > bytes.size() - pos)
        {
            Fail(source,
                 "truncated node message #" + std::to_string(index) + " (" + std::to_string(len) +
                     " bytes announced, " + std::to_string(bytes.size() - pos) + " left)");
        }
        ChakraProtoMsg::Node n;
        if (!n.ParseFromArray(bytes.data() + pos, static_cast<int>(len)))
        {
            Fail(source, "undecodable node message #" + std::to_string(index));
        }
        pos += len;
        ++index;
        TraceNode t;
        t.id = n.id();
        t.name = n.name();
        const int type = n.type();
        if (type < TraceNode::METADATA || type > TraceNode::COMM_COLL)
        {
            Fail(source,
                 "node " + std::to_string(t.id) + ": unknown node type " + std::to_string(type) +
                     " (expected 1..7: METADATA, MEM_LOAD, MEM_STORE, COMP, COMM_SEND, "
                     "COMM_RECV, COMM_COLL)");
        }
        t.kind = static_cast<TraceNode::Kind>(type);
        t.dataDeps.assign(n.data_deps().begin(), n.data_deps().end());
        t.ctrlDeps.assign(n.ctrl_deps().begin(), n.ctrl_deps().end());
        t.durationMicros = n.duration_micros();
        for (const auto& a : n.attr())
        {
            int64_t v = 0;
            if (a.name() == "pg_name" &&
                a.value_case() == ChakraProtoMsg::AttributeProto::kStringVal)
            {
                t.pgName = a.string_val();
            }
            else if (!IntOf(a, v))
            {
                continue; // other attributes (is_cpu_op, involved_dim, ...) are not used
            }
            else if (a.name() == "comm_type")
            {
                t.commType = v;
            }
            else if (a.name() == "comm_size")
            {
                if (v < 0)
                {
                    Fail(source, "node " + std::to_string(t.id) + ": negative comm_size");
                }
                t.commSize = static_cast<uint64_t>(v);
            }
            else if (a.name() == "comm_src")
            {
                t.commSrc = static_cast<int32_t>(v);
            }
            else if (a.name() == "comm_dst")
            {
                t.commDst = static_cast<int32_t>(v);
            }
            else if (a.name() == "comm_tag")
            {
                t.commTag = static_cast<int32_t>(v);
            }
        }
        g.nodes.push_back(std::move(t));
    }
    return g;
}

TraceGraph
ReadChakraFile(const std::string& path, uint32_t rank)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        Fail(path, "cannot open the trace file");
    }
    std::ostringstream s;
    s << in.rdbuf();
    return ParseChakra(s.str(), path, rank);
}

std::string
SerializeChakra(const TraceGraph& g)
{
    std::string out;
    ChakraProtoMsg::GlobalMetadata meta;
    meta.set_version(g.version);
    std::string m = meta.SerializeAsString();
    WriteVarint(out, m.size());
    out += m;
    for (const TraceNode& t : g.nodes)
    {
        ChakraProtoMsg::Node n;
        n.set_id(t.id);
        n.set_name(t.name);
        n.set_type(static_cast<ChakraProtoMsg::NodeType>(t.kind));
        for (uint64_t d : t.dataDeps)
        {
            n.add_data_deps(d);
        }
        for (uint64_t d : t.ctrlDeps)
        {
            n.add_ctrl_deps(d);
        }
        n.set_duration_micros(t.durationMicros);
        auto intAttr = [&](const char* name, int64_t v, bool i32) {
            auto* a = n.add_attr();
            a->set_name(name);
            if (i32)
            {
                a->set_int32_val(static_cast<int32_t>(v));
            }
            else
            {
                a->set_int64_val(v);
            }
        };
        if (t.kind == TraceNode::COMM_COLL)
        {
            intAttr("comm_type", t.commType, false);
        }
        if (t.kind == TraceNode::COMM_COLL || t.kind == TraceNode::COMM_SEND ||
            t.kind == TraceNode::COMM_RECV)
        {
            intAttr("comm_size", static_cast<int64_t>(t.commSize), false);
        }
        if (t.kind == TraceNode::COMM_SEND || t.kind == TraceNode::COMM_RECV)
        {
            intAttr("comm_src", t.commSrc, true);
            intAttr("comm_dst", t.commDst, true);
            intAttr("comm_tag", t.commTag, true);
        }
        if (!t.pgName.empty())
        {
            auto* a = n.add_attr();
            a->set_name("pg_name");
            a->set_string_val(t.pgName);
        }
        m = n.SerializeAsString();
        WriteVarint(out, m.size());
        out += m;
    }
    return out;
}

void
WriteChakraFiles(const std::string& prefix, const std::vector<TraceGraph>& graphs)
{
    for (const TraceGraph& g : graphs)
    {
        const std::string path = prefix + "." + std::to_string(g.rank) + ".et";
        std::ofstream out(path, std::ios::binary);
        out << SerializeChakra(g);
        if (!out)
        {
            Fail(path, "cannot write the trace file");
        }
    }
}

std::vector<TraceGraph>
ReadChakraPrefix(const std::string& prefix)
{
    std::vector<TraceGraph> graphs;
    for (uint32_t r = 0;; ++r)
    {
        const std::string path = prefix + "." + std::to_string(r) + ".et";
        std::ifstream probe(path, std::ios::binary);
        if (!probe)
        {
            break;
        }
        graphs.push_back(ReadChakraFile(path, r));
    }
    if (graphs.empty())
    {
        Fail(prefix + ".0.et", "no trace file for rank 0 (expected <prefix>.<rank>.et)");
    }
    return graphs;
}

CommGroups
ReadCommGroups(const std::string& path, uint32_t ranks)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        Fail(path, "cannot open the comm-group file");
    }
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_discarded() || !j.is_object())
    {
        Fail(path, "expected a JSON object {\"<pg_name>\": [ranks...]}");
    }
    CommGroups groups;
    for (auto it = j.begin(); it != j.end(); ++it)
    {
        if (!it->is_array() || it->empty())
        {
            Fail(path, "group \"" + it.key() + "\": expected a non-empty array of ranks");
        }
        std::set<uint32_t> seen;
        for (const auto& r : *it)
        {
            if (!r.is_number_unsigned() || r.get<uint64_t>() >= ranks)
            {
                Fail(path,
                     "group \"" + it.key() + "\": " + r.dump() + " is not a rank (0.." +
                         std::to_string(ranks - 1) + ")");
            }
            if (!seen.insert(r.get<uint32_t>()).second)
            {
                Fail(path, "group \"" + it.key() + "\": rank " + r.dump() + " listed twice");
            }
            groups[it.key()].push_back(r.get<uint32_t>());
        }
    }
    return groups;
}

std::vector<TraceGraph>
ParseTextTrace(const std::string& text, const std::string& source)
{
    std::vector<TraceGraph> graphs;
    std::istringstream in(text);
    std::string line;
    int ln = 0;
    auto fail = [&](const std::string& what) {
        Fail(source, "line " + std::to_string(ln) + ": " + what);
    };
    auto ids = [&](const std::string& list) {
        std::vector<uint64_t> out;
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
            const int32_t peer = static_cast<int32_t>(number(tok[i + 1], "a rank"));
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
        while (i < tok.size())
        {
            const std::string& key = tok[i];
            if (i + 1 >= tok.size())
            {
                fail("\"" + key + "\" needs a value");
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
                n.commTag = static_cast<int32_t>(number(val, "a tag"));
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
        graphs.back().nodes.push_back(n);
    }
    if (graphs.empty())
    {
        Fail(source, "no \"rank <r>\" section");
    }
    return graphs;
}

void
ValidateGraph(const TraceGraph& g)
{
    std::map<uint64_t, std::size_t> index;
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
    {
        if (!index.emplace(g.nodes[i].id, i).second)
        {
            Fail(g.source, "node " + std::to_string(g.nodes[i].id) + ": duplicate node id");
        }
    }
    std::vector<std::vector<std::size_t>> out(g.nodes.size());
    std::vector<uint32_t> indeg(g.nodes.size(), 0);
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
    {
        const TraceNode& n = g.nodes[i];
        for (const auto* deps : {&n.dataDeps, &n.ctrlDeps})
        {
            for (uint64_t d : *deps)
            {
                auto it = index.find(d);
                if (it == index.end())
                {
                    Fail(g.source,
                         "node " + std::to_string(n.id) + ": depends on node " + std::to_string(d) +
                             ", which does not exist");
                }
                out[it->second].push_back(i);
                indeg[i]++;
            }
        }
        if ((n.kind == TraceNode::COMM_SEND || n.kind == TraceNode::COMM_RECV ||
             (n.kind == TraceNode::COMM_COLL && n.commType != ChakraProtoMsg::BARRIER)) &&
            n.commSize == 0)
        {
            Fail(g.source, "node " + std::to_string(n.id) + ": communication without comm_size");
        }
        if (n.kind == TraceNode::COMM_COLL && CollectiveName(n.commType).empty())
        {
            Fail(g.source,
                 "node " + std::to_string(n.id) + ": comm_type " + std::to_string(n.commType) +
                     " is not simulated (expected ALL_REDUCE 0, REDUCE 1, ALL_GATHER 2, "
                     "BROADCAST 5, ALL_TO_ALL 6, REDUCE_SCATTER 7 or 8, BARRIER 9)");
        }
    }
    // Kahn's algorithm: whatever is left has a cycle.
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < indeg.size(); ++i)
    {
        if (indeg[i] == 0)
        {
            ready.push_back(i);
        }
    }
    std::size_t seen = 0;
    while (!ready.empty())
    {
        const std::size_t u = ready.back();
        ready.pop_back();
        ++seen;
        for (std::size_t v : out[u])
        {
            if (--indeg[v] == 0)
            {
                ready.push_back(v);
            }
        }
    }
    if (seen != g.nodes.size())
    {
        for (std::size_t i = 0; i < indeg.size(); ++i)
        {
            if (indeg[i] > 0)
            {
                Fail(g.source, "node " + std::to_string(g.nodes[i].id) + ": on a dependency cycle");
            }
        }
    }
}

void
ValidateWorkload(const std::vector<TraceGraph>& graphs, const CommGroups& groups)
{
    const int32_t n = static_cast<int32_t>(graphs.size());
    // (src, dst, tag, size) -> count of sends minus receives, with an example.
    std::map<std::tuple<int32_t, int32_t, int32_t, uint64_t>, std::pair<int64_t, std::string>>
        pairs;
    for (const TraceGraph& g : graphs)
    {
        ValidateGraph(g);
        for (const TraceNode& t : g.nodes)
        {
            if (t.kind != TraceNode::COMM_SEND && t.kind != TraceNode::COMM_RECV)
            {
                if (t.kind == TraceNode::COMM_COLL && !t.pgName.empty() && !groups.count(t.pgName))
                {
                    Fail(g.source,
                         "node " + std::to_string(t.id) + ": pg_name \"" + t.pgName +
                             "\" is not in the comm-group file");
                }
                continue;
            }
            const bool send = t.kind == TraceNode::COMM_SEND;
            const int32_t self = static_cast<int32_t>(g.rank);
            if ((send ? t.commSrc : t.commDst) != self)
            {
                Fail(g.source,
                     "node " + std::to_string(t.id) + ": " + (send ? "comm_src " : "comm_dst ") +
                         std::to_string(send ? t.commSrc : t.commDst) + " is not this rank " +
                         std::to_string(self));
            }
            const int32_t peer = send ? t.commDst : t.commSrc;
            if (peer < 0 || peer >= n || peer == self)
            {
                Fail(g.source,
                     "node " + std::to_string(t.id) + ": peer rank " + std::to_string(peer) +
                         " does not exist (ranks 0.." + std::to_string(n - 1) + ", not self)");
            }
            auto& e = pairs[{t.commSrc, t.commDst, t.commTag, t.commSize}];
            e.first += send ? 1 : -1;
            if (e.second.empty())
            {
                e.second = NodeRef(g, t.id);
            }
        }
    }
    for (const auto& kv : pairs)
    {
        if (kv.second.first != 0)
        {
            const auto& k = kv.first;
            throw TraceError(kv.second.second + ": " + (kv.second.first > 0 ? "send" : "receive") +
                             " of " + std::to_string(std::get<3>(k)) + " bytes from rank " +
                             std::to_string(std::get<0>(k)) + " to rank " +
                             std::to_string(std::get<1>(k)) + " (tag " +
                             std::to_string(std::get<2>(k)) + ") has no matching " +
                             (kv.second.first > 0 ? "receive" : "send"));
        }
    }
}

} // namespace ns3
