/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "trace-runner.h"

#include "flow-log.h"
#include "run-cost.h"

#include "ns3/fabric-topology.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

namespace
{
/// A node's resource on its rank (ASTRA-sim's HardwareResource).
enum Resource
{
    CPU = 0,
    GPU_COMPUTE = 1,
    GPU_COMM = 2,
    NO_RESOURCE = 3,
};

Resource
ResourceOf(const TraceNode& n)
{
    if (n.isCpuOp)
    {
        return CPU;
    }
    if (n.kind == TraceNode::COMP)
    {
        return GPU_COMPUTE;
    }
    return n.kind == TraceNode::COMM_RECV ? NO_RESOURCE : GPU_COMM;
}
} // namespace

TraceGroupScope
GroupScopeOf(const TraceNode& n, const CommGroups& groups, std::size_t ranks)
{
    const std::vector<uint32_t>* members = FindGroup(n.pgName, groups);
    if (!members)
    {
        return TraceGroupScope::DEFAULT;
    }
    return members->size() == ranks ? TraceGroupScope::NAMED_WORLD : TraceGroupScope::NAMED_SUBSET;
}

std::vector<TraceCollective>
PlanTraceCollective(const TraceNode& n,
                    const std::vector<uint32_t>& group,
                    const TraceCollectiveOptions& o,
                    TraceGroupScope scope)
{
    const std::string type = CollectiveName(n.commType);
    auto a = o.algorithms.find(type);
    std::string algorithm =
        a != o.algorithms.end() ? a->second : (type == "all-to-all" ? "direct" : "ring");
    if (type == "barrier" || type == "broadcast" || type == "reduce")
    {
        algorithm = "chain"; // the plan has one algorithm for these
    }
    if (scope == TraceGroupScope::NAMED_SUBSET && algorithm == "hierarchical")
    {
        algorithm = "ring"; // one dimension over the members (CommunicatorGroup)
    }
    // involved_dim: the dimensions of o.dims this collective runs over.
    uint64_t size = 1;
    for (uint32_t d : o.dims)
    {
        size *= d;
    }
    std::vector<std::size_t> in;  // involved dimensions
    std::vector<std::size_t> out; // the others
    for (std::size_t j = 0; j < o.dims.size(); ++j)
    {
        const bool involved =
            scope != TraceGroupScope::DEFAULT || j >= n.involvedDim.size() || n.involvedDim[j];
        (involved ? in : out).push_back(j);
    }
    std::vector<std::vector<uint32_t>> groups{group};
    std::vector<uint32_t> dims = o.dims;
    std::vector<std::string> dimAlgorithms = o.dimAlgorithms;
    if (!out.empty() && size == group.size())
    {
        std::vector<uint64_t> stride(o.dims.size(), 1);
        for (std::size_t j = 1; j < o.dims.size(); ++j)
        {
            stride[j] = stride[j - 1] * o.dims[j - 1];
        }
        // Enumerate the coordinates of \p dimsOf (first fastest), calling f(offset).
        auto each = [&](const std::vector<std::size_t>& dimsOf, auto&& f) {
            std::vector<uint32_t> c(dimsOf.size(), 0);
            while (true)
            {
                uint64_t offset = 0;
                for (std::size_t k = 0; k < dimsOf.size(); ++k)
                {
                    offset += c[k] * stride[dimsOf[k]];
                }
                f(offset);
                std::size_t k = 0;
                while (k < dimsOf.size() && ++c[k] == o.dims[dimsOf[k]])
                {
                    c[k++] = 0;
                }
                if (k == dimsOf.size())
                {
                    return;
                }
            }
        };
        groups.clear();
        each(out, [&](uint64_t base) {
            groups.emplace_back();
            each(in, [&](uint64_t offset) { groups.back().push_back(group[base + offset]); });
        });
        dims.clear();
        dimAlgorithms.clear();
        for (std::size_t j : in)
        {
            dims.push_back(o.dims[j]);
            if (j < o.dimAlgorithms.size())
            {
                dimAlgorithms.push_back(o.dimAlgorithms[j]);
            }
        }
    }
    std::vector<TraceCollective> result;
    for (auto& members : groups)
    {
        if (members.size() < 2)
        {
            continue;
        }
        TraceCollective c;
        c.spec.type = type;
        c.spec.algorithm = algorithm;
        c.spec.chunks = o.chunks;
        c.spec.channels = o.channels;
        c.spec.bytes = n.commSize;
        if (type == "all-gather")
        {
            if (n.commSize > UINT64_MAX / members.size())
            {
                throw TraceError("all-gather of comm_size " + std::to_string(n.commSize) + " on " +
                                 std::to_string(members.size()) +
                                 " ranks: the output exceeds 2^64 bytes");
            }
            c.spec.bytes = n.commSize * members.size();
        }
        if (algorithm == "hierarchical" && dims.size() == 1)
        {
            // One dimension: its own algorithm, flat (the same transfers).
            c.spec.algorithm = dimAlgorithms.empty() ? "ring" : dimAlgorithms[0];
        }
        else if (algorithm == "hierarchical")
        {
            c.spec.dims = dims;
            c.spec.dimAlgorithms = dimAlgorithms;
        }
        c.members = std::move(members);
        result.push_back(std::move(c));
    }
    return result;
}

void
CheckTraceCollectives(const std::vector<TraceGraph>& graphs,
                      const CommGroups& groups,
                      const TraceCollectiveOptions& o)
{
    std::set<std::tuple<int64_t, std::size_t, std::vector<bool>, TraceGroupScope>> checked;
    for (const TraceGraph& g : graphs)
    {
        for (const TraceNode& n : g.nodes)
        {
            if (n.kind != TraceNode::COMM_COLL || n.IsSkipped())
            {
                continue;
            }
            const std::vector<uint32_t>* members = FindGroup(n.pgName, groups);
            const std::size_t ranks = members ? members->size() : graphs.size();
            const TraceGroupScope scope = GroupScopeOf(n, groups, graphs.size());
            if (!checked.emplace(n.commType, ranks, n.involvedDim, scope).second)
            {
                continue;
            }
            std::vector<uint32_t> all(ranks);
            for (uint32_t r = 0; r < ranks; ++r)
            {
                all[r] = r;
            }
            try
            {
                for (TraceCollective& c : PlanTraceCollective(n, all, o, scope))
                {
                    c.spec.ranks = static_cast<uint32_t>(c.members.size());
                    const std::string tooLarge = CheckPlanSize(c.spec); // as the run plans it
                    if (!tooLarge.empty())
                    {
                        throw std::invalid_argument(tooLarge);
                    }
                    c.spec.bytes = std::min<uint64_t>(c.spec.bytes, 1u << 20); // a cheap probe
                    PlanCollective(c.spec);
                }
            }
            catch (const std::exception& e)
            {
                throw TraceError(g.Where(n.id),
                                 CollectiveName(n.commType) + " on " + std::to_string(ranks) +
                                     " ranks: " + e.what());
            }
        }
    }
}

TraceRunner::TraceRunner(Ptr<FabricTopology> topo,
                         std::vector<TraceGraph> graphs,
                         CommGroups groups,
                         TraceCollectiveOptions options,
                         uint8_t trafficClass,
                         FlowLog* log)
    : m_topo(topo),
      m_graphs(std::move(graphs)),
      m_groups(std::move(groups)),
      m_options(std::move(options)),
      m_log(log)
{
    if (m_graphs.size() > topo->GetNHosts())
    {
        throw TraceError("the trace has " + std::to_string(m_graphs.size()) +
                         " ranks but the fabric only " + std::to_string(topo->GetNHosts()) +
                         " hosts");
    }
    m_engine = std::make_unique<CollectiveEngine>(topo, trafficClass, log);
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
        s.driven.assign(g.nodes.size(), 0);
        s.children.assign(g.nodes.size(), {});
        for (std::size_t i = 0; i < g.nodes.size(); ++i)
        {
            for (const auto* deps : {&g.nodes[i].dataDeps, &g.nodes[i].ctrlDeps})
            {
                for (uint64_t d : *deps)
                {
                    auto it = s.index.find(d);
                    if (it != s.index.end()) // absent nodes count as done
                    {
                        s.children[it->second].push_back(i);
                        s.waiting[i]++;
                    }
                }
            }
        }
        s.remaining = g.nodes.size();
        m_stats[r].nodeStart.assign(g.nodes.size(), Time(-1));
        m_stats[r].nodeFinish.assign(g.nodes.size(), Time(-1));
    }
    m_localRanks = static_cast<uint32_t>(m_graphs.size());
}

TraceRunner::~TraceRunner() = default;

namespace
{
/// The node indices of \p g in ascending node id.
std::vector<std::size_t>
ByIdOrder(const TraceGraph& g)
{
    std::vector<std::size_t> order(g.nodes.size());
    for (std::size_t i = 0; i < order.size(); ++i)
    {
        order[i] = i;
    }
    std::sort(order.begin(), order.end(), [&g](std::size_t a, std::size_t b) {
        return g.nodes[a].id < g.nodes[b].id;
    });
    return order;
}
} // namespace

std::string
TraceRunner::GroupOf(const TraceNode& n, std::vector<uint32_t>& group) const
{
    const std::vector<uint32_t>* members = FindGroup(n.pgName, m_groups);
    group.clear();
    if (members)
    {
        group = *members;
        return n.pgName;
    }
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        group.push_back(r);
    }
    return std::string();
}

void
TraceRunner::SetPerRank(Callback<bool, uint32_t> isLocal)
{
    m_perRank = true;
    m_localRanks = 0;
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        m_stats[r].local = isLocal(r);
        m_localRanks += m_stats[r].local ? 1 : 0;
    }

    // The k-th collective of each process group, from every member's k-th
    // COMM_COLL node of the group in ascending id, numbered as first named.
    struct Instance
    {
        std::vector<uint32_t> group;
        std::map<uint32_t, std::size_t> node; //!< rank -> node index
        uint32_t seq{0};
        uint32_t comm{0};
    };

    std::map<std::pair<std::string, uint32_t>, Instance> instances;
    std::vector<std::pair<std::string, uint32_t>> order;
    std::map<std::string, uint32_t> comms; // process group -> communicator
    std::vector<CollectiveEngine::ProgramEntry> program;
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        const TraceGraph& g = m_graphs[r];
        std::map<std::string, uint32_t> seq;
        for (std::size_t i : ByIdOrder(g))
        {
            const TraceNode& n = g.nodes[i];
            if (n.kind != TraceNode::COMM_COLL || n.IsSkipped())
            {
                continue;
            }
            std::vector<uint32_t> group;
            const std::string pg = GroupOf(n, group);
            if (std::find(group.begin(), group.end(), r) == group.end())
            {
                throw TraceError(g.Where(n.id),
                                 "rank " + std::to_string(r) + " is not in process group \"" +
                                     n.pgName +
                                     "\" (per-rank completion runs a collective on "
                                     "its group's ranks)");
            }
            const auto key = std::make_pair(pg, seq[pg]++);
            auto it = instances.find(key);
            if (it == instances.end())
            {
                Instance& inst = instances[key];
                inst.group = group;
                inst.seq = key.second;
                inst.comm = comms.emplace(pg, static_cast<uint32_t>(comms.size())).first->second;
                order.push_back(key);
                it = instances.find(key);
            }
            it->second.node[r] = i;
        }
    }
    for (const auto& key : order)
    {
        const Instance& inst = instances.at(key);
        const uint32_t r0 = inst.node.begin()->first;
        const TraceNode& n0 = m_graphs[r0].nodes[inst.node.begin()->second];
        const std::string what =
            "collective #" + std::to_string(inst.seq) + " of process group \"" + key.first + "\"";
        for (uint32_t m : inst.group)
        {
            auto it = inst.node.find(m);
            if (it == inst.node.end())
            {
                throw TraceError(m_graphs[r0].Where(n0.id),
                                 what + " has no counterpart on rank " + std::to_string(m) +
                                     " (per-rank completion pairs every member's k-th "
                                     "collective of a group, in ascending node id)");
            }
            const TraceNode& n = m_graphs[m].nodes[it->second];
            if (n.commType != n0.commType || n.commSize != n0.commSize ||
                n.involvedDim != n0.involvedDim)
            {
                throw TraceError(m_graphs[m].Where(n.id),
                                 what + " differs from rank " + std::to_string(r0) + "'s (node " +
                                     std::to_string(n0.id) +
                                     ") in type, comm_size or involved_dim");
            }
        }
        if (n0.IsEmptyCollective())
        {
            // Each rank's part completes with its own transfers, and this
            // one has none: it would not wait for the others.
            throw TraceError(m_graphs[r0].Where(n0.id),
                             what +
                                 " has comm_size 0: a collective that moves no data has no "
                                 "per-rank completion (sync \"collective\" completes it when its "
                                 "members have all joined it)");
        }
        const std::vector<TraceCollective> colls =
            PlanTraceCollective(n0,
                                inst.group,
                                m_options,
                                GroupScopeOf(n0, m_groups, m_graphs.size()));
        for (const auto& kv : inst.node)
        {
            m_state[kv.first].parts[kv.second] = Part{inst.seq, kNoPart, 0};
        }
        for (const TraceCollective& c : colls)
        {
            const auto id = static_cast<uint32_t>(program.size());
            program.push_back(CollectiveEngine::ProgramEntry{c.spec, c.members, inst.comm});
            m_partOf.emplace_back();
            for (uint32_t g = 0; g < c.members.size(); ++g)
            {
                const uint32_t m = c.members[g];
                const std::size_t node = inst.node.at(m);
                m_state[m].parts[node] = Part{inst.seq, id, g};
                m_partOf.back().emplace_back(m, node);
            }
        }
    }
    try
    {
        m_engine->PlanProgram(program,
                              // The engine asks about every host of the fabric; one without a
                              // trace rank (the trace may have fewer ranks) runs nothing here.
                              Callback<bool, uint32_t>([this](uint32_t host) {
                                  return host < m_stats.size() && m_stats[host].local;
                              }),
                              CollectiveEngine::PartDoneCallback([this](uint32_t c, uint32_t g) {
                                  Complete(m_partOf[c][g].first, m_partOf[c][g].second);
                              }));
    }
    catch (const std::invalid_argument& e)
    {
        throw TraceError(std::string("per-rank completion: ") + e.what());
    }
}

void
TraceRunner::SetUpPerRank()
{
    // Every point-to-point QP, by rank pair, its sends in ascending node id,
    // then every collective: the same QPs and flows on every process.
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::size_t>> sends;
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        for (std::size_t i : ByIdOrder(m_graphs[r]))
        {
            const TraceNode& n = m_graphs[r].nodes[i];
            if (n.kind == TraceNode::COMM_SEND && !n.IsSkipped())
            {
                sends[{r, static_cast<uint32_t>(n.Dst(r))}].push_back(i);
            }
        }
    }
    for (const auto& kv : sends)
    {
        const auto [src, dst] = kv.first;
        Channel& c = GetChannel(src, dst);
        for (std::size_t i : kv.second)
        {
            const TraceNode& n = m_graphs[src].nodes[i];
            uint32_t flow = 0;
            if (m_log)
            {
                flow = m_log->AddPosted(c.qp, src, dst, 3, n.commSize, -1, -1, n.id);
                m_log->NotPostedYet(flow);
            }
            c.sends.push_back(Send{n.commTag, i, flow});
        }
    }
    m_engine->SetUpRemaining();
}

void
TraceRunner::Start(DoneCallback done)
{
    m_done = done;
    if (m_perRank)
    {
        SetUpPerRank();
    }
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        RankState& s = m_state[r];
        if (!m_stats[r].local)
        {
            continue;
        }
        if (s.remaining == 0)
        {
            RankFinished(r);
            continue;
        }
        for (std::size_t i = 0; i < m_graphs[r].nodes.size(); ++i)
        {
            if (s.waiting[i] == 0)
            {
                s.ready[ResourceOf(m_graphs[r].nodes[i])].emplace(m_graphs[r].nodes[i].id, i);
            }
        }
        Dispatch(r);
    }
    if (m_driven == 0)
    {
        ScheduleDeadlockCheck(); // e.g. every rank starts with a receive
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
            if (m_log)
            {
                m_log->Received(self->sends.at(seq).flow);
            }
            const Send& send = self->sends.at(seq);
            Arrived(src, dst, send.tag, m_graphs[src].nodes[send.node].commSize);
        });
    c.qp->SetSendCompleteCallback([this, self, src](Ptr<RdmaQueuePair>, uint64_t seq) {
        if (m_log)
        {
            m_log->Acked(self->sends.at(seq).flow);
        }
        Complete(src, self->sends.at(seq).node);
    });
    return c;
}

void
TraceRunner::Dispatch(uint32_t rank)
{
    // Ready nodes in ascending id, each when its resource is free. A node
    // issued here may complete at once (and make others ready): then the
    // outer call goes round again instead of recursing into the set.
    RankState& s = m_state[rank];
    if (s.dispatching)
    {
        s.again = true;
        return;
    }
    s.dispatching = true;
    do
    {
        // One pass in ascending (id, node): each step issues the least
        // ready node after the last one issued whose resource is free at
        // that moment (a node issued may complete at once, freeing its
        // resource and readying others), as a scan of all ready nodes that
        // skips those of busy resources would.
        s.again = false;
        bool first = true;
        std::pair<uint64_t, std::size_t> last{0, 0};
        while (true)
        {
            int res = -1;
            std::set<std::pair<uint64_t, std::size_t>>::iterator next;
            for (int r = CPU; r <= NO_RESOURCE; ++r)
            {
                if (r != NO_RESOURCE && s.busy[r])
                {
                    continue;
                }
                const auto it = first ? s.ready[r].begin() : s.ready[r].upper_bound(last);
                if (it != s.ready[r].end() && (res < 0 || *it < *next))
                {
                    res = r;
                    next = it;
                }
            }
            if (res < 0)
            {
                break;
            }
            first = false;
            last = *next;
            s.ready[res].erase(next);
            if (res != NO_RESOURCE)
            {
                s.busy[res] = true;
            }
            Issue(rank, last.second);
        }
    } while (s.again);
    s.dispatching = false;
}

void
TraceRunner::Issue(uint32_t rank, std::size_t node)
{
    const TraceNode& n = m_graphs[rank].nodes[node];
    m_stats[rank].nodeStart[node] = Simulator::Now();
    if (n.IsSkipped())
    {
        Complete(rank, node);
        return;
    }
    switch (n.kind)
    {
    case TraceNode::COMM_SEND: {
        const uint32_t dst = static_cast<uint32_t>(n.Dst(rank));
        Channel& c = GetChannel(rank, dst);
        if (m_perRank)
        {
            // The receiving process knows the k-th message by the static order.
            NS_ASSERT(c.nextPost < c.sends.size()); // this node is one of them, unposted
            if (c.sends[c.nextPost].node != node)
            {
                Fail(m_graphs[rank].Where(n.id),
                     "issued before an earlier send to rank " + std::to_string(dst) + " (node " +
                         std::to_string(m_graphs[rank].nodes[c.sends[c.nextPost].node].id) +
                         "); per-rank completion needs a rank's sends to one peer "
                         "issued in ascending node id");
                break;
            }
            const Send& send = c.sends[c.nextPost++];
            if (m_log)
            {
                m_log->Posted(send.flow);
            }
            Drive(rank, node);
            m_topo->GetNic(rank)->PostSend(c.qp, n.commSize);
            break;
        }
        const uint32_t flow =
            m_log ? m_log->AddPosted(c.qp, rank, dst, 3, n.commSize, -1, -1, n.id) : 0;
        Drive(rank, node);
        const uint64_t seq = m_topo->GetNic(rank)->PostSend(c.qp, n.commSize);
        if (c.sends.size() <= seq)
        {
            c.sends.resize(seq + 1);
        }
        c.sends[seq] = Send{n.commTag, node, flow};
        break;
    }
    case TraceNode::COMM_RECV: {
        const uint32_t src = static_cast<uint32_t>(n.Src(rank));
        const MessageKey key{rank, src, n.commTag, n.commSize};
        m_waitingRecv[key].push_back(node);
        TryReceive(key);
        break;
    }
    case TraceNode::COMM_COLL: {
        std::vector<uint32_t> group;
        const std::string pg = GroupOf(n, group);
        const uint32_t seq = m_state[rank].collSeq[pg]++;
        if (m_perRank)
        {
            const Part& p = m_state[rank].parts.at(node);
            if (p.seq != seq)
            {
                Fail(m_graphs[rank].Where(n.id),
                     "collective #" + std::to_string(p.seq) + " of process group \"" + pg +
                         "\" issued as its #" + std::to_string(seq) +
                         "; per-rank completion needs a rank's collectives of one "
                         "group issued in ascending node id");
                break;
            }
            Drive(rank, node);
            if (p.collective == kNoPart)
            {
                Complete(rank, node); // a group of one: nothing to exchange
            }
            else
            {
                m_engine->StartPart(p.collective, p.rank);
            }
            break;
        }
        const std::string key = pg + "#" + std::to_string(seq);
        Instance& inst = m_instances[key];
        if (inst.members.empty())
        {
            inst.group = pg.empty() ? std::string("0") : pg;
            inst.seq = seq;
        }
        else
        {
            // The members of one collective must agree on what it is: the
            // engine plans it from one node (ASTRA-sim pairs them likewise).
            const auto [r0, i0] = inst.members.front();
            const TraceNode& n0 = m_graphs[r0].nodes[i0];
            if (n.commType != n0.commType || n.commSize != n0.commSize ||
                n.involvedDim != n0.involvedDim)
            {
                Fail(m_graphs[rank].Where(n.id),
                     "collective #" + std::to_string(seq) + " of process group \"" + inst.group +
                         "\" differs from rank " + std::to_string(r0) + "'s (node " +
                         std::to_string(n0.id) + ") in type, comm_size or involved_dim");
                break;
            }
        }
        inst.expected = static_cast<uint32_t>(group.size());
        inst.members.emplace_back(rank, node);
        if (inst.members.size() == inst.expected && !inst.started)
        {
            inst.started = true;
            StartCollective(key, n, group);
        }
        break;
    }
    default: {
        // COMP: duration_micros, 1 ns when zero (ASTRA-sim's issue_replay);
        // MEM_LOAD, MEM_STORE: duration_micros.
        Time t = MicroSeconds(n.durationMicros);
        if (n.kind == TraceNode::COMP && t.IsZero())
        {
            t = NanoSeconds(1);
        }
        if (n.kind == TraceNode::COMP && !n.isCpuOp)
        {
            m_stats[rank].compute += t;
        }
        Drive(rank, node);
        Simulator::Schedule(t, &TraceRunner::Complete, this, rank, node);
        break;
    }
    }
}

void
TraceRunner::StartCollective(const std::string& key,
                             const TraceNode& n,
                             const std::vector<uint32_t>& group)
{
    Instance& inst = m_instances[key];
    for (const auto& m : inst.members)
    {
        Drive(m.first, m.second);
    }
    std::vector<TraceCollective> colls =
        PlanTraceCollective(n, group, m_options, GroupScopeOf(n, m_groups, m_graphs.size()));
    inst.running = static_cast<uint32_t>(colls.size());
    if (colls.empty())
    {
        CollectiveDone(key, 0);
        return;
    }
    for (const TraceCollective& c : colls)
    {
        m_engine->Start(c.spec,
                        c.members,
                        MakeCallback(&TraceRunner::CollectiveDone, this).Bind(key));
    }
}

void
TraceRunner::CollectiveDone(std::string key, uint32_t id)
{
    Instance& inst = m_instances.at(key);
    if (inst.running > 1)
    {
        --inst.running;
        return;
    }
    inst.running = 0;
    for (const auto& m : inst.members)
    {
        Complete(m.first, m.second);
    }
}

void
TraceRunner::Arrived(uint32_t src, uint32_t dst, int32_t tag, uint64_t bytes)
{
    const MessageKey key{dst, src, tag, bytes};
    m_arrived[key]++;
    TryReceive(key);
}

void
TraceRunner::TryReceive(const MessageKey& key)
{
    const uint32_t dst = std::get<0>(key);
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
TraceRunner::Fail(const std::string& where, const std::string& what)
{
    if (m_localRanks != m_graphs.size())
    {
        throw TraceError(where, what); // the other processes must hear of it too
    }
    if (m_failure.empty())
    {
        m_failure = where + ": " + what;
        Simulator::Stop();
    }
}

void
TraceRunner::ThrowIfFailed() const
{
    if (!m_failure.empty())
    {
        throw TraceError(m_failure);
    }
}

void
TraceRunner::Drive(uint32_t rank, std::size_t node)
{
    RankState& s = m_state[rank];
    NS_ASSERT(!s.driven[node]);
    s.driven[node] = 1;
    ++m_driven;
}

void
TraceRunner::ScheduleDeadlockCheck()
{
    // Only a process that runs every rank sees all that is in flight.
    if (!m_checkPending && m_localRanks == m_graphs.size())
    {
        m_checkPending = true;
        Simulator::ScheduleNow(&TraceRunner::CheckDeadlock, this);
    }
}

void
TraceRunner::CheckDeadlock()
{
    m_checkPending = false;
    if (m_driven > 0 || m_ranksDone == m_localRanks || !m_failure.empty())
    {
        return;
    }
    uint32_t unfinished = 0;
    for (const RankStats& st : m_stats)
    {
        unfinished += st.done ? 0 : 1;
    }
    const std::string tail = " with nothing in flight: the trace is deadlocked (" +
                             std::to_string(unfinished) +
                             " ranks unfinished, each waiting on another)";
    for (uint32_t r = 0; r < m_graphs.size(); ++r)
    {
        if (m_stats[r].done)
        {
            continue;
        }
        for (const auto& [key, nodes] : m_waitingRecv)
        {
            if (std::get<0>(key) == r && !nodes.empty())
            {
                const TraceNode& n = m_graphs[r].nodes[nodes.front()];
                Fail(m_graphs[r].Where(n.id),
                     "waits to receive " + std::to_string(std::get<3>(key)) + " bytes from rank " +
                         std::to_string(std::get<1>(key)) + " (tag " +
                         std::to_string(std::get<2>(key)) + ")" + tail);
                return;
            }
        }
        for (const auto& kv : m_instances)
        {
            const Instance& inst = kv.second;
            for (const auto& [rank, node] : inst.members)
            {
                if (rank == r && !inst.started)
                {
                    const TraceNode& n = m_graphs[r].nodes[node];
                    Fail(m_graphs[r].Where(n.id),
                         "waits in collective #" + std::to_string(inst.seq) +
                             " of process group \"" + inst.group + "\", joined by " +
                             std::to_string(inst.members.size()) + " of its " +
                             std::to_string(inst.expected) + " members" + tail);
                    return;
                }
            }
        }
    }
    Fail("trace workload", "nodes wait" + tail);
}

void
TraceRunner::Complete(uint32_t rank, std::size_t node)
{
    RankState& s = m_state[rank];
    if (s.driven[node])
    {
        s.driven[node] = 0;
        if (--m_driven == 0)
        {
            ScheduleDeadlockCheck();
        }
    }
    const Resource res = ResourceOf(m_graphs[rank].nodes[node]);
    if (res != NO_RESOURCE)
    {
        s.busy[res] = false;
    }
    m_stats[rank].nodeFinish[node] = Simulator::Now();
    for (std::size_t c : s.children[node])
    {
        if (--s.waiting[c] == 0)
        {
            s.ready[ResourceOf(m_graphs[rank].nodes[c])].emplace(m_graphs[rank].nodes[c].id, c);
        }
    }
    if (--s.remaining == 0)
    {
        RankFinished(rank);
    }
    else
    {
        Dispatch(rank);
    }
}

void
TraceRunner::RankFinished(uint32_t rank)
{
    m_stats[rank].done = true;
    m_stats[rank].finish = Simulator::Now();
    if (++m_ranksDone == m_localRanks && !m_done.IsNull())
    {
        m_done();
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
