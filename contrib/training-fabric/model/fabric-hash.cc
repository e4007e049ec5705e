/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-hash.h"

#include <array>

namespace ns3
{

namespace
{
constexpr std::array<uint32_t, 256>
MakeCrcTable()
{
    std::array<uint32_t, 256> table{};
    for (uint32_t i = 0; i < 256; ++i)
    {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1) ? (0xEDB88320u ^ (c >> 1)) : (c >> 1);
        }
        table[i] = c;
    }
    return table;
}

constexpr std::array<uint32_t, 256> kCrcTable = MakeCrcTable();

inline uint64_t
Fmix(uint64_t z)
{
    // splitmix64 finalizer (Steele, Lea & Flood, OOPSLA 2014).
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
} // namespace

uint32_t
Crc32(const uint8_t* data, std::size_t len, uint32_t init)
{
    uint32_t c = ~init;
    for (std::size_t i = 0; i < len; ++i)
    {
        c = kCrcTable[(c ^ data[i]) & 0xff] ^ (c >> 8);
    }
    return ~c;
}

uint32_t
HashFiveTupleCrc32(const FiveTuple& t, uint32_t seed)
{
    const uint8_t b[13] = {static_cast<uint8_t>(t.srcIp >> 24),
                           static_cast<uint8_t>(t.srcIp >> 16),
                           static_cast<uint8_t>(t.srcIp >> 8),
                           static_cast<uint8_t>(t.srcIp),
                           static_cast<uint8_t>(t.dstIp >> 24),
                           static_cast<uint8_t>(t.dstIp >> 16),
                           static_cast<uint8_t>(t.dstIp >> 8),
                           static_cast<uint8_t>(t.dstIp),
                           static_cast<uint8_t>(t.srcPort >> 8),
                           static_cast<uint8_t>(t.srcPort),
                           static_cast<uint8_t>(t.dstPort >> 8),
                           static_cast<uint8_t>(t.dstPort),
                           t.protocol};
    return Crc32(b, sizeof(b), seed);
}

uint64_t
HashFiveTupleMix64(const FiveTuple& t, uint64_t seed)
{
    const uint64_t w0 = static_cast<uint64_t>(t.srcIp) << 32 | t.dstIp;
    const uint64_t w1 =
        static_cast<uint64_t>(t.srcPort) << 24 | static_cast<uint64_t>(t.dstPort) << 8 | t.protocol;
    uint64_t h = Fmix(seed + 0x9e3779b97f4a7c15ULL);
    h = Fmix(h ^ w0);
    h = Fmix(h ^ w1 ^ 0x9e3779b97f4a7c15ULL);
    return h;
}

} // namespace ns3
