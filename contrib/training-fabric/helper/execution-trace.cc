/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "execution-trace.h"

#include "et_def.pb.h"
#include "input-file.h"
#include "scenario-config.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <zlib.h>

namespace ns3
{

TraceError::TraceError(const std::string& message)
    : std::runtime_error(OneLineError(message))
{
}

TraceError::TraceError(const std::string& where, const std::string& what)
    : TraceError(where + ": " + what)
{
}

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
    while (true)
    {
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof(buf);
        const int ret = inflate(&zs, Z_NO_FLUSH);
        if (ret == Z_BUF_ERROR && zs.avail_in == 0)
        {
            inflateEnd(&zs);
            Fail(source, "truncated gzip stream");
        }
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
        if (ret == Z_STREAM_END)
        {
            if (zs.avail_in == 0)
            {
                break;
            }
            // A gzip file is a series of members (RFC 1952, 2.2), as
            // `cat a.gz b.gz` makes; gunzip reads them all, and so does this.
            if (inflateReset(&zs) != Z_OK)
            {
                inflateEnd(&zs);
                Fail(source, "cannot restart gzip decompression");
            }
        }
        else if (zs.avail_in == 0 && zs.avail_out != 0)
        {
            // All input read, output room left, and the stream not ended.
            inflateEnd(&zs);
            Fail(source, "truncated gzip stream");
        }
    }
    inflateEnd(&zs);
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

/// An integer attribute of any of the protobuf integer kinds, or a bool (0
/// or 1: FeederV3's get_attr converts any integral kind, bool included).
bool
IntOf(const ChakraProtoMsg::AttributeProto& a, int64_t& v)
{
    using A = ChakraProtoMsg::AttributeProto;
    switch (a.value_case())
    {
    case A::kBoolVal:
        v = a.bool_val() ? 1 : 0;
        return true;
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

/// The node attributes this simulator interprets (ASTRA-sim's names).
enum AttrId
{
    A_COMM_TYPE,
    A_COMM_SIZE,
    A_COMM_SRC,
    A_COMM_DST,
    A_COMM_TAG,
    A_PG_NAME,
    A_IS_CPU_OP,
    A_INVOLVED_DIM,
    A_COUNT
};

const char* const kAttrNames[A_COUNT] = {"comm_type",
                                         "comm_size",
                                         "comm_src",
                                         "comm_dst",
                                         "comm_tag",
                                         "pg_name",
                                         "is_cpu_op",
                                         "involved_dim"};

/**
 * Whether ASTRA-sim reads attribute \p which on a node of kind \p kind
 * (Workload::issue_coll_comm, issue_send_comm, issue_recv_comm and
 * HardwareResource, through FeederV3's get_attr, which converts an
 * attribute only when asked for it): on other nodes it is not interpreted
 * here either, whatever its kind (kept in TraceNode::raw).
 */
bool
ReadOn(int which, TraceNode::Kind kind)
{
    const bool coll = kind == TraceNode::COMM_COLL;
    const bool p2p = kind == TraceNode::COMM_SEND || kind == TraceNode::COMM_RECV;
    switch (which)
    {
    case A_IS_CPU_OP:
        return true;
    case A_COMM_SIZE:
        return coll || p2p;
    case A_COMM_SRC:
    case A_COMM_DST:
    case A_COMM_TAG:
        return p2p;
    default: // comm_type, pg_name, involved_dim
        return coll;
    }
}

int
AttrIndex(const std::string& name)
{
    for (int i = 0; i < A_COUNT; ++i)
    {
        if (name == kAttrNames[i])
        {
            return i;
        }
    }
    return -1;
}

/**
 * Read attribute \p a as interpreted attribute \p which into \p t, as
 * ASTRA-sim's feeder converts it (integers of any kind; bool from an integer),
 * plus a whole double for comm_size. \return "" or what was expected.
 */
std::string
ReadAttr(const ChakraProtoMsg::AttributeProto& a, int which, TraceNode& t)
{
    using A = ChakraProtoMsg::AttributeProto;
    int64_t v = 0;
    bool isInt = IntOf(a, v);
    switch (which)
    {
    case A_COMM_TYPE:
        if (!isInt)
        {
            return "expected an integer CollectiveCommType";
        }
        t.commType = v;
        return "";
    case A_COMM_SIZE:
        if (a.value_case() == A::kUint64Val || a.value_case() == A::kFixed64Val)
        {
            // Unsigned: the whole range, as FeederV3 reads it (a size of 2^63
            // or more is then refused by the run's limit, named as such).
            t.commSize = a.value_case() == A::kUint64Val ? a.uint64_val() : a.fixed64_val();
            t.hasCommSize = true;
            return "";
        }
        if (a.value_case() == A::kDoubleVal || a.value_case() == A::kFloatVal)
        {
            const double d =
                a.value_case() == A::kDoubleVal ? a.double_val() : double(a.float_val());
            isInt = d >= 0 && d < 9.2e18 && d == std::floor(d);
            v = isInt ? static_cast<int64_t>(d) : -1;
        }
        if (!isInt || v < 0)
        {
            return "expected a non-negative whole number of bytes";
        }
        t.commSize = static_cast<uint64_t>(v);
        t.hasCommSize = true;
        return "";
    case A_COMM_SRC:
    case A_COMM_DST:
        if (!isInt || v < 0 || v > INT32_MAX)
        {
            return "expected a rank (a non-negative integer)";
        }
        (which == A_COMM_SRC ? t.commSrc : t.commDst) = static_cast<int32_t>(v);
        return "";
    case A_COMM_TAG:
        if (!isInt)
        {
            return "expected an integer";
        }
        // ASTRA-sim reads the tag as uint32: tags equal modulo 2^32 match.
        t.commTag = static_cast<int32_t>(static_cast<uint32_t>(v));
        return "";
    case A_PG_NAME:
        if (a.value_case() == A::kStringVal || a.value_case() == A::kBytesVal)
        {
            t.pgName = a.value_case() == A::kStringVal ? a.string_val() : a.bytes_val();
            return "";
        }
        if (!isInt)
        {
            return "expected a string";
        }
        t.pgName = std::to_string(v);
        return "";
    case A_IS_CPU_OP:
        if (a.value_case() != A::kBoolVal && !isInt)
        {
            return "expected a bool";
        }
        t.isCpuOp = a.value_case() == A::kBoolVal ? a.bool_val() : v != 0;
        return "";
    default: // A_INVOLVED_DIM
        if (a.value_case() != A::kBoolList)
        {
            return "expected a bool_list";
        }
        t.involvedDim.assign(a.bool_list().values().begin(), a.bool_list().values().end());
        return "";
    }
}

/// Whether interpreted attribute \p which has the same value in \p a and \p b.
bool
SameAttr(int which, const TraceNode& a, const TraceNode& b)
{
    switch (which)
    {
    case A_COMM_TYPE:
        return a.commType == b.commType;
    case A_COMM_SIZE:
        return a.commSize == b.commSize;
    case A_COMM_SRC:
        return a.commSrc == b.commSrc;
    case A_COMM_DST:
        return a.commDst == b.commDst;
    case A_COMM_TAG:
        return a.commTag == b.commTag;
    case A_PG_NAME:
        return a.pgName == b.pgName;
    case A_IS_CPU_OP:
        return a.isCpuOp == b.isCpuOp;
    default:
        return a.involvedDim == b.involvedDim;
    }
}

/**
 * Give attribute \p which of \p n the value \p t holds: the first attribute
 * of that name is left alone when it already reads as that value (so a node
 * read and written back is the same message) and overwritten otherwise; with
 * \p add, the attribute is appended when \p n has none.
 */
void
PutAttr(ChakraProtoMsg::Node& n, int which, const TraceNode& t, bool add)
{
    ChakraProtoMsg::AttributeProto* a = nullptr;
    for (auto& x : *n.mutable_attr())
    {
        if (x.name() == kAttrNames[which])
        {
            a = &x;
            break;
        }
    }
    if (a)
    {
        TraceNode current;
        if (ReadAttr(*a, which, current).empty() && SameAttr(which, current, t))
        {
            return;
        }
    }
    else if (add)
    {
        a = n.add_attr();
        a->set_name(kAttrNames[which]);
    }
    else
    {
        return;
    }
    switch (which)
    {
    case A_COMM_TYPE:
        a->set_int64_val(t.commType);
        break;
    case A_COMM_SIZE:
        if (t.commSize > static_cast<uint64_t>(INT64_MAX))
        {
            a->set_uint64_val(t.commSize); // beyond int64_val (Chakra's converters' kind)
        }
        else
        {
            a->set_int64_val(static_cast<int64_t>(t.commSize));
        }
        break;
    case A_COMM_SRC:
        a->set_int32_val(t.commSrc);
        break;
    case A_COMM_DST:
        a->set_int32_val(t.commDst);
        break;
    case A_COMM_TAG:
        a->set_int32_val(t.commTag);
        break;
    case A_PG_NAME:
        a->set_string_val(t.pgName);
        break;
    case A_IS_CPU_OP:
        a->set_bool_val(t.isCpuOp);
        break;
    default:
        a->mutable_bool_list()->clear_values();
        for (bool b : t.involvedDim)
        {
            a->mutable_bool_list()->add_values(b);
        }
        break;
    }
}

/// Replace \p field with \p ids unless it already holds them.
void
PutDeps(google::protobuf::RepeatedField<uint64_t>* field, const std::vector<uint64_t>& ids)
{
    if (!std::equal(field->begin(), field->end(), ids.begin(), ids.end()))
    {
        field->Clear();
        for (uint64_t d : ids)
        {
            field->Add(d);
        }
    }
}
} // namespace

bool
TraceNode::IsEmptyCollective() const
{
    return kind == COMM_COLL && commSize == 0 && commType != ChakraProtoMsg::BARRIER;
}

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
    if (len > static_cast<uint64_t>(INT_MAX))
    {
        Fail(source,
             "GlobalMetadata message of " + std::to_string(len) +
                 " bytes: protobuf reads at most 2 GiB a message");
    }
    ChakraProtoMsg::GlobalMetadata meta;
    if (!meta.ParseFromArray(bytes.data() + pos, static_cast<int>(len)))
    {
        Fail(source, "undecodable GlobalMetadata message");
    }
    g.version = meta.version();
    g.rawMetadata.assign(bytes, pos, len);
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
        if (len > static_cast<uint64_t>(INT_MAX))
        {
            Fail(source,
                 "node message #" + std::to_string(index) + " of " + std::to_string(len) +
                     " bytes: protobuf reads at most 2 GiB a message");
        }
        ChakraProtoMsg::Node n;
        if (!n.ParseFromArray(bytes.data() + pos, static_cast<int>(len)))
        {
            Fail(source, "undecodable node message #" + std::to_string(index));
        }
        TraceNode t;
        t.raw.assign(bytes, pos, len);
        pos += len;
        ++index;
        t.id = n.id();
        t.name = n.name();
        const int type = n.type();
        if (type < 0 || type > static_cast<int>(TraceNode::COMM_COLL))
        {
            Fail(source,
                 "node " + std::to_string(t.id) + ": unknown node type " + std::to_string(type) +
                     " (expected 0..7: INVALID, METADATA, MEM_LOAD, MEM_STORE, COMP, COMM_SEND, "
                     "COMM_RECV, COMM_COLL)");
        }
        t.kind = static_cast<TraceNode::Kind>(type);
        t.dataDeps.assign(n.data_deps().begin(), n.data_deps().end());
        t.ctrlDeps.assign(n.ctrl_deps().begin(), n.ctrl_deps().end());
        t.durationMicros = n.duration_micros();
        if (t.kind == TraceNode::METADATA)
        {
            t.metadataInputs = n.inputs().values();
        }
        uint32_t seen = 0; // the first attribute of a name counts, as in ASTRA-sim's feeder
        for (const auto& a : n.attr())
        {
            const int which = AttrIndex(a.name());
            if (which < 0 || !ReadOn(which, t.kind) || (seen & (1u << which)))
            {
                continue; // not interpreted (kept in t.raw), or a later duplicate
            }
            seen |= 1u << which;
            const std::string err = ReadAttr(a, which, t);
            if (!err.empty())
            {
                Fail(source, "node " + std::to_string(t.id) + ": " + a.name() + ": " + err);
            }
        }
        g.nodes.push_back(std::move(t));
    }
    return g;
}

TraceGraph
ReadChakraFile(const std::string& path, uint32_t rank)
{
    return ParseChakra(ReadInputFile<TraceError>(path, "trace file", InputLimits::kChakraBytes),
                       path,
                       rank);
}

std::string
SerializeChakra(const TraceGraph& g)
{
    std::string out;
    google::protobuf::io::StringOutputStream stream(&out);
    // One coded stream for the whole file. One per message (what
    // SerializeDelimitedToZeroCopyStream makes) takes the string's spare
    // capacity and zero-fills it each time: quadratic in the nodes (a
    // 64,000-microbatch pipeline trace took 6 s, 89% of it in memset).
    auto coded = std::make_unique<google::protobuf::io::CodedOutputStream>(&stream);
    ChakraProtoMsg::GlobalMetadata meta;
    // Messages as read parse again (the reader checked them).
    meta.ParseFromString(g.rawMetadata);
    meta.set_version(g.version);
    // Framing by protobuf's delimited-message utility: the varint length
    // prefix the reader expects. It fails only for a message over 2 GiB.
    if (!google::protobuf::util::SerializeDelimitedToCodedStream(meta, coded.get()))
    {
        Fail(g.source, "GlobalMetadata message too large to frame (over 2 GiB)");
    }
    for (const TraceNode& t : g.nodes)
    {
        ChakraProtoMsg::Node n;
        n.ParseFromString(t.raw);
        n.set_id(t.id);
        n.set_name(t.name);
        n.set_type(static_cast<ChakraProtoMsg::NodeType>(t.kind));
        PutDeps(n.mutable_data_deps(), t.dataDeps);
        PutDeps(n.mutable_ctrl_deps(), t.ctrlDeps);
        n.set_duration_micros(t.durationMicros);
        // A node built here (text, generators) gets every attribute it uses;
        // one read from a file keeps the set it had, plus what was given.
        const bool fresh = t.raw.empty();
        const bool p2p = t.kind == TraceNode::COMM_SEND || t.kind == TraceNode::COMM_RECV;
        if (t.kind == TraceNode::COMM_COLL)
        {
            PutAttr(n, A_COMM_TYPE, t, true);
        }
        if (t.IsComm())
        {
            PutAttr(n, A_COMM_SIZE, t, fresh || t.hasCommSize);
        }
        if (p2p)
        {
            PutAttr(n, A_COMM_SRC, t, t.commSrc >= 0);
            PutAttr(n, A_COMM_DST, t, t.commDst >= 0);
            PutAttr(n, A_COMM_TAG, t, fresh || t.commTag != 0);
        }
        PutAttr(n, A_PG_NAME, t, !t.pgName.empty());
        PutAttr(n, A_IS_CPU_OP, t, t.isCpuOp);
        PutAttr(n, A_INVOLVED_DIM, t, !t.involvedDim.empty());
        if (!google::protobuf::util::SerializeDelimitedToCodedStream(n, coded.get()))
        {
            Fail(g.source,
                 "node " + std::to_string(t.id) + ": message too large to frame (over 2 GiB)");
        }
    }
    coded.reset(); // gives back the buffer space it did not use
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
        if (!InputFileExists(path))
        {
            break;
        }
        graphs.push_back(ReadChakraFile(path, r));
    }
    if (graphs.empty())
    {
        Fail(prefix + ".0.et", "no trace file for rank 0 (expected <prefix>.<rank>.et)");
    }
    // Ranks are numbered without gaps: a later rank's file after a missing
    // one means a rank is missing, not that the job is smaller.
    const std::filesystem::path pre(prefix);
    const std::filesystem::path dir = pre.has_parent_path() ? pre.parent_path() : ".";
    const std::string stem = pre.filename().string() + ".";
    std::error_code ec;
    for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    {
        const std::string name = it->path().filename().string();
        if (name.size() <= stem.size() + 3 || name.compare(0, stem.size(), stem) != 0 ||
            name.compare(name.size() - 3, 3, ".et") != 0)
        {
            continue;
        }
        const std::string digits = name.substr(stem.size(), name.size() - stem.size() - 3);
        if (digits.empty() || digits.size() > 9 || (digits.size() > 1 && digits[0] == '0') ||
            !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        {
            continue;
        }
        const uint64_t rank = std::stoull(digits);
        if (rank > graphs.size())
        {
            Fail((dir / name).string(),
                 "trace file of rank " + digits + ", but none for rank " +
                     std::to_string(graphs.size()) + " (" + prefix + "." +
                     std::to_string(graphs.size()) + ".et)");
        }
    }
    return graphs;
}

CommGroups
ReadCommGroups(const std::string& path, uint32_t ranks)
{
    nlohmann::json j = nlohmann::json::parse(
        ReadInputFile<TraceError>(path, "comm-group file", InputLimits::kCommGroupBytes),
        [&path](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
            if (depth >= InputLimits::kJsonDepth)
            {
                Fail(path,
                     "JSON nested deeper than " + std::to_string(InputLimits::kJsonDepth) +
                         " levels");
            }
            return true;
        },
        false);
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

} // namespace ns3
