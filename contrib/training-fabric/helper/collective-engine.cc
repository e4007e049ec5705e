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
    Record rec;
    rec.id = id;
    rec.type = spec.type;
    rec.algorithm = spec.algorithm;
    rec.bytes = spec.bytes;
    rec.group = group;
    rec.start = Simulator::Now();
    rec.busFactor = run.plan.busFactor;
    rec.transfers = run.plan.transfers.size();
    m_records.push_back(rec);
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

CollectiveEngine::Qp&
CollectiveEngine::GetQp(uint32_t src, uint32_t dst, uint32_t channel)
{
    auto key = std::make_tuple(src, dst, channel);
    auto it = m_qps.find(key);
    if (it != m_qps.end())
    {
        return it->second;
    }
    Qp& q = m_qps[key];
    q.qp = m_topo->Connect(src, dst, m_class);
    Qp* self = &q;
    q.qp->SetRecvCompleteCallback(
        [this, self](Ptr<RdmaQueuePair>, uint64_t seq, uint64_t) { OnReceived(self, seq); });
    if (m_log)
    {
        q.qp->SetSendCompleteCallback([this, self](Ptr<RdmaQueuePair>, uint64_t seq) {
            m_log->Acked(self->inFlight.at(seq).flow);
        });
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
    Qp& q = GetQp(src, dst, tr.channel);
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
    const Pending p = q->inFlight.at(seq);
    if (m_log)
    {
        m_log->Received(p.flow);
    }
    Arrived(p.collective, p.transfer);
}

void
CollectiveEngine::Arrived(uint32_t collective, uint32_t transfer)
{
    Running& run = m_running[collective];
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
        char buf[256];
        const double dur = (r.finish - r.start).GetSeconds();
        // nccl-tests: algbw = S / t; busbw = algbw x factor.
        const double algbw = r.done && dur > 0 ? r.bytes * 8.0 / dur / 1e9 : 0.0;
        std::snprintf(buf,
                      sizeof(buf),
                      "%.12f,%.12f,%.12f,%.6f,%.6f",
                      r.start.GetSeconds(),
                      r.done ? r.finish.GetSeconds() : 0.0,
                      r.done ? dur : 0.0,
                      algbw,
                      algbw * r.busFactor);
        os << r.id << ',' << r.type << ',' << r.algorithm << ',' << r.bytes << ',' << r.group.size()
           << ',' << group << ',' << buf << ',' << r.transfers << ',' << (r.done ? 1 : 0) << '\n';
    }
    return os.str();
}

} // namespace ns3
