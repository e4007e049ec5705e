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
    uint32_t srcIp{0};   //!< IPv4 source
    uint32_t dstIp{0};   //!< IPv4 destination
    uint16_t srcPort{0}; //!< UDP source port (a RoCEv2 QP's ECMP entropy)
    uint16_t dstPort{0}; //!< UDP destination port (4791)
    uint8_t protocol{0}; //!< IP protocol (17)
};

/**
 * \defgroup fabric-hash ECMP hashes of the 5-tuple
 * \ingroup training-fabric
 *
 * Two hashes, because they fail differently.
 *
 * HashFiveTupleCrc32 is what merchant switch ASICs offer: a CRC over the
 * header fields, seeded per switch. A CRC is linear over GF(2):
 * crc(a ^ b) = crc(a) ^ crc(b) ^ crc(0) for inputs of equal length, so inputs
 * that differ in a few low bits (sequential source ports, neighbouring
 * addresses) give hashes that differ in a fixed, correlated set of bits, and
 * a modulo on the low bits can leave some next hops unused. Two tiers that
 * use the same function and seed also make the same choice on the same bits
 * (hash polarization). A per-switch seed does not help (the CRC is affine in
 * it: another seed XORs a constant); choosing other hash bits per switch
 * does (EcmpRouting's HashOffset). The model reproduces both effects.
 *
 * HashFiveTupleMix64 is the idealized hash: every input bit flips every output
 * bit with probability close to 1/2 (avalanche), so any subset of its bits is
 * close to uniform even for sequential inputs. Use it to separate effects of
 * the topology and traffic from effects of the hash function.
 * @{
 */

/**
 * IEEE 802.3 CRC-32 (reflected polynomial 0xEDB88320), computed by zlib's
 * crc32_z().
 *
 * The usual convention: the register starts at ~init and the result is
 * inverted, so that init 0 gives the standard CRC-32 and chained calls
 * compose: Crc32(b, n, Crc32(a, m, 0)) == Crc32(a || b, m + n, 0). Check
 * value: Crc32("123456789", 9, 0) = 0xCBF43926.
 * \param data bytes
 * \param len their number
 * \param init 0, or the CRC of the preceding bytes
 * \return the CRC
 */
uint32_t Crc32(const uint8_t* data, std::size_t len, uint32_t init);

/**
 * CRC-32 over the 13 tuple bytes in network order (source IP, destination IP,
 * source port, destination port, protocol), with \p seed as the initial
 * value, as merchant switch ASICs compute a seeded ECMP hash. Linear in its
 * input: correlated tuples give correlated hashes.
 * \param t the tuple
 * \param seed the per-switch seed (0: plain CRC-32 of the 13 bytes)
 * \return the hash
 */
uint32_t HashFiveTupleCrc32(const FiveTuple& t, uint32_t seed);

/**
 * A well-mixed 64-bit hash: the tuple packed in two 64-bit words, combined
 * with the seed, each step finished by the splitmix64 avalanche.
 * \param t the tuple
 * \param seed any value; different seeds give independent-looking hashes
 * \return the hash
 */
uint64_t HashFiveTupleMix64(const FiveTuple& t, uint64_t seed);

/** @} */

} // namespace ns3

#endif /* FABRIC_HASH_H */
