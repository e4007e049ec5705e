/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "trace-generator.h"

#include "ns3/splitmix64.h"

namespace ns3
{

namespace
{
TraceNode
Node(uint64_t id, const std::string& name, TraceNode::Kind kind, std::vector<uint64_t> deps)
{
    TraceNode n;
    n.id = id;
    n.name = name;
    n.kind = kind;
    n.dataDeps = std::move(deps);
    return n;
}
} // namespace

std::string
TracePatternList()
{
    std::string list;
    for (const char* p : kTracePatterns)
    {
        list += (list.empty() ? "" : ", ") + std::string(p);
    }
    return list;
}

bool
IsTracePattern(const std::string& name)
{
    for (const char* p : kTracePatterns)
    {
        if (name == p)
        {
            return true;
        }
    }
    return false;
}

std::vector<TraceGraph>
GenerateTrace(const std::string& pattern,
              uint32_t ranks,
              uint32_t count,
              uint64_t bytes,
              uint64_t us)
{
    if (pattern == "gossip")
    {
        return GenerateGossip(ranks, count, bytes, us, false, false, 1);
    }
    if (!IsTracePattern(pattern))
    {
        throw TraceError(pattern + ": unknown pattern (valid: " + TracePatternList() + ")");
    }
    std::vector<TraceGraph> graphs(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        TraceGraph& g = graphs[r];
        g.rank = r;
        g.source = pattern;
        uint64_t id = 0;
        if (pattern == "dp")
        {
            std::vector<uint64_t> reduces;
            uint64_t prev = UINT64_MAX;
            for (uint32_t l = 0; l < count; ++l)
            {
                TraceNode c = Node(id, "bwd_layer" + std::to_string(l), TraceNode::COMP, {});
                if (prev != UINT64_MAX)
                {
                    c.dataDeps.push_back(prev);
                }
                c.durationMicros = us;
                g.nodes.push_back(c);
                prev = id++;
                TraceNode a =
                    Node(id, "allreduce_layer" + std::to_string(l), TraceNode::COMM_COLL, {prev});
                a.commType = 0; // ALL_REDUCE
                a.commSize = bytes;
                a.hasCommSize = true;
                g.nodes.push_back(a);
                reduces.push_back(id++);
            }
            TraceNode step = Node(id++, "optimizer_step", TraceNode::COMP, reduces);
            step.durationMicros = us;
            g.nodes.push_back(step);
        }
        else if (pattern == "moe")
        {
            uint64_t prev = UINT64_MAX;
            for (uint32_t l = 0; l < count; ++l)
            {
                for (const char* part : {"dispatch", "combine"})
                {
                    TraceNode c = Node(id,
                                       std::string("expert_") + part + std::to_string(l),
                                       TraceNode::COMP,
                                       {});
                    if (prev != UINT64_MAX)
                    {
                        c.dataDeps.push_back(prev);
                    }
                    c.durationMicros = us;
                    g.nodes.push_back(c);
                    prev = id++;
                    TraceNode a = Node(id,
                                       std::string("alltoall_") + part + std::to_string(l),
                                       TraceNode::COMM_COLL,
                                       {prev});
                    a.commType = 6; // ALL_TO_ALL
                    a.commSize = bytes;
                    a.hasCommSize = true;
                    g.nodes.push_back(a);
                    prev = id++;
                }
            }
        }
        else if (pattern == "pipeline")
        {
            uint64_t prev = UINT64_MAX;
            for (uint32_t m = 0; m < count; ++m)
            {
                std::vector<uint64_t> deps;
                if (prev != UINT64_MAX)
                {
                    deps.push_back(prev);
                }
                if (r > 0)
                {
                    TraceNode rv =
                        Node(id, "recv_mb" + std::to_string(m), TraceNode::COMM_RECV, deps);
                    rv.commSrc = static_cast<int32_t>(r - 1);
                    rv.commDst = static_cast<int32_t>(r);
                    rv.commTag = static_cast<int32_t>(m);
                    rv.commSize = bytes;
                    rv.hasCommSize = true;
                    g.nodes.push_back(rv);
                    deps = {id++};
                }
                TraceNode c = Node(id, "fwd_mb" + std::to_string(m), TraceNode::COMP, deps);
                c.durationMicros = us;
                g.nodes.push_back(c);
                prev = id++;
                if (r + 1 < ranks)
                {
                    TraceNode s =
                        Node(id, "send_mb" + std::to_string(m), TraceNode::COMM_SEND, {prev});
                    s.commSrc = static_cast<int32_t>(r);
                    s.commDst = static_cast<int32_t>(r + 1);
                    s.commTag = static_cast<int32_t>(m);
                    s.commSize = bytes;
                    s.hasCommSize = true;
                    g.nodes.push_back(s);
                    ++id;
                }
            }
        }
    }
    return graphs;
}

std::vector<TraceGraph>
GenerateGossip(uint32_t ranks,
               uint32_t steps,
               uint64_t bytes,
               uint64_t us,
               bool random,
               bool delayByOne,
               uint64_t seed)
{
    if (ranks < 2)
    {
        throw TraceError("gossip: needs at least two learners");
    }
    // Per-step shift: 1 (ring successor) or drawn from a splitmix64 stream.
    std::vector<uint32_t> shift(steps, 1);
    SplitMix64 rng(seed);
    for (uint32_t s = 0; s < steps && random; ++s)
    {
        shift[s] = 1 + static_cast<uint32_t>(rng.Next() % (ranks - 1));
    }
    std::vector<TraceGraph> graphs(ranks);
    for (uint32_t r = 0; r < ranks; ++r)
    {
        TraceGraph& g = graphs[r];
        g.rank = r;
        g.source = "gossip";
        uint64_t id = 0;
        std::vector<uint64_t> recvOf;
        uint64_t prevCompute = UINT64_MAX;
        for (uint32_t s = 0; s < steps; ++s)
        {
            TraceNode c = Node(id, "compute" + std::to_string(s), TraceNode::COMP, {});
            if (prevCompute != UINT64_MAX)
            {
                c.dataDeps.push_back(prevCompute);
            }
            // The model received in step s-1 (synchronous) or s-2 (delay by one).
            const int64_t need = static_cast<int64_t>(s) - (delayByOne ? 2 : 1);
            if (need >= 0)
            {
                c.dataDeps.push_back(recvOf[need]);
            }
            c.durationMicros = us;
            g.nodes.push_back(c);
            prevCompute = id++;
            const uint32_t to = (r + shift[s]) % ranks;
            const uint32_t from = (r + ranks - shift[s]) % ranks;
            TraceNode snd =
                Node(id++, "send_model" + std::to_string(s), TraceNode::COMM_SEND, {prevCompute});
            snd.commSrc = static_cast<int32_t>(r);
            snd.commDst = static_cast<int32_t>(to);
            snd.commTag = static_cast<int32_t>(s);
            snd.commSize = bytes;
            snd.hasCommSize = true;
            g.nodes.push_back(snd);
            TraceNode rcv =
                Node(id, "recv_model" + std::to_string(s), TraceNode::COMM_RECV, {prevCompute});
            rcv.commSrc = static_cast<int32_t>(from);
            rcv.commDst = static_cast<int32_t>(r);
            rcv.commTag = static_cast<int32_t>(s);
            rcv.commSize = bytes;
            rcv.hasCommSize = true;
            g.nodes.push_back(rcv);
            recvOf.push_back(id++);
        }
    }
    return graphs;
}

} // namespace ns3
