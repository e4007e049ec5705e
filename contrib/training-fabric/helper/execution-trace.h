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
    /// \p message, made one line (OneLineError)
    explicit TraceError(const std::string& message);
    /// "<where>: <what>", made one line
    TraceError(const std::string& where, const std::string& what);
};

/// One node of a rank's execution graph.
struct TraceNode
{
    /// What the node does (Chakra NodeType values).
    enum Kind : uint32_t
    {
        INVALID = 0, //!< skipped, as ASTRA-sim skips INVALID_NODE
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
    // comm_dst, comm_tag, pg_name, involved_dim) and is_cpu_op.
    int64_t commType{-1}; //!< Chakra CollectiveCommType, COMM_COLL only
    /// Bytes, as Chakra's comm_size: for ALL_GATHER the input of one rank (the
    /// output is group size x comm_size); for the others the buffer of one rank
    /// (all-reduce, reduce-scatter input, all-to-all send buffer, broadcast).
    uint64_t commSize{0};
    /// comm_size was given. 0 given is a size (a collective that moves no
    /// data); absent is an error on GPU-side communication, as in
    /// ASTRA-sim's feeder (FeederV3's get_attr throws for a missing one).
    bool hasCommSize{false};
    int32_t commSrc{-1}; //!< -1: absent (a SEND's own rank, see Src())
    int32_t commDst{-1}; //!< -1: absent (a RECV's own rank, see Dst())
    int32_t commTag{0};
    std::string pgName;
    bool isCpuOp{false};           //!< is_cpu_op: runs on the rank's CPU, not its GPU
    std::vector<bool> involvedDim; //!< involved_dim; empty: every dimension
    /// METADATA nodes: inputs.values, where Chakra's PyTorch converter writes
    /// the process groups (ASTRA-sim's issue_pytorch_pg_metadata reads them).
    std::string metadataInputs;
    /// The Node message as read from a Chakra file (empty otherwise):
    /// SerializeChakra starts from it, so what is not interpreted survives.
    std::string raw;

    /// The sending rank of a SEND or RECV: comm_src, or for a SEND without it
    /// the own rank \p rank (ASTRA-sim's default); -1 when unknown.
    int32_t Src(uint32_t rank) const
    {
        return commSrc >= 0 || kind != COMM_SEND ? commSrc : static_cast<int32_t>(rank);
    }

    /// The receiving rank of a SEND or RECV: comm_dst, or for a RECV without
    /// it the own rank \p rank; -1 when unknown.
    int32_t Dst(uint32_t rank) const
    {
        return commDst >= 0 || kind != COMM_RECV ? commDst : static_cast<int32_t>(rank);
    }

    /// Communication (SEND, RECV or COLL).
    bool IsComm() const
    {
        return kind == COMM_SEND || kind == COMM_RECV || kind == COMM_COLL;
    }

    /// A collective other than a barrier of comm_size 0: it moves no data and
    /// completes when its members have all joined it.
    bool IsEmptyCollective() const;

    /// Nodes that take no time and move no data: INVALID_NODE, METADATA, and
    /// communication on the CPU side without comm_size (ASTRA-sim cannot run
    /// those either).
    bool IsSkipped() const
    {
        return kind == INVALID || kind == METADATA || (IsComm() && isCpuOp && commSize == 0);
    }
};

/// The execution graph of one rank.
struct TraceGraph
{
    uint32_t rank{0};
    std::string source; //!< file it came from (errors name it)
    std::string version{"0.0.4"};
    std::string rawMetadata; //!< the GlobalMetadata message as read (Chakra files)
    std::vector<TraceNode> nodes;

    /// "<source>: node <id>", how errors and warnings name a node
    std::string Where(uint64_t id) const
    {
        return source + ": node " + std::to_string(id);
    }
};

/**
 * Communication groups: pg_name -> ranks, from a comm-group JSON file
 * (ASTRA-sim's `{"<int>": [npu, ...]}`) and the process groups of METADATA
 * nodes. pg_name "" and "0" are always every rank (ASTRA-sim's default group).
 */
typedef std::map<std::string, std::vector<uint32_t>> CommGroups;

/**
 * Parse a Chakra ET byte stream: a GlobalMetadata message, then Node
 * messages, each preceded by its length as an unsigned base-128 varint;
 * gzip-compressed streams (1f 8b) are inflated first. Throws TraceError
 * (truncated stream, bad varint, undecodable message, unknown node type, an
 * attribute of a kind ASTRA-sim cannot read). Attributes are read as
 * ASTRA-sim's Chakra feeder reads them: the first one of a name counts,
 * integers of any protobuf kind; comm_size may also be a whole double.
 */
TraceGraph ParseChakra(const std::string& bytes, const std::string& source, uint32_t rank);
/// Read one Chakra ET file.
TraceGraph ReadChakraFile(const std::string& path, uint32_t rank);
/**
 * Serialize in the same framing (uncompressed). Nodes and metadata read from
 * a Chakra file are written from the messages as read, with only the fields
 * this simulator interprets updated, so every other attribute, the inputs and
 * outputs and the GlobalMetadata attributes survive a read and write.
 */
std::string SerializeChakra(const TraceGraph& graph);
/// Write `<prefix>.<rank>.et` for every graph.
void WriteChakraFiles(const std::string& prefix, const std::vector<TraceGraph>& graphs);
/// Read `<prefix>.0.et`, `<prefix>.1.et`, ... until a rank's file is missing.
std::vector<TraceGraph> ReadChakraPrefix(const std::string& prefix);
/**
 * Read a comm-group JSON file, ASTRA-sim's `{"<int>": [npu, ...], ...}`
 * (ASTRA-sim reads the keys as integers; this reader matches them to pg_name
 * as strings). Throws TraceError.
 */
CommGroups ReadCommGroups(const std::string& path, uint32_t ranks);

/// Chakra CollectiveCommType -> collective name ("all-reduce", ...); "" if unsupported.
std::string CollectiveName(int64_t commType);

} // namespace ns3

#endif /* EXECUTION_TRACE_H */
