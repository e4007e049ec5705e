/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Hashes of the RoCEv2 5-tuple for ECMP.
 */
#ifndef FABRIC_HASH_H
#define FABRIC_HASH_H

#include <cstddef>
#include <cstdint>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief The 5-tuple of a RoCEv2 flow, fields in host byte order.
 */
struct FiveTuple
{
    uint32_t srcIp{0};
    uint32_t dstIp{0};
    uint16_t srcPort{0};
    uint16_t dstPort{0};
    uint8_t protocol{0};
};

/**
 * IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320) over \p len bytes,
 * starting from \p init, with the usual pre- and post-inversion:
 * Crc32("123456789", 9, 0) = 0xCBF43926.
 */
uint32_t Crc32(const uint8_t* data, std::size_t len, uint32_t init);

/**
 * CRC-32 over the 13 tuple bytes in network order (source IP, destination IP,
 * source port, destination port, protocol), with \p seed as initial value:
 * the way merchant switch ASICs compute a seeded ECMP hash. Linear in its
 * input, so correlated tuples give correlated hashes.
 */
uint32_t HashFiveTupleCrc32(const FiveTuple& t, uint32_t seed);

/**
 * A well-mixed 64-bit hash: the tuple packed in two 64-bit words, combined
 * with the seed, each step finished by the splitmix64 avalanche (every input
 * bit flips each output bit with probability about 1/2).
 */
uint64_t HashFiveTupleMix64(const FiveTuple& t, uint64_t seed);

} // namespace ns3

#endif /* FABRIC_HASH_H */
