/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-trace-gen: write Chakra ET traces (<prefix>.<rank>.et and a comm-group
 * file groups.json next to them) for common training patterns, or convert a
 * text trace to Chakra ET.
 *
 *   tf-trace-gen dp        --ranks N --layers L --bytes B --compute US --out PREFIX
 *   tf-trace-gen moe       --ranks N --layers L --bytes B --compute US --out PREFIX
 *   tf-trace-gen pipeline  --ranks N --micro M --bytes B --compute US --out PREFIX
 *   tf-trace-gen convert   TEXT_FILE --out PREFIX
 *
 * dp: data-parallel, layer by layer: each layer's backward compute, then an
 *     all-reduce of its gradients (B bytes) that overlaps the next layer's
 *     compute (the all-reduce depends on the layer, the next layer does not
 *     wait for it); the iteration ends when every all-reduce is done.
 * moe: per layer, compute then an all-to-all of B bytes (MoE/DLRM dispatch)
 *     then compute then another all-to-all (combine).
 * pipeline: M micro-batches flow through N stages: each stage computes, then
 *     sends its activations (B bytes) to the next stage, which receives first.
 */
#include "ns3/execution-trace.h"
#include "ns3/scenario-config.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace ns3;

namespace
{
int
Usage()
{
    std::cerr << "usage: tf-trace-gen dp|moe|pipeline --ranks N [--layers L|--micro M] "
                 "--bytes SIZE --compute US --out PREFIX\n"
                 "       tf-trace-gen convert TEXT_FILE --out PREFIX\n";
    return 2;
}

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

/// Build the graphs of a named pattern.
std::vector<TraceGraph>
Generate(const std::string& pattern, uint32_t ranks, uint32_t count, uint64_t bytes, uint64_t us)
{
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
                    g.nodes.push_back(a);
                    prev = id++;
                }
            }
        }
        else // pipeline
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
                    g.nodes.push_back(s);
                    ++id;
                }
            }
        }
    }
    return graphs;
}

int
main(int argc, char** argv)
{
    if (argc < 2)
    {
        return Usage();
    }
    const std::string mode = argv[1];
    std::string out;
    std::string text;
    uint32_t ranks = 8;
    uint32_t count = 4;
    uint64_t bytes = 1000000;
    uint64_t us = 100;
    try
    {
        for (int i = 2; i < argc; ++i)
        {
            const std::string a = argv[i];
            auto value = [&]() -> std::string {
                if (i + 1 >= argc)
                {
                    throw std::invalid_argument(a + " needs a value");
                }
                return argv[++i];
            };
            if (a == "--out")
            {
                out = value();
            }
            else if (a == "--ranks")
            {
                ranks = static_cast<uint32_t>(std::stoul(value()));
            }
            else if (a == "--layers" || a == "--micro")
            {
                count = static_cast<uint32_t>(std::stoul(value()));
            }
            else if (a == "--bytes")
            {
                bytes = ParseByteSize(value(), "--bytes");
            }
            else if (a == "--compute")
            {
                us = std::stoull(value());
            }
            else if (mode == "convert" && text.empty() && a[0] != '-')
            {
                text = a;
            }
            else
            {
                throw std::invalid_argument("unknown argument " + a);
            }
        }
        if (out.empty() || ranks < 2 || count == 0 || bytes == 0)
        {
            return Usage();
        }
        std::vector<TraceGraph> graphs;
        if (mode == "convert")
        {
            std::ifstream in(text);
            if (!in)
            {
                throw TraceError(text + ": cannot open the text trace");
            }
            std::ostringstream s;
            s << in.rdbuf();
            graphs = ParseTextTrace(s.str(), text);
        }
        else if (mode == "dp" || mode == "moe" || mode == "pipeline")
        {
            graphs = Generate(mode, ranks, count, bytes, us);
        }
        else
        {
            return Usage();
        }
        ValidateWorkload(graphs, {});
        WriteChakraFiles(out, graphs);
        const std::size_t slash = out.find_last_of('/');
        const std::string groupsPath =
            (slash == std::string::npos ? std::string() : out.substr(0, slash + 1)) + "groups.json";
        std::ofstream groups(groupsPath);
        groups << "{\"all\": [";
        for (uint32_t r = 0; r < graphs.size(); ++r)
        {
            groups << (r ? ", " : "") << r;
        }
        groups << "]}\n";
        std::cout << "wrote " << graphs.size() << " ranks to " << out << ".<rank>.et and "
                  << groupsPath << "\n";
        return 0;
    }
    catch (const std::exception& e)
    {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    }
}
