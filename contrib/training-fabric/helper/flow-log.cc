/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flow-log.h"

#include "ns3/fabric-topology.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace ns3
{

namespace
{
void
AppendUnsigned(std::string& s, uint64_t v)
{
    char b[24];
    s.append(b, std::to_chars(b, b + sizeof(b), v).ptr);
}

/// Seconds with 12 decimals from picoseconds, without floating point.
void
AppendSeconds(std::string& s, Time t)
{
    const int64_t ps = t.GetPicoSeconds();
    const uint64_t a = static_cast<uint64_t>(ps < 0 ? -ps : ps);
    if (ps < 0)
    {
        s += '-';
    }
    AppendUnsigned(s, a / 1000000000000ULL);
    char frac[24];
    char* end = std::to_chars(frac, frac + sizeof(frac), a % 1000000000000ULL).ptr;
    s += '.';
    s.append(12 - (end - frac), '0');
    s.append(frac, end);
}
} // namespace

std::string
FormatSeconds(Time t)
{
    std::string s;
    AppendSeconds(s, t);
    return s;
}

uint32_t
FlowLog::Add(const Flow& flow, Ptr<RdmaQueuePair> qp)
{
    const uint32_t id = static_cast<uint32_t>(m_flows.size());
    m_flows.push_back(flow);
    ++m_outstanding;
    if (!m_selectors.empty() && Selected(id, flow))
    {
        m_sampled.push_back({id, qp});
    }
    return id;
}

uint32_t
FlowLog::AddPosted(Ptr<RdmaQueuePair> qp,
                   uint32_t src,
                   uint32_t dst,
                   uint8_t priority,
                   uint64_t bytes,
                   int64_t collective,
                   int32_t step,
                   int64_t node)
{
    Flow f;
    f.src = src;
    f.dst = dst;
    f.srcPort = qp->GetSrcPort();
    f.priority = priority;
    f.bytes = bytes;
    f.start = Simulator::Now();
    f.collective = collective;
    f.step = step;
    f.node = node;
    f.sharedQp = true;
    return Add(f, qp);
}

void
FlowLog::NotPostedYet(uint32_t id)
{
    m_flows[id].posted = false;
}

void
FlowLog::Posted(uint32_t id)
{
    Flow& f = m_flows[id];
    f.posted = true;
    f.start = Simulator::Now();
}

bool
FlowLog::Selected(uint32_t id, const Flow& f) const
{
    for (const FlowSelector& s : m_selectors)
    {
        if (s.index >= 0 ? s.index == id
                         : ((s.collective >= 0 ? s.collective == f.collective
                                               : (s.node >= 0 && s.node == f.node)) &&
                            (s.step < 0 || s.step == f.step) && (s.src < 0 || s.src == f.src)))
        {
            return true;
        }
    }
    return false;
}

void
FlowLog::Received(uint32_t id)
{
    Flow& f = m_flows[id];
    f.received = true;
    f.finish = Simulator::Now();
}

void
FlowLog::Acked(uint32_t id)
{
    Flow& f = m_flows[id];
    f.completed = true;
    f.acked = Simulator::Now();
    --m_outstanding;
    if (!m_sampled.empty())
    {
        m_sampled.erase(std::remove_if(m_sampled.begin(),
                                       m_sampled.end(),
                                       [id](const Sampled& s) { return s.id == id; }),
                        m_sampled.end());
    }
    if (!m_acked.IsNull())
    {
        m_acked();
    }
}

void
FlowLog::SetSelectors(const std::vector<FlowSelector>& selectors)
{
    m_selectors = selectors;
}

void
FlowLog::SetAckedCallback(Callback<void> cb)
{
    m_acked = cb;
}

const std::vector<FlowLog::Sampled>&
FlowLog::GetSampled() const
{
    return m_sampled;
}

const std::vector<FlowLog::Flow>&
FlowLog::GetFlows() const
{
    return m_flows;
}

std::vector<FlowLog::Flow>&
FlowLog::GetFlows()
{
    return m_flows;
}

uint64_t
FlowLog::GetOutstanding() const
{
    return m_outstanding;
}

void
FlowLog::SetIdealFcts(const FabricTopology& topo, uint32_t mtu)
{
    for (Flow& f : m_flows)
    {
        f.idealFct = topo.GetIdealFct(f.src, f.dst, f.bytes, mtu);
    }
}

void
FlowLog::ReleaseQps()
{
    m_sampled.clear();
}

std::string
FlowLog::Csv() const
{
    std::string s = "flow,src,dst,sport,priority,bytes,start_s,finish_s,fct_s,ideal_fct_s,slowdown,"
                    "acked_s,retransmits,timeouts,completed,collective,step,node\n";
    s.reserve(s.size() + m_flows.size() * 192);
    // One field and its comma; a negative optional is empty.
    auto u = [&s](uint64_t v) {
        AppendUnsigned(s, v);
        s += ',';
    };
    auto opt = [&s](int64_t v, char sep) {
        if (v >= 0)
        {
            AppendUnsigned(s, static_cast<uint64_t>(v));
        }
        s += sep;
    };
    auto sec = [&s](Time t) {
        AppendSeconds(s, t);
        s += ',';
    };
    for (std::size_t i = 0; i < m_flows.size(); ++i)
    {
        const Flow& f = m_flows[i];
        u(i);
        u(f.src);
        u(f.dst);
        u(f.srcPort);
        u(f.priority);
        u(f.bytes);
        if (f.posted)
        {
            AppendSeconds(s, f.start);
        }
        s += ',';
        if (f.received && f.posted)
        {
            const Time fct = f.finish - f.start;
            sec(f.finish);
            sec(fct);
            sec(f.idealFct);
            char slow[32];
            std::snprintf(slow,
                          sizeof(slow),
                          "%.6f,",
                          f.idealFct.IsPositive() ? fct.GetSeconds() / f.idealFct.GetSeconds()
                                                  : 1.0);
            s += slow;
        }
        else
        {
            if (f.received)
            {
                AppendSeconds(s, f.finish); // the start is another rank's
            }
            s += ",,";
            sec(f.idealFct);
            s += ',';
        }
        if (f.completed)
        {
            AppendSeconds(s, f.acked);
        }
        s += ',';
        opt(f.sharedQp ? -1 : static_cast<int64_t>(f.retransmits), ',');
        opt(f.sharedQp ? -1 : static_cast<int64_t>(f.timeouts), ',');
        u(f.completed ? 1 : 0);
        opt(f.collective, ',');
        opt(f.step, ',');
        opt(f.node, '\n');
    }
    return s;
}

} // namespace ns3
