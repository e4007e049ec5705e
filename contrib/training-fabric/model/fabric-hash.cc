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

/// Bytes of the tuple a HashFiveTupleCrc32 covers.
constexpr std::size_t kTupleBytes = 13;

/**
 * kTupleTable[i][v]: the register after the byte-at-a-time CRC of
 * kTupleBytes bytes, all zero but byte i, which is v, from a register of
 * 0. The register's update is linear over GF(2) in (register, byte), so
 * the register after any kTupleBytes bytes from register 0 is the XOR of
 * its bytes' entries; and a register r at the start is the same as r's
 * four bytes (lowest first) XORed into the first four bytes, each of them
 * first read into the register's low byte, with 0 there (the register
 * shifts right a byte per byte). So the tuple's CRC is 13 independent
 * loads, not a chain of 13 dependent ones (issue #15).
 */
constexpr std::array<std::array<uint32_t, 256>, kTupleBytes>
MakeTupleTables()
{
    std::array<std::array<uint32_t, 256>, kTupleBytes> t{};
    for (std::size_t i = 0; i < kTupleBytes; ++i)
    {
        for (uint32_t v = 0; v < 256; ++v)
        {
            uint32_t c = 0;
            for (std::size_t j = 0; j < kTupleBytes; ++j)
            {
                const uint32_t d = (j == i) ? v : 0;
                c = kCrc32Table[(c ^ d) & 0xff] ^ (c >> 8);
            }
            t[i][v] = c;
        }
    }
    return t;
}

constexpr std::array<std::array<uint32_t, 256>, kTupleBytes> kTupleTable = MakeTupleTables();
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
    static_assert(sizeof(b) == kTupleBytes, "the tables are made for these bytes");
    // Crc32(b, 13, seed), by kTupleTable: the register starts at ~seed, whose
    // bytes go into the first four.
    const uint32_t r = ~seed;
    uint32_t c = kTupleTable[0][b[0] ^ (r & 0xff)] ^ kTupleTable[1][b[1] ^ ((r >> 8) & 0xff)] ^
                 kTupleTable[2][b[2] ^ ((r >> 16) & 0xff)] ^ kTupleTable[3][b[3] ^ (r >> 24)];
    for (std::size_t i = 4; i < kTupleBytes; ++i)
    {
        c ^= kTupleTable[i][b[i]];
    }
    return ~c;
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
