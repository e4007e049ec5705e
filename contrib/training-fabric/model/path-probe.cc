/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "path-probe.h"

#include "path-monitor.h"

#include "ns3/log.h"
#include "ns3/packet.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("PathProbe");
NS_OBJECT_ENSURE_REGISTERED(PathProbe);

TypeId
PathProbe::GetTypeId()
{
    static TypeId tid = TypeId("ns3::PathProbe")
                            .SetParent<Object>()
                            .SetGroupName("TrainingFabric")
                            .AddConstructor<PathProbe>();
    return tid;
}

PathProbe::PathProbe()
{
    m_cur.bin = UINT32_MAX; // no bin yet
}

void
PathProbe::Attach(PathMonitor* monitor,
                  RoceFlowClassifier* classifier,
                  Ptr<FabricNetDevice> dev,
                  uint32_t index,
                  bool entry)
{
    NS_LOG_FUNCTION(this << dev << index << entry);
    m_monitor = monitor;
    m_classifier = classifier;
    m_dev = dev;
    m_index = index;
    m_entry = entry;
    // The direct hook when it is free (one virtual call per frame), else the
    // port's trace source.
    m_traced = dev->GetTxObserver() != nullptr;
    if (m_traced)
    {
        dev->TraceConnectWithoutContext("TxBegin", MakeCallback(&PathProbe::TracedTxBegin, this));
    }
    else
    {
        dev->SetTxObserver(this, index);
    }
}

void
PathProbe::Detach()
{
    if (!m_dev)
    {
        return;
    }
    if (m_traced)
    {
        m_dev->TraceDisconnectWithoutContext("TxBegin",
                                             MakeCallback(&PathProbe::TracedTxBegin, this));
    }
    else if (m_dev->GetTxObserver() == this)
    {
        m_dev->SetTxObserver(nullptr);
    }
    m_dev = nullptr;
    m_monitor = nullptr;
}

void
PathProbe::DoDispose()
{
    Detach();
    Object::DoDispose();
}

void
PathProbe::TracedTxBegin(Ptr<const Packet> p, uint8_t cls)
{
    OnTxBegin(m_index, *p, cls, m_dev->GetTotalQueueBytes());
}

void
PathProbe::Roll(uint32_t bin)
{
    if (m_cur.bin != UINT32_MAX && (m_cur.bytes != 0 || m_cur.pausePs != 0))
    {
        m_bins.push_back(m_cur);
    }
    m_cur = LinkBin();
    m_cur.bin = bin;
}

void
PathProbe::OnTxBegin(uint32_t index, const Packet& p, uint8_t cls, uint64_t queueBytes)
{
    Time now;
    const uint32_t bin = m_monitor->BinNow(now);
    if (bin != m_cur.bin)
    {
        Roll(bin);
    }
    const uint32_t size = p.GetSize();
    m_cur.bytes += size;
    m_cur.maxQueue = std::max(m_cur.maxQueue, queueBytes);
    const RoceFlowClassifier::Result c = m_classifier->Classify(p, m_entry);
    if (c.flow == RoceFlowClassifier::kNotData)
    {
        return;
    }
    m_cur.dataBytes += size;
    m_cur.flows += m_monitor->ReportData(c, m_index, m_entry, bin, size, now);
}

void
PathProbe::AddPause(uint32_t bin, int64_t ps)
{
    if (ps == 0)
    {
        return;
    }
    if (bin == m_cur.bin)
    {
        m_cur.pausePs += ps;
    }
    else if (m_cur.bin == UINT32_MAX || bin > m_cur.bin)
    {
        Roll(bin);
        m_cur.pausePs = ps;
    }
    else if (!m_bins.empty() && m_bins.back().bin == bin)
    {
        m_bins.back().pausePs += ps;
    }
    else
    {
        // The bin before the current one (a frame already opened the next
        // bin at the very edge, before the sample that closes this one).
        LinkBin b;
        b.bin = bin;
        b.pausePs = ps;
        m_bins.push_back(b);
    }
}

void
PathProbe::Flush()
{
    Roll(UINT32_MAX);
}

Ptr<FabricNetDevice>
PathProbe::GetDevice() const
{
    return m_dev;
}

const std::vector<PathProbe::LinkBin>&
PathProbe::GetBins() const
{
    return m_bins;
}

void
PathProbe::AbsorbBins(std::vector<LinkBin> bins)
{
    m_bins = std::move(bins);
}

int64_t
PathProbe::SamplePause(uint32_t bin)
{
    // The port's counters include a pause still running.
    int64_t paused = 0;
    for (const Time& t : m_dev->GetCounters().pausedTime)
    {
        paused += t.GetPicoSeconds();
    }
    const int64_t delta = paused - m_pausedSoFarPs;
    m_pausedSoFarPs = paused;
    AddPause(bin, delta);
    return delta;
}

} // namespace ns3
