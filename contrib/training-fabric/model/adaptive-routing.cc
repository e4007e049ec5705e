/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "adaptive-routing.h"

#include "fabric-net-device.h"
#include "fabric-simulator-impl.h"
#include "fabric-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("AdaptiveRouting");
NS_OBJECT_ENSURE_REGISTERED(AdaptiveRouting);

TypeId
AdaptiveRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::AdaptiveRouting")
            .SetParent<FabricRouting>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<AdaptiveRouting>()
            .AddAttribute("Granularity",
                          "When the least-loaded port is chosen: Packet (every frame) or "
                          "Flowlet (a flowlet's first frame). Default Flowlet, the mode of "
                          "Broadcom's Dynamic Load Balancing that keeps a flow in order "
                          "(flowlet inactivity timer).",
                          EnumValue(FLOWLET),
                          MakeEnumAccessor(&AdaptiveRouting::m_granularity),
                          MakeEnumChecker(PACKET, "Packet", FLOWLET, "Flowlet"))
            .AddAttribute("PauseAware",
                          "A port whose class of the frame is paused by PFC counts as full. "
                          "Default true: a paused port drains nothing, whatever its queue.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&AdaptiveRouting::m_pauseAware),
                          MakeBooleanChecker())
            .AddAttribute("FlowletTimeout",
                          "Granularity Flowlet: the idle gap that starts a new flowlet. "
                          "Default 500 us, LetFlow's (Vanini et al., NSDI 2017).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&AdaptiveRouting::m_timeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Seed",
                          "Seed of the 5-tuple hash that indexes the flowlet table. Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&AdaptiveRouting::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TableSize",
                          "Entries of the flowlet table. Default 65536, CONGA's 64K-entry "
                          "flowlet table (Alizadeh et al., SIGCOMM 2014).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&AdaptiveRouting::m_size),
                          MakeUintegerChecker<uint32_t>(1, 1 << 24));
    return tid;
}

AdaptiveRouting::AdaptiveRouting()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

AdaptiveRouting::~AdaptiveRouting() = default;

void
AdaptiveRouting::SetSwitch(Ptr<FabricSwitch> sw)
{
    m_ports.clear();
    for (uint32_t i = 0; i < sw->GetNPorts(); ++i)
    {
        m_ports.push_back(PeekPointer(sw->GetPort(i)));
    }
}

int64_t
AdaptiveRouting::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

uint16_t
AdaptiveRouting::LeastLoaded(const uint16_t* candidates, uint32_t n, uint8_t cls)
{
    uint64_t best = UINT64_MAX;
    uint32_t choice = 0;
    uint32_t ties = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        NS_ABORT_MSG_IF(candidates[i] >= m_ports.size(),
                        "AdaptiveRouting: SetSwitch() was not called after the ports were added");
        const FabricNetDevice* dev = m_ports[candidates[i]];
        const uint64_t load =
            m_pauseAware && dev->IsPaused(cls) ? UINT64_MAX : dev->GetTotalQueueBytes();
        if (load < best || ties == 0)
        {
            best = load;
            choice = i;
            ties = 1;
        }
        else if (load == best && m_uniform->GetInteger(0, ties++) == 0)
        {
            choice = i; // reservoir sampling: each of the tied ports with probability 1/ties
        }
    }
    return candidates[choice];
}

uint16_t
AdaptiveRouting::SelectEgress(const RoceFrameInfo& info,
                              uint32_t srcHost,
                              uint32_t dstHost,
                              const uint16_t* candidates,
                              uint32_t n)
{
    const uint8_t cls = info.dscp >> 3;
    if (m_granularity == PACKET)
    {
        return LeastLoaded(candidates, n, cls);
    }
    bool fresh = false;
    FlowletTable::Entry& e = m_table.Lookup(HashFiveTupleMix64(FiveTupleOf(info), m_seed),
                                            FabricSimulatorImpl::FastNow(),
                                            m_timeout,
                                            m_size,
                                            candidates,
                                            n,
                                            fresh);
    if (fresh)
    {
        e.counter++;
        e.port = LeastLoaded(candidates, n, cls);
    }
    return e.port;
}

} // namespace ns3
