/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "spray-routing.h"

#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SprayRouting");
NS_OBJECT_ENSURE_REGISTERED(SprayRouting);

TypeId
SprayRouting::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SprayRouting")
            .SetParent<FabricRouting>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<SprayRouting>()
            .AddAttribute("Mode",
                          "Random (uniform per frame, random packet spraying: Dixit et al., "
                          "INFOCOM 2013) or RoundRobin (per destination host). Default Random.",
                          EnumValue(RANDOM),
                          MakeEnumAccessor(&SprayRouting::m_mode),
                          MakeEnumChecker(RANDOM, "Random", ROUND_ROBIN, "RoundRobin"));
    return tid;
}

SprayRouting::SprayRouting()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

SprayRouting::~SprayRouting() = default;

int64_t
SprayRouting::AssignStreams(int64_t stream)
{
    m_uniform->SetStream(stream);
    return 1;
}

uint16_t
SprayRouting::SelectEgress(const RoceFrameInfo& info,
                           uint32_t srcHost,
                           uint32_t dstHost,
                           const uint16_t* candidates,
                           uint32_t n)
{
    if (m_mode == RANDOM)
    {
        return candidates[m_uniform->GetInteger(0, n - 1)];
    }
    if (dstHost >= m_next.size())
    {
        m_next.resize(dstHost + 1, 0); // grows once per destination, not per frame
    }
    const uint32_t i = m_next[dstHost] % n;
    m_next[dstHost] = i + 1;
    return candidates[i];
}

} // namespace ns3
