/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "flowlet-routing.h"

#include "fabric-simulator-impl.h"
#include "splitmix64.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FlowletRouting");
NS_OBJECT_ENSURE_REGISTERED(FlowletRouting);

FlowletTable::Entry&
FlowletTable::Lookup(uint64_t hash,
                     Time now,
                     Time timeout,
                     uint32_t size,
                     const uint16_t* candidates,
                     uint32_t n,
                     bool& newFlowlet)
{
    if (m_entries.empty())
    {
        m_entries.resize(size);
    }
    Entry& e = m_entries[hash % m_entries.size()];
    newFlowlet = e.lastSeen.IsStrictlyNegative() || now - e.lastSeen > timeout;
    if (!newFlowlet)
    {
        newFlowlet = true;
        for (uint32_t i = 0; i < n; ++i)
        {
            if (candidates[i] == e.port)
            {
                newFlowlet = false;
                break;
            }
        }
    }
    e.lastSeen = now;
    return e;
}

TypeId
FlowletRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FlowletRouting")
            .SetParent<FabricRouting>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<FlowletRouting>()
            .AddAttribute("FlowletTimeout",
                          "Idle gap after which a flow's next frame starts a new flowlet. "
                          "Default 500 us, the flowlet timeout of LetFlow's evaluation "
                          "(Vanini et al., NSDI 2017) and of CONGA (Alizadeh et al., "
                          "SIGCOMM 2014).",
                          TimeValue(MicroSeconds(500)),
                          MakeTimeAccessor(&FlowletRouting::m_timeout),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Select",
                          "How a new flowlet picks its port: Random (LetFlow) or Hash (of the "
                          "5-tuple and the entry's flowlet counter). Default Random, as LetFlow.",
                          EnumValue(RANDOM),
                          MakeEnumAccessor(&FlowletRouting::m_select),
                          MakeEnumChecker(RANDOM, "Random", HASH, "Hash"))
            .AddAttribute("Seed",
                          "Seed of the 5-tuple hash that indexes the flowlet table (and "
                          "selects with Select=Hash); the helpers derive one per switch. "
                          "Default 0.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FlowletRouting::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("TableSize",
                          "Entries of the hash-indexed flowlet table (16 bytes each). Default "
                          "65536, CONGA's 64K-entry flowlet table (Alizadeh et al., "
                          "SIGCOMM 2014).",
                          UintegerValue(65536),
                          MakeUintegerAccessor(&FlowletRouting::m_size),
                          MakeUintegerChecker<uint32_t>(1, 1 << 24));
    return tid;
}

FlowletRouting::FlowletRouting()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

FlowletRouting::~FlowletRouting() = default;

int64_t
FlowletRouting::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

uint64_t
FlowletRouting::GetNFlowlets() const
{
    return m_flowlets;
}

uint16_t
FlowletRouting::SelectEgress(const RoceFrameInfo& info,
                             uint32_t srcHost,
                             uint32_t dstHost,
                             const uint16_t* candidates,
                             uint32_t n)
{
    const uint64_t h = HashFiveTupleMix64(FiveTupleOf(info), m_seed);
    bool fresh = false;
    FlowletTable::Entry& e =
        m_table.Lookup(h, FabricSimulatorImpl::FastNow(), m_timeout, m_size, candidates, n, fresh);
    if (fresh)
    {
        e.counter++;
        m_flowlets++;
        const uint64_t pick = m_select == RANDOM
                                  ? m_uniform->GetInteger(0, n - 1)
                                  : SplitMix64::Mix(h + e.counter * SplitMix64::kGamma) % n;
        e.port = candidates[pick];
        NS_LOG_LOGIC("new flowlet " << e.counter << " to host " << dstHost << " on port "
                                    << e.port);
    }
    return e.port;
}

} // namespace ns3
