/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * splitmix64: the module's one seeded generator and 64-bit mix.
 */
#ifndef SPLITMIX64_H
#define SPLITMIX64_H

#include <cstdint>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief splitmix64 (Steele, Lea & Flood, "Fast splittable pseudorandom
 * number generators", OOPSLA 2014).
 *
 * A portable, seeded generator: the same seed gives the same sequence on
 * every platform and standard library (unlike std::uniform_int_distribution),
 * so scenario files and traces generated from a seed are reproducible
 * byte for byte. Its finalizer, Mix(), is also the avalanche step of the
 * Mix64 ECMP hash and decorrelates per-switch hash seeds.
 */
class SplitMix64
{
  public:
    /// The golden-ratio increment of the state, 2^64 / phi (odd).
    static constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ULL;

    /// The finalizer: every input bit flips every output bit with probability ~1/2.
    static constexpr uint64_t Mix(uint64_t z)
    {
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }

    explicit constexpr SplitMix64(uint64_t seed)
        : m_state(seed)
    {
    }

    /// \return the next 64-bit value of the sequence
    constexpr uint64_t Next()
    {
        m_state += kGamma;
        return Mix(m_state);
    }

    /// \return a value uniform in [0, n), n > 0, by rejection (no modulo bias)
    constexpr uint64_t Below(uint64_t n)
    {
        const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
        uint64_t x = Next();
        while (x >= limit)
        {
            x = Next();
        }
        return x % n;
    }

  private:
    uint64_t m_state;
};

} // namespace ns3

#endif /* SPLITMIX64_H */
