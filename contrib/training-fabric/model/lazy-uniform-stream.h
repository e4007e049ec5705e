/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef LAZY_UNIFORM_STREAM_H
#define LAZY_UNIFORM_STREAM_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup training-fabric
 * The draws of an ns-3 UniformRandomVariable on [0, 1) (default Min, Max and
 * Antithetic), with its generator's state set up at the first draw.
 *
 * ns-3's generator is L'Ecuyer's MRG32k3a (RngStream). Setting up a stream
 * jumps its seed ahead by stream x 2^127 and run x 2^76 steps: one 3x3
 * matrix-vector product modulo m per set bit, with the transition matrices
 * raised to powers of two. ns-3 3.37 builds its table of those 190 powers
 * at the first RngStream a process makes, each power by squaring from the
 * start (18,000 matrix squarings in floating point): about 10 ms, which a
 * fabric whose first RED draw came in the run paid in the run (6% of the
 * 1,024-host benchmark's simulation wall time). A UniformRandomVariable
 * also builds its stream twice (when created and when AssignStreams sets
 * it), so a fabric of 1,000 switches spent 2,000 jumps on RED draws most
 * switches never make.
 *
 * This class is that generator, exactly: it takes its stream numbers where
 * a UniformRandomVariable would (an automatic one when it is created, from
 * RngSeedManager::GetNextStreamIndex; 2^63 + n for SetStream(n)) with the
 * seed and run of that moment, jumps at the first draw with a table built
 * once by squaring each power from the one before (190 squarings in
 * 64-bit integers, microseconds), and steps and combines the two
 * components as RngStream::RandU01 does. Every value involved is an integer
 * below 2^53 or the same double operation, so the draws are the same
 * numbers bit for bit (tested against ns-3's classes).
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
    /// Set the state: the seed in all six words, jumped by the stream and the run.
    void Start();

    uint32_t m_seed;       //!< RngSeedManager's seed when the stream was set
    uint64_t m_run;        //!< RngSeedManager's run when the stream was set
    uint64_t m_stream;     //!< the stream index
    bool m_started{false}; //!< whether m_state is set (at the first draw)
    uint64_t m_state[6]{}; //!< MRG32k3a's state: component 1, then 2 (each < its modulus)
};

} // namespace ns3

#endif /* LAZY_UNIFORM_STREAM_H */
