/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lazy-uniform-stream.h"

#include "ns3/assert.h"
#include "ns3/rng-seed-manager.h"

namespace ns3
{

LazyUniformStream::LazyUniformStream()
{
    SetStream(-1);
}

void
LazyUniformStream::SetStream(int64_t stream)
{
    NS_ASSERT(stream >= -1);
    // ns-3's split (RandomVariableStream::SetStream): automatic stream numbers
    // below 2^63, fixed ones from 2^63 up.
    m_stream = stream == -1 ? RngSeedManager::GetNextStreamIndex()
                            : (1ULL << 63) + static_cast<uint64_t>(stream);
    m_seed = RngSeedManager::GetSeed();
    m_run = RngSeedManager::GetRun();
    m_rng.reset();
}

double
LazyUniformStream::GetValue()
{
    if (!m_rng)
    {
        m_rng = std::make_unique<RngStream>(m_seed, m_stream, m_run);
    }
    // UniformRandomVariable::GetValue(0, 1): 0 + u * (1 - 0) is u exactly.
    return m_rng->RandU01();
}

uint32_t
LazyUniformStream::GetInteger(uint32_t min, uint32_t max)
{
    NS_ASSERT(min <= max);
    // UniformRandomVariable::GetInteger: GetValue(min, max + 1) truncated,
    // the same double operations in the same order.
    const double lo = min;
    const double hi = static_cast<double>(max) + 1.0;
    return static_cast<uint32_t>(lo + GetValue() * (hi - lo));
}

} // namespace ns3
