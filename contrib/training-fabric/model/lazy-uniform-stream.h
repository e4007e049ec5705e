/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LAZY_UNIFORM_STREAM_H
#define LAZY_UNIFORM_STREAM_H

#include "ns3/rng-stream.h"

#include <cstdint>
#include <memory>

namespace ns3
{

/**
 * \ingroup training-fabric
 * The draws of an ns-3 UniformRandomVariable on [0, 1) (default Min, Max and
 * Antithetic), with its RngStream built at the first draw.
 *
 * Building an RngStream jumps ahead to its stream (L'Ecuyer's MRG32k3a:
 * matrix powers, about 100,000 instructions); a UniformRandomVariable builds
 * one when it is created and again when AssignStreams sets its stream, so a
 * fabric of 1,000 switches spent 2,000 of them on RED draws that most
 * switches never make. This object takes its stream numbers exactly where a
 * UniformRandomVariable would (an automatic one when it is created, from
 * RngSeedManager::GetNextStreamIndex; 2^63 + n for SetStream(n)) with the
 * seed and run of that moment, so its draws are the same numbers.
 */
class LazyUniformStream
{
  public:
    /// Takes the next automatic stream, as a new UniformRandomVariable does.
    LazyUniformStream();
    /// As RandomVariableStream::SetStream: \p stream >= 0 fixes it, -1 takes an automatic one.
    void SetStream(int64_t stream);
    /// \return a draw on [0, 1), as UniformRandomVariable::GetValue()
    double GetValue();
    /// \return a draw on [min, max], as UniformRandomVariable::GetInteger(min, max)
    uint32_t GetInteger(uint32_t min, uint32_t max);

  private:
    uint32_t m_seed;                  //!< RngSeedManager's seed when the stream was set
    uint64_t m_run;                   //!< RngSeedManager's run when the stream was set
    uint64_t m_stream;                //!< the RngStream's stream index
    std::unique_ptr<RngStream> m_rng; //!< built at the first draw
};

} // namespace ns3

#endif /* LAZY_UNIFORM_STREAM_H */
