/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "path-probe.h"

#include "path-monitor.h"

#include "ns3/log.h"
#include "ns3/packet.h"

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

PathProbe::PathProbe() = default;

void
PathProbe::Attach(PathMonitor* monitor,
                  FabricTxObserver* hook,
                  Current* cur,
                  Ptr<FabricNetDevice> dev,
                  uint32_t hookIndex)
{
    NS_LOG_FUNCTION(this << dev << hookIndex);
    m_monitor = monitor;
    m_hook = hook;
    m_cur = cur;
    m_dev = dev;
    m_hookIndex = hookIndex;
    // The direct hook when it is free (one virtual call per frame), else the
    // port's trace source.
    m_traced = dev->GetTxObserver() != nullptr;
    if (m_traced)
    {
        dev->TraceConnectWithoutContext("TxBegin", MakeCallback(&PathProbe::TracedTxBegin, this));
    }
    else
    {
        dev->SetTxObserver(hook, hookIndex);
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
    else if (m_dev->GetTxObserver() == m_hook)
    {
        m_dev->SetTxObserver(nullptr);
    }
    m_dev = nullptr;
    m_monitor = nullptr;
    m_hook = nullptr;
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
    m_monitor->OnTxBegin(m_hookIndex, *p, cls, m_dev->GetTotalQueueBytes());
}

void
PathProbe::Roll(uint32_t bin)
{
    Current& c = *m_cur;
    if (c.bin != UINT32_MAX && (c.bytes != 0 || m_curPausePs != 0))
    {
        m_bins.push_back(LinkBin{c.bin, c.flows, c.bytes, c.dataBytes, c.maxQueue, m_curPausePs});
    }
    c = Current();
    c.bin = bin;
    m_curPausePs = 0;
}

void
PathProbe::AddPause(uint32_t bin, int64_t ps)
{
    if (ps == 0)
    {
        return;
    }
    if (bin == m_cur->bin)
    {
        m_curPausePs += ps;
    }
    else if (m_cur->bin == UINT32_MAX || bin > m_cur->bin)
    {
        Roll(bin);
        m_curPausePs = ps;
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

bool
PathProbe::IsBacklogged() const
{
    return m_dev && (m_dev->IsBusy() || m_dev->GetTotalQueueBytes() > 0);
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
