/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "lazy-uniform-stream.h"

#include "ns3/assert.h"
#include "ns3/rng-seed-manager.h"

#include <array>

namespace ns3
{

namespace
{
// MRG32k3a (P. L'Ecuyer, "Good parameters and implementations for combined
// multiple recursive random number generators", Operations Research 47(1),
// 1999; the stream and substream jumps from L'Ecuyer, Simard, Chen and
// Kelton, Operations Research 50(6), 2002): two order-3 recurrences
//   x(n) = (a12 x(n-2) - a13n x(n-3)) mod m1
//   y(n) = (a21 y(n-1) - a23n y(n-3)) mod m2
// combined as u = ((x - y) mod m1) / (m1 + 1), with x - y = 0 read as m1.
constexpr uint64_t kM1 = 4294967087ULL;
constexpr uint64_t kM2 = 4294944443ULL;
constexpr uint64_t kA12 = 1403580;
constexpr uint64_t kA13n = 810728;
constexpr uint64_t kA21 = 527612;
constexpr uint64_t kA23n = 1370589;
/// RngStream's normalization, the same double: 1 / (m1 + 1).
constexpr double kNorm = 1.0 / (static_cast<double>(kM1) + 1.0);

/// The most steps a jump takes: 2^(127 + 63), a stream index's top bit.
constexpr int kMaxPower = 190;

using Matrix = std::array<std::array<uint64_t, 3>, 3>;

/// \return a * b mod m for a, b < m < 2^32 (the product fits 64 bits).
inline uint64_t
MulMod(uint64_t a, uint64_t b, uint64_t m)
{
    return a * b % m;
}

/// \return a x b mod m (entries below m).
Matrix
MatMul(const Matrix& a, const Matrix& b, uint64_t m)
{
    Matrix c{};
    for (int i = 0; i < 3; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            uint64_t s = 0;
            for (int k = 0; k < 3; ++k)
            {
                s = (s + MulMod(a[i][k], b[k][j], m)) % m;
            }
            c[i][j] = s;
        }
    }
    return c;
}

/// v = a v mod m, for the three words of one component.
void
MatVec(const Matrix& a, uint64_t* v, uint64_t m)
{
    uint64_t r[3];
    for (int i = 0; i < 3; ++i)
    {
        uint64_t s = 0;
        for (int k = 0; k < 3; ++k)
        {
            s = (s + MulMod(a[i][k], v[k], m)) % m;
        }
        r[i] = s;
    }
    v[0] = r[0];
    v[1] = r[1];
    v[2] = r[2];
}

/// The transition matrices raised to 2^e, e = 0 .. kMaxPower, each squared from the one before.
struct JumpTable
{
    std::array<Matrix, kMaxPower + 1> a1; //!< component 1
    std::array<Matrix, kMaxPower + 1> a2; //!< component 2

    JumpTable()
    {
        // One step of each recurrence on the state (x(n-3), x(n-2), x(n-1)).
        a1[0] = Matrix{{{0, 1, 0}, {0, 0, 1}, {kM1 - kA13n, kA12, 0}}};
        a2[0] = Matrix{{{0, 1, 0}, {0, 0, 1}, {kM2 - kA23n, 0, kA21}}};
        for (int e = 1; e <= kMaxPower; ++e)
        {
            a1[e] = MatMul(a1[e - 1], a1[e - 1], kM1);
            a2[e] = MatMul(a2[e - 1], a2[e - 1], kM2);
        }
    }
};

const JumpTable&
Jumps()
{
    static const JumpTable table;
    return table;
}

/// Jump \p state ahead by n x 2^by steps (RngStream's AdvanceNthBy).
void
Advance(uint64_t n, int by, uint64_t* state)
{
    const JumpTable& t = Jumps();
    for (int bit = 0; bit < 64; ++bit)
    {
        if ((n >> bit) & 1)
        {
            // Powers of one matrix commute: the order of the bits is free.
            MatVec(t.a1[by + bit], state, kM1);
            MatVec(t.a2[by + bit], state + 3, kM2);
        }
    }
}
} // namespace

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
    m_started = false;
}

void
LazyUniformStream::Start()
{
    // RngStream(seed, stream, run): every word the seed (RngSeedManager
    // keeps it in [1, m2)), then the stream's and the run's jumps.
    NS_ASSERT(m_seed != 0 && m_seed < kM2);
    for (uint64_t& w : m_state)
    {
        w = m_seed;
    }
    Advance(m_stream, 127, m_state);
    Advance(m_run, 76, m_state);
    m_started = true;
}

double
LazyUniformStream::GetValue()
{
    if (!m_started)
    {
        Start();
    }
    // One step of each component (RngStream::RandU01 does this in doubles;
    // every product is below 2^53 there, so its values are these integers).
    // m * a13n is added so that the difference is not negative: below 2^54.
    const uint64_t p1 = (kA12 * m_state[1] + kM1 * kA13n - kA13n * m_state[0]) % kM1;
    m_state[0] = m_state[1];
    m_state[1] = m_state[2];
    m_state[2] = p1;
    const uint64_t p2 = (kA21 * m_state[5] + kM2 * kA23n - kA23n * m_state[3]) % kM2;
    m_state[3] = m_state[4];
    m_state[4] = m_state[5];
    m_state[5] = p2;
    // UniformRandomVariable::GetValue(0, 1): 0 + u * (1 - 0) is u exactly.
    const uint64_t d = p1 > p2 ? p1 - p2 : p1 + kM1 - p2;
    return static_cast<double>(d) * kNorm;
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
