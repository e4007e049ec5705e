/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Execution traces: the in-memory graph of one rank's work, read from
 * MLCommons Chakra ET files (protobuf) or from this project's text format.
 */
#ifndef EXECUTION_TRACE_H
#define EXECUTION_TRACE_H

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief A bad trace: one line naming the file, the node and what was expected.
 */
class TraceError : public std::runtime_error
{
  public:
    using std::runtime_error::runtime_error;
};

/// One node of a rank's execution graph.
struct TraceNode
{
    /// What the node does (Chakra NodeType values).
    enum Kind : uint32_t
    {
        METADATA = 1,
        MEM_LOAD = 2,
        MEM_STORE = 3,
        COMP = 4,
        COMM_SEND = 5,
        COMM_RECV = 6,
        COMM_COLL = 7,
    };

    uint64_t id{0};
    std::string name;
    Kind kind{COMP};
    std::vector<uint64_t> dataDeps;
    std::vector<uint64_t> ctrlDeps;
    uint64_t durationMicros{0};
    // Communication (Chakra attributes comm_type, comm_size, comm_src,
    // comm_dst, comm_tag, pg_name).
    int64_t commType{-1}; //!< Chakra CollectiveCommType, COMM_COLL only
    uint64_t commSize{0}; //!< bytes
    int32_t commSrc{-1};
    int32_t commDst{-1};
    int32_t commTag{0};
    std::string pgName;
};

/// The execution graph of one rank.
struct TraceGraph
{
    uint32_t rank{0};
    std::string source; //!< file it came from (errors name it)
    std::string version{"0.0.4"};
    std::vector<TraceNode> nodes;
};

/// Communication groups: pg_name -> ranks (a comm-group JSON file).
typedef std::map<std::string, std::vector<uint32_t>> CommGroups;

/**
 * Parse a Chakra ET byte stream: a GlobalMetadata message, then Node
 * messages, each preceded by its length as an unsigned base-128 varint;
 * gzip-compressed streams (1f 8b) are inflated first. Throws TraceError
 * (truncated stream, bad varint, undecodable message, unknown node type).
 */
TraceGraph ParseChakra(const std::string& bytes, const std::string& source, uint32_t rank);
/// Read one Chakra ET file.
TraceGraph ReadChakraFile(const std::string& path, uint32_t rank);
/// Serialize in the same framing (uncompressed).
std::string SerializeChakra(const TraceGraph& graph);
/// Write `<prefix>.<rank>.et` for every graph.
void WriteChakraFiles(const std::string& prefix, const std::vector<TraceGraph>& graphs);
/// Read `<prefix>.0.et`, `<prefix>.1.et`, ... until a rank's file is missing.
std::vector<TraceGraph> ReadChakraPrefix(const std::string& prefix);
/// Read a comm-group JSON file ({"1": [0, 1, 2, 3], ...}).
CommGroups ReadCommGroups(const std::string& path, uint32_t ranks);

/**
 * Parse the text trace format (see doc/training-fabric.md, "Text traces"):
 * `rank <r>` sections of lines `<id>: comp <us>`, `<id>: send <bytes> to <r>
 * [tag <t>]`, `<id>: recv <bytes> from <r> [tag <t>]`, `<id>: coll
 * <collective> <bytes> [group <name>]`, each optionally followed by
 * `after <id>,<id>...` (data dependencies), `ctrl <id>,...` and `name <word>`.
 */
std::vector<TraceGraph> ParseTextTrace(const std::string& text, const std::string& source);

/**
 * Check one graph: unique ids, dependencies that exist, no cycle, known node
 * kinds, sizes where communication needs them. Throws TraceError.
 */
void ValidateGraph(const TraceGraph& graph);
/**
 * Check a whole workload: every graph valid, ranks 0..n-1, peers that exist,
 * and every SEND matched by a RECV on its peer (same source, destination,
 * tag and size), groups naming existing ranks. Throws TraceError.
 */
void ValidateWorkload(const std::vector<TraceGraph>& graphs, const CommGroups& groups);

/// Chakra CollectiveCommType -> collective name ("all-reduce", ...); "" if unsupported.
std::string CollectiveName(int64_t commType);

} // namespace ns3

#endif /* EXECUTION_TRACE_H */
