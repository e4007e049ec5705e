/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-hash.h"

#include "splitmix64.h"

#include <array>

namespace ns3
{

namespace
{
/// The byte-at-a-time table of the reflected IEEE 802.3 polynomial 0xEDB88320.
constexpr std::array<uint32_t, 256>
MakeCrc32Table()
{
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i)
    {
        uint32_t c = i;
        for (int k = 0; k < 8; ++k)
        {
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        t[i] = c;
    }
    return t;
}

constexpr std::array<uint32_t, 256> kCrc32Table = MakeCrc32Table();
} // namespace

uint32_t
Crc32(const uint8_t* data, std::size_t len, uint32_t init)
{
    // zlib's crc32 conventions (the register starts at ~crc, the result is
    // inverted), so that init is both the seed and the chaining value; a
    // table here instead of zlib's call, which costs more than the 13 bytes
    // of a per-frame ECMP hash (issue #15).
    uint32_t c = ~init;
    for (std::size_t i = 0; i < len; ++i)
    {
        c = kCrc32Table[(c ^ data[i]) & 0xff] ^ (c >> 8);
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
    uint64_t h = SplitMix64::Mix(seed + SplitMix64::kGamma);
    h = SplitMix64::Mix(h ^ w0);
    h = SplitMix64::Mix(h ^ w1 ^ SplitMix64::kGamma);
    return h;
}

} // namespace ns3
