/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "fabric-hash.h"

#include "splitmix64.h"

#include <zlib.h>

namespace ns3
{

uint32_t
Crc32(const uint8_t* data, std::size_t len, uint32_t init)
{
    // zlib's CRC-32 is the IEEE 802.3 one with the same conventions (the
    // register starts at ~crc, the result is inverted), so its crc argument
    // is both the seed and the chaining value.
    return static_cast<uint32_t>(crc32_z(init, data, len));
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
