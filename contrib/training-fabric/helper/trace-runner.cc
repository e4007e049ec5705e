/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "trace-runner.h"

#include "ns3/fabric-topology.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <stdexcept>

namespace ns3
{

TraceRunner::TraceRunner(Ptr<FabricTopology> topo,
                         std::vector<TraceGraph> graphs,
                         CommGroups groups,
                         std::map<std::string, std::string> algorithms,
                         uint32_t chunks,
                         uint32_t channels,
                         uint8_t trafficClass)
    : m_topo(topo),
      m_graphs(std::move(graphs)),
      m_groups(std::move(groups)),
      m_algorithms(std::move(algorithms)),
      m_chunks(chunks),
      m_channels(channels)
{
    if (m_graphs.size() > topo->GetNHosts())
    {
        throw TraceError("the trace has " + std::to_string(m_graphs.size()) +
                         " ranks but the fabric only " + std::to_string(topo->GetNHosts()) +
                         " hosts");
    }
    m_engine = std::make_unique<CollectiveEngine>(topo, trafficClass);
    m_state.resize(m_graphs.size());
    m_stats.resize(m_graphs.size());
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        const TraceGraph& g = m_graphs[r];
        RankState& s = m_state[r];
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
        {
            s.index[g.nodes[i].id] = i;
        }
        s.waiting.assign(g.nodes.size(), 0);
        s.children.assign(g.nodes.size(), {});
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
        {
            for (const auto* deps : {&g.nodes[i].dataDeps, &g.nodes[i].ctrlDeps})
            {
                for (uint64_t d : *deps)
                {
                    s.children[s.index.at(d)].push_back(i);
                    s.waiting[i]++;
                }
            }
        }
        s.remaining = g.nodes.size();
        m_stats[r].nodeStart.assign(g.nodes.size(), Time(-1));
        m_stats[r].nodeFinish.assign(g.nodes.size(), Time(-1));
    }
}

TraceRunner::~TraceRunner() = default;

void
TraceRunner::SetHierarchy(const std::vector<uint32_t>& dims,
                          const std::vector<std::string>& algorithms)
{
    m_dims = dims;
    m_dimAlgorithms = algorithms;
}

void
TraceRunner::Start(DoneCallback done)
{
    m_done = done;
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        if (m_state[r].remaining == 0)
        {
            m_stats[r].done = true;
            m_stats[r].finish = Simulator::Now();
            ++m_ranksDone;
            continue;
        }
        for (std::size_t i = 0; i < m_graphs[r].nodes.size(); ++i)
        {
            if (m_state[r].waiting[i] == 0)
            {
                Issue(r, i);
            }
        }
    }
    if (m_ranksDone == m_graphs.size() && !m_done.IsNull())
    {
        m_done();
    }
}

TraceRunner::Channel&
TraceRunner::GetChannel(uint32_t src, uint32_t dst)
{
    auto key = std::make_pair(src, dst);
    auto it = m_pairs.find(key);
    if (it != m_pairs.end())
    {
        return it->second;
    }
    Channel& c = m_pairs[key];
    c.qp = m_topo->Connect(src, dst, 3);
    Channel* self = &c;
    c.qp->SetRecvCompleteCallback(
        [this, self, src, dst](Ptr<RdmaQueuePair>, uint64_t seq, uint64_t) {
            Arrived(src, dst, self->sends.at(seq).first);
        });
    c.qp->SetSendCompleteCallback([this, self, src](Ptr<RdmaQueuePair>, uint64_t seq) {
        Complete(src, self->sends.at(seq).second);
    });
    return c;
}

void
TraceRunner::Issue(uint32_t rank, std::size_t node)
{
    const TraceNode& n = m_graphs[rank].nodes[node];
    m_stats[rank].nodeStart[node] = Simulator::Now();
    switch (n.kind)
    {
    case TraceNode::COMM_SEND: {
        Channel& c = GetChannel(rank, static_cast<uint32_t>(n.commDst));
        const uint64_t seq = m_topo->GetNic(rank)->PostSend(c.qp, n.commSize);
        if (c.sends.size() <= seq)
        {
            c.sends.resize(seq + 1);
        }
        c.sends[seq] = {n.commTag, node};
        break;
    }
    case TraceNode::COMM_RECV: {
        const auto key = std::make_tuple(rank, static_cast<uint32_t>(n.commSrc), n.commTag);
        m_waitingRecv[key].push_back(node);
        TryReceive(rank, static_cast<uint32_t>(n.commSrc), n.commTag);
        break;
    }
    case TraceNode::COMM_COLL: {
        std::vector<uint32_t> group;
        if (n.pgName.empty())
        {
            for (uint32_t r = 0; r < m_graphs.size(); ++r)
            {
                group.push_back(r);
            }
        }
        else
        {
            group = m_groups.at(n.pgName);
        }
        const uint32_t seq = m_state[rank].collSeq[n.pgName]++;
        const std::string key = n.pgName + "#" + std::to_string(seq);
        Instance& inst = m_instances[key];
        inst.expected = static_cast<uint32_t>(group.size());
        inst.members.emplace_back(rank, node);
        if (inst.members.size() == inst.expected && !inst.started)
        {
            inst.started = true;
            CollectiveSpec spec;
            spec.type = CollectiveName(n.commType);
            auto a = m_algorithms.find(spec.type);
            spec.algorithm = a != m_algorithms.end()
                                 ? a->second
                                 : (spec.type == "all-to-all" ? "direct" : "ring");
            if (spec.type == "barrier" || spec.type == "broadcast" || spec.type == "reduce")
            {
                spec.algorithm = "chain"; // the plan has one algorithm for these
            }
            spec.bytes = n.commSize;
            spec.chunks = m_chunks;
            spec.channels = m_channels;
            if (spec.algorithm == "hierarchical")
            {
                spec.dims = m_dims;
                spec.dimAlgorithms = m_dimAlgorithms;
            }
            const uint32_t id = static_cast<uint32_t>(m_engine->GetRecords().size());
            m_instanceOfCollective[id] = key;
            m_engine->Start(spec,
                            group,
                            MakeCallback(&TraceRunner::CollectiveDone, this).Bind(key));
        }
        break;
    }
    default:
        m_stats[rank].compute += MicroSeconds(n.durationMicros);
        Simulator::Schedule(MicroSeconds(n.durationMicros),
                            &TraceRunner::Complete,
                            this,
                            rank,
                            node);
        break;
    }
}

void
TraceRunner::CollectiveDone(std::string key, uint32_t id)
{
    for (const auto& m : m_instances.at(key).members)
    {
        Complete(m.first, m.second);
    }
}

void
TraceRunner::Arrived(uint32_t src, uint32_t dst, int32_t tag)
{
    m_arrived[std::make_tuple(dst, src, tag)]++;
    TryReceive(dst, src, tag);
}

void
TraceRunner::TryReceive(uint32_t dst, uint32_t src, int32_t tag)
{
    const auto key = std::make_tuple(dst, src, tag);
    auto& waiting = m_waitingRecv[key];
    uint32_t& arrived = m_arrived[key];
    while (arrived > 0 && !waiting.empty())
    {
        --arrived;
        const std::size_t node = waiting.front();
        waiting.erase(waiting.begin());
        Complete(dst, node);
    }
}

void
TraceRunner::Complete(uint32_t rank, std::size_t node)
{
    RankState& s = m_state[rank];
    m_stats[rank].nodeFinish[node] = Simulator::Now();
    for (std::size_t c : s.children[node])
    {
        if (--s.waiting[c] == 0)
        {
            Issue(rank, c);
        }
    }
    if (--s.remaining == 0)
    {
        m_stats[rank].done = true;
        m_stats[rank].finish = Simulator::Now();
        if (++m_ranksDone == m_graphs.size() && !m_done.IsNull())
        {
            m_done();
        }
    }
}

const std::vector<TraceRunner::RankStats>&
TraceRunner::GetRanks() const
{
    return m_stats;
}

const std::vector<TraceGraph>&
TraceRunner::GetGraphs() const
{
    return m_graphs;
}

const CollectiveEngine&
TraceRunner::GetEngine() const
{
    return *m_engine;
}

std::vector<Ptr<RdmaQueuePair>>
TraceRunner::GetQps() const
{
    std::vector<Ptr<RdmaQueuePair>> qps = m_engine->GetQps();
    for (const auto& kv : m_pairs)
    {
        qps.push_back(kv.second.qp);
    }
    return qps;
}

} // namespace ns3
