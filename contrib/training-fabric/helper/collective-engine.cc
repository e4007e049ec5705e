/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-engine.h"

#include "flow-log.h"

#include "ns3/fabric-topology.h"
#include "ns3/rdma-nic.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <cstdio>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

CollectiveEngine::CollectiveEngine(Ptr<FabricTopology> topo, uint8_t trafficClass, FlowLog* log)
    : m_topo(topo),
      m_class(trafficClass),
      m_log(log)
{
}

CollectiveEngine::~CollectiveEngine() = default;

uint32_t
CollectiveEngine::Start(const CollectiveSpec& spec,
                        const std::vector<uint32_t>& group,
                        DoneCallback done)
{
    CollectiveSpec s = spec;
    s.ranks = static_cast<uint32_t>(group.size());
    Running run;
    run.plan = PlanCollective(s);
    run.group = group;
    run.done = done;
    const uint32_t id = static_cast<uint32_t>(m_records.size());
    m_records.push_back(MakeRecord(id, spec, group, run.plan));
    m_records.back().start = Simulator::Now();
    const std::size_t nt = run.plan.transfers.size();
    run.waiting.resize(nt);
    run.children.resize(nt);
    run.remaining = nt;
    for (uint32_t t = 0; t < nt; ++t)
    {
        const Transfer& tr = run.plan.transfers[t];
        run.waiting[t] = static_cast<uint32_t>(tr.deps.size());
        for (uint32_t d : tr.deps)
        {
            run.children[d].push_back(t);
        }
    }
    m_running.push_back(std::move(run));
    if (nt == 0)
    {
        m_records[id].finish = Simulator::Now();
        m_records[id].done = true;
        if (!done.IsNull())
        {
            done(id);
        }
        return id;
    }
    for (uint32_t t = 0; t < nt; ++t)
    {
        if (m_running[id].waiting[t] == 0)
        {
            Post(id, t);
        }
    }
    return id;
}

CollectiveEngine::Record
CollectiveEngine::MakeRecord(uint32_t id,
                             const CollectiveSpec& spec,
                             const std::vector<uint32_t>& group,
                             const CollectivePlan& plan)
{
    Record rec;
    rec.id = id;
    rec.type = spec.type;
    rec.algorithm = spec.algorithm;
    rec.bytes = spec.bytes;
    rec.group = group;
    rec.busFactor = plan.busFactor;
    rec.transfers = plan.transfers.size();
    return rec;
}

CollectiveEngine::Qp&
CollectiveEngine::GetQp(uint32_t comm, uint32_t src, uint32_t dst, uint32_t channel)
{
    auto key = std::make_tuple(comm, src, dst, channel);
    auto it = m_qps.find(key);
    if (it != m_qps.end())
    {
        return it->second;
    }
    Qp& q = m_qps[key];
    q.qp = m_topo->Connect(src, dst, m_class);
    q.id = static_cast<uint32_t>(m_qpList.size());
    m_qpList.push_back(&q);
    Qp* self = &q;
    q.qp->SetRecvCompleteCallback(
        [this, self](Ptr<RdmaQueuePair>, uint64_t seq, uint64_t) { OnReceived(self, seq); });
    if (m_log || m_perRank)
    {
        q.qp->SetSendCompleteCallback(
            [this, self](Ptr<RdmaQueuePair>, uint64_t seq) { OnSent(self, seq); });
    }
    return q;
}

void
CollectiveEngine::Post(uint32_t collective, uint32_t transfer)
{
    Running& run = m_running[collective];
    const Transfer& tr = run.plan.transfers[transfer];
    const uint32_t src = run.group[tr.src];
    const uint32_t dst = run.group[tr.dst];
    if (tr.bytes == 0 || src == dst)
    {
        // Nothing crosses the network (a zero-sized piece, or two ranks on
        // one host): the transfer is done at once.
        Simulator::ScheduleNow(&CollectiveEngine::Arrived, this, collective, transfer);
        return;
    }
    Qp& q = GetQp(0, src, dst, tr.channel);
    const uint32_t flow =
        m_log ? m_log->AddPosted(q.qp, src, dst, m_class, tr.bytes, collective, tr.step, -1) : 0;
    const uint64_t seq = m_topo->GetNic(src)->PostSend(q.qp, tr.bytes);
    if (q.inFlight.size() <= seq)
    {
        q.inFlight.resize(seq + 1);
    }
    q.inFlight[seq] = Pending{collective, transfer, flow};
}

void
CollectiveEngine::OnReceived(Qp* q, uint64_t seq)
{
    if (m_perRank)
    {
        // The sender may be another process: which transfer this is follows
        // from the QP's fixed order (SetUp), not from the sender's records.
        while (q->nextRecv >= q->order.size())
        {
            NS_ABORT_MSG_IF(m_running.size() >= m_program.size(),
                            "CollectiveEngine: a message beyond the last collective");
            SetUp(static_cast<uint32_t>(m_running.size()));
        }
        const auto [c, t] = q->order[q->nextRecv++];
        if (m_log)
        {
            m_log->Received(m_running[c].flow[t]);
        }
        Arrived(c, t);
        return;
    }
    const Pending p = q->inFlight.at(seq);
    if (m_log)
    {
        m_log->Received(p.flow);
    }
    Arrived(p.collective, p.transfer);
}

void
CollectiveEngine::OnSent(Qp* q, uint64_t seq)
{
    const Pending& p = q->inFlight.at(seq);
    if (m_log)
    {
        m_log->Acked(p.flow);
    }
    if (m_perRank)
    {
        Running& run = m_running[p.collective];
        const uint32_t src = PlanOf(p.collective).transfers[p.transfer].src;
        --run.partLeft[src];
        PartProgress(p.collective, src);
    }
}

void
CollectiveEngine::Arrived(uint32_t collective, uint32_t transfer)
{
    Running& run = m_running[collective];
    if (m_perRank)
    {
        // The transfers that wait for this arrival are sent from its
        // destination (PlanPerRank checks): local, as the arrival is.
        for (uint32_t c : run.children[transfer])
        {
            if (--run.waiting[c] == 0)
            {
                TryPost(collective, c);
            }
        }
        const Transfer& tr = PlanOf(collective).transfers[transfer];
        --run.partLeft[tr.dst];
        if (run.qpOf[transfer] == kNoQp)
        {
            --run.partLeft[tr.src]; // no network: "acknowledged" at once too
            PartProgress(collective, tr.src);
        }
        PartProgress(collective, tr.dst);
        return;
    }
    for (uint32_t c : run.children[transfer])
    {
        if (--run.waiting[c] == 0)
        {
            Post(collective, c);
        }
    }
    if (--run.remaining == 0)
    {
        Record& rec = m_records[collective];
        rec.finish = Simulator::Now();
        rec.done = true;
        if (!run.done.IsNull())
        {
            run.done(collective);
        }
    }
}

const CollectivePlan&
CollectiveEngine::PlanOf(uint32_t collective) const
{
    return m_perRank ? m_plans[m_program[collective].plan] : m_running[collective].plan;
}

void
CollectiveEngine::Program(const std::vector<ProgramEntry>& program,
                          uint32_t count,
                          Callback<bool, uint32_t> isLocal)
{
    NS_ABORT_MSG_IF(!m_running.empty() || m_perRank,
                    "CollectiveEngine: per-rank mode once, on a fresh engine");
    // Collectives of one spec (a workload's phases, a trace's repeated
    // collectives) share one plan, and of one host list one group.
    std::map<std::string, uint32_t> plans;
    std::map<std::vector<uint32_t>, uint32_t> groups;
    std::set<std::pair<uint32_t, uint32_t>> checked; // (plan, group)
    std::vector<Entry> entries;
    for (const ProgramEntry& e : program)
    {
        const uint32_t n = static_cast<uint32_t>(e.group.size());
        CollectiveSpec s = e.spec;
        s.ranks = n;
        std::ostringstream key;
        key << s.type << ' ' << s.algorithm << ' ' << s.bytes << ' ' << s.ranks << ' ' << s.chunks
            << ' ' << s.channels;
        for (uint32_t d : s.dims)
        {
            key << " d" << d;
        }
        for (const std::string& a : s.dimAlgorithms)
        {
            key << " a" << a;
        }
        auto p = plans.emplace(key.str(), static_cast<uint32_t>(m_plans.size()));
        if (p.second)
        {
            m_plans.push_back(PlanCollective(s));
            m_specs.push_back(e.spec);
        }
        auto g = groups.emplace(e.group, static_cast<uint32_t>(m_groups.size()));
        if (g.second)
        {
            m_groups.push_back(e.group);
        }
        entries.push_back(Entry{p.first->second, g.first->second, e.comm});
        if (!checked.emplace(p.first->second, g.first->second).second)
        {
            continue;
        }
        const CollectivePlan& plan = m_plans[p.first->second];
        for (const Transfer& t : plan.transfers)
        {
            // A rank can only wait for what arrives at it.
            for (uint32_t d : t.deps)
            {
                if (plan.transfers[d].dst != t.src)
                {
                    throw std::invalid_argument(s.algorithm + " " + s.type +
                                                " waits for data sent to another rank: it has "
                                                "no per-rank completion");
                }
            }
            if (t.bytes == 0 && e.group[t.src] != e.group[t.dst])
            {
                throw std::invalid_argument(
                    std::to_string(s.bytes) + " B leave empty transfers (" + s.algorithm +
                    " over " + std::to_string(n) + " ranks, " + std::to_string(s.channels) +
                    " channel(s) x " + std::to_string(s.chunks) +
                    " chunk(s)); per rank, every transfer must carry at least one byte");
            }
        }
    }
    // Collective k is entry k modulo the program's length.
    for (uint32_t k = 0; k < count; ++k)
    {
        m_program.push_back(entries[k % entries.size()]);
    }
    m_perRank = true;
    m_localHost.assign(m_topo->GetNHosts(), false);
    for (uint32_t h = 0; h < m_localHost.size(); ++h)
    {
        m_localHost[h] = isLocal(h);
    }
}

void
CollectiveEngine::PlanPerRank(const std::vector<CollectiveSpec>& phases,
                              uint32_t count,
                              const std::vector<uint32_t>& group,
                              Callback<bool, uint32_t> isLocal,
                              Callback<void> done)
{
    NS_ABORT_MSG_IF(phases.empty(), "CollectiveEngine::PlanPerRank: no phases");
    std::vector<ProgramEntry> program;
    for (const CollectiveSpec& spec : phases)
    {
        program.push_back(ProgramEntry{spec, group, 0});
    }
    Program(program, count, isLocal);
    m_allDone = done;
    for (uint32_t h : group)
    {
        m_localActive += m_localHost[h] ? 1 : 0;
    }
    // Each rank moves on to its next collective by itself.
    m_partDone = PartDoneCallback([this](uint32_t collective, uint32_t rank) {
        if (collective + 1 < m_program.size())
        {
            StartPart(collective + 1, rank);
        }
        else if (--m_localActive == 0 && !m_allDone.IsNull())
        {
            m_allDone();
        }
    });
}

void
CollectiveEngine::PlanProgram(std::vector<ProgramEntry> program,
                              Callback<bool, uint32_t> isLocal,
                              PartDoneCallback partDone)
{
    const auto count = static_cast<uint32_t>(program.size());
    Program(program, count, isLocal);
    m_partDone = partDone;
}

void
CollectiveEngine::StartPerRank()
{
    NS_ABORT_MSG_UNLESS(m_perRank, "CollectiveEngine::StartPerRank: PlanPerRank first");
    if (m_program.empty())
    {
        return;
    }
    const std::vector<uint32_t>& group = m_groups[m_program[0].group];
    for (uint32_t g = 0; g < group.size(); ++g)
    {
        if (m_localHost[group[g]])
        {
            StartPart(0, g);
        }
    }
}

void
CollectiveEngine::SetUpRemaining()
{
    if (m_perRank && !m_program.empty())
    {
        SetUp(static_cast<uint32_t>(m_program.size() - 1));
    }
}

void
CollectiveEngine::SetUp(uint32_t collective)
{
    // Collectives are set up in order, so that every process opens the same
    // QPs (source ports) and lists the same flows in the same order.
    while (m_running.size() <= collective)
    {
        const auto id = static_cast<uint32_t>(m_running.size());
        const Entry& e = m_program[id];
        const CollectivePlan& plan = m_plans[e.plan];
        const std::vector<uint32_t>& group = m_groups[e.group];
        const uint32_t n = static_cast<uint32_t>(group.size());
        const std::size_t nt = plan.transfers.size();
        Record rec = MakeRecord(id, m_specs[e.plan], group, plan);
        rec.started = false;
        Running run;
        run.waiting.resize(nt);
        run.children.resize(nt);
        run.qpOf.assign(nt, kNoQp);
        run.flow.assign(nt, 0);
        run.sends.resize(n);
        run.partLeft.assign(n, 0);
        run.started.assign(n, false);
        std::vector<uint32_t> byStep;
        for (uint32_t t = 0; t < nt; ++t)
        {
            const Transfer& tr = plan.transfers[t];
            run.waiting[t] = static_cast<uint32_t>(tr.deps.size());
            for (uint32_t d : tr.deps)
            {
                run.children[d].push_back(t);
            }
            run.sends[tr.src].push_back(t);
            ++run.partLeft[tr.src];
            ++run.partLeft[tr.dst];
            const uint32_t src = group[tr.src];
            const uint32_t dst = group[tr.dst];
            if (tr.bytes == 0 || src == dst)
            {
                continue;
            }
            Qp& q = GetQp(e.comm, src, dst, tr.channel);
            run.qpOf[t] = q.id;
            if (m_log)
            {
                run.flow[t] = m_log->AddPosted(q.qp, src, dst, m_class, tr.bytes, id, tr.step, -1);
                m_log->NotPostedYet(run.flow[t]);
            }
            byStep.push_back(t);
        }
        // Each QP carries its transfers by step, then plan index: an order
        // both ends know, which never waits for a later step (a dependency
        // is always of a lower step), so it cannot deadlock.
        std::stable_sort(byStep.begin(), byStep.end(), [&plan](uint32_t a, uint32_t b) {
            return plan.transfers[a].step < plan.transfers[b].step;
        });
        for (uint32_t t : byStep)
        {
            m_qpList[run.qpOf[t]]->order.emplace_back(id, t);
        }
        for (uint32_t g = 0; g < n; ++g)
        {
            run.localLeft += m_localHost[group[g]] ? 1 : 0;
        }
        rec.done = run.localLeft == 0;
        m_records.push_back(rec);
        m_running.push_back(std::move(run));
    }
}

void
CollectiveEngine::StartPart(uint32_t collective, uint32_t rank)
{
    SetUp(collective);
    Running& run = m_running[collective];
    Record& rec = m_records[collective];
    if (!rec.started)
    {
        rec.started = true;
        rec.start = Simulator::Now();
    }
    run.started[rank] = true;
    for (uint32_t t : run.sends[rank])
    {
        TryPost(collective, t);
    }
    PartProgress(collective, rank);
}

void
CollectiveEngine::TryPost(uint32_t collective, uint32_t transfer)
{
    uint32_t c = collective;
    uint32_t t = transfer;
    while (true)
    {
        Running& run = m_running[c];
        const Transfer& tr = PlanOf(c).transfers[t];
        const uint32_t src = m_groups[m_program[c].group][tr.src];
        if (!m_localHost[src] || !run.started[tr.src] || run.waiting[t] != 0)
        {
            return;
        }
        const uint32_t qid = run.qpOf[t];
        if (qid == kNoQp)
        {
            Simulator::ScheduleNow(&CollectiveEngine::Arrived, this, c, t);
            return;
        }
        Qp& q = *m_qpList[qid];
        if (q.nextPost == q.order.size() || q.order[q.nextPost] != std::make_pair(c, t))
        {
            return; // posted already, or an earlier transfer on this QP goes first
        }
        if (m_log)
        {
            m_log->Posted(run.flow[t]);
        }
        const uint64_t seq = m_topo->GetNic(src)->PostSend(q.qp, tr.bytes);
        if (q.inFlight.size() <= seq)
        {
            q.inFlight.resize(seq + 1);
        }
        q.inFlight[seq] = Pending{c, t, run.flow[t]};
        if (++q.nextPost == q.order.size())
        {
            return;
        }
        std::tie(c, t) = q.order[q.nextPost]; // the next one may be ready already
    }
}

void
CollectiveEngine::PartProgress(uint32_t collective, uint32_t rank)
{
    Running& run = m_running[collective];
    if (!run.started[rank] || run.partLeft[rank] != 0)
    {
        return;
    }
    // This rank's part is done: it moves on, whatever the others do.
    if (--run.localLeft == 0)
    {
        Record& rec = m_records[collective];
        rec.finish = Simulator::Now();
        rec.done = true;
    }
    if (!m_partDone.IsNull())
    {
        m_partDone(collective, rank);
    }
}

const std::vector<CollectiveEngine::Record>&
CollectiveEngine::GetRecords() const
{
    return m_records;
}

std::vector<Ptr<RdmaQueuePair>>
CollectiveEngine::GetQps() const
{
    std::vector<Ptr<RdmaQueuePair>> qps;
    for (const auto& kv : m_qps)
    {
        qps.push_back(kv.second.qp);
    }
    return qps;
}

std::string
CollectiveEngine::RecordsCsv() const
{
    std::ostringstream os;
    os << "collective,type,algorithm,bytes,ranks,group,start_s,finish_s,duration_s,algbw_gbps,"
          "busbw_gbps,transfers,completed\n";
    for (const Record& r : m_records)
    {
        std::string group;
        for (std::size_t i = 0; i < r.group.size(); ++i)
        {
            group += (i ? " " : "") + std::to_string(r.group[i]);
        }
        // Per-rank mode: a process none of whose ranks began the collective
        // leaves start_s empty (tools/merge-ranks.py takes the others').
        const bool timed = r.done && r.started;
        const double dur = (r.finish - r.start).GetSeconds();
        // nccl-tests: algbw = S / t; busbw = algbw x factor.
        const double algbw = timed && dur > 0 ? r.bytes * 8.0 / dur / 1e9 : 0.0;
        char start[32] = "";
        if (r.started)
        {
            std::snprintf(start, sizeof(start), "%.12f", r.start.GetSeconds());
        }
        char buf[256];
        std::snprintf(buf,
                      sizeof(buf),
                      "%s,%.12f,%.12f,%.6f,%.6f",
                      start,
                      timed ? r.finish.GetSeconds() : 0.0,
                      timed ? dur : 0.0,
                      algbw,
                      algbw * r.busFactor);
        os << r.id << ',' << r.type << ',' << r.algorithm << ',' << r.bytes << ',' << r.group.size()
           << ',' << group << ',' << buf << ',' << r.transfers << ',' << (r.done ? 1 : 0) << '\n';
    }
    return os.str();
}

} // namespace ns3
