/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Next-hop selection policies of a fabric switch: ECMP hashing and static pinning.
 */
#ifndef FABRIC_ROUTING_H
#define FABRIC_ROUTING_H

#include "fabric-hash.h"
#include "roce-header.h"

#include "ns3/object.h"

#include <cstdint>
#include <unordered_map>

namespace ns3
{

/// \return the 5-tuple of a parsed frame (what ECMP and the flowlet tables hash)
inline FiveTuple
FiveTupleOf(const RoceFrameInfo& info)
{
    FiveTuple t;
    t.srcIp = info.srcIp;
    t.dstIp = info.dstIp;
    t.srcPort = info.srcPort;
    t.dstPort = info.dstPort;
    t.protocol = info.ipProto;
    return t;
}

/**
 * \ingroup training-fabric
 * \brief The one question a switch asks per frame: which of the equal-cost
 * next hops toward the destination does this frame take?
 *
 * Forwarding tables (all shortest-path next hops per destination host) are
 * computed from the topology and live in the switch; a policy only chooses
 * among them. ECMP and static pinning live here; flowlet switching
 * (FlowletRouting), adaptive routing (AdaptiveRouting) and packet spraying
 * (SprayRouting) have their own files.
 */
class FabricRouting : public Object
{
  public:
    static TypeId GetTypeId();

    /**
     * Choose the egress port.
     * \param info parsed headers of the frame
     * \param srcHost index of the source host
     * \param dstHost index of the destination host
     * \param candidates equal-cost egress ports (at least two)
     * \param n number of candidates
     * \return one of the candidates
     */
    virtual uint16_t SelectEgress(const RoceFrameInfo& info,
                                  uint32_t srcHost,
                                  uint32_t dstHost,
                                  const uint16_t* candidates,
                                  uint32_t n) = 0;

    /**
     * Fix the random streams of a policy that draws random numbers
     * (deterministic runs). Called by FabricSwitch::AssignStreams.
     * \return the number of streams used (default: none)
     */
    virtual int64_t AssignStreams(int64_t stream);
};

/**
 * \ingroup training-fabric
 * \brief Equal-cost multi-path: hash of the RoCEv2 5-tuple modulo the group size.
 *
 * The hash is CRC32 (as merchant ASICs compute it, seeded per switch) or a
 * well-mixed 64-bit hash. A CRC is linear in its input, so flows whose 5-tuples
 * differ in few bits (sequential UDP source ports) can land on correlated
 * members; the 64-bit mix avalanches every input bit.
 *
 * A CRC is also affine in its seed: another seed only XORs a constant into
 * the hash, so two tiers that both select by the hash's low bits split flows
 * on the same bits (polarization). Switch ASICs let the operator pick which
 * hash bits select the member (SAI's ECMP hash offset); HashOffset models
 * that as a right rotation of the CRC before the modulo.
 */
class EcmpRouting : public FabricRouting
{
  public:
    /// Hash function over the 5-tuple.
    enum HashType
    {
        CRC32, //!< IEEE 802.3 CRC-32 over the 13 tuple bytes, seed as initial value
        MIX64, //!< 64-bit avalanche mix (splitmix64 finalizer)
    };

    static TypeId GetTypeId();
    EcmpRouting();

    uint16_t SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n) override;

    /// \return the hash of \p t under this switch's function and seed
    uint64_t Hash(const FiveTuple& t) const;

  private:
    HashType m_hash;
    uint32_t m_seed;
    uint32_t m_offset; ///< CRC32 only: rotate right by this many bits
};

/**
 * \ingroup training-fabric
 * \brief Static routing: flows pinned to next hops by an operator's table.
 *
 * A pin matches either an exact 5-tuple or a (source host, destination host)
 * pair; the 5-tuple pin wins. Frames without a pin (or whose pin is not among
 * the shortest-path candidates, which would risk a loop) fall back to the
 * policy in attribute "Fallback" (ECMP with seed 0 unless set).
 */
class StaticRouting : public FabricRouting
{
  public:
    static TypeId GetTypeId();
    StaticRouting();

    /// Pin frames of exactly this 5-tuple to egress \p port.
    void PinFlow(const FiveTuple& tuple, uint16_t port);
    /// Pin every frame from host \p src to host \p dst to egress \p port.
    void PinHostPair(uint32_t src, uint32_t dst, uint16_t port);
    /// \return the number of pins
    std::size_t GetNPins() const;

    uint16_t SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n) override;

  private:
    void DoDispose() override;

    struct TupleHash
    {
        std::size_t operator()(const FiveTuple& t) const;
    };

    struct TupleEq
    {
        bool operator()(const FiveTuple& a, const FiveTuple& b) const;
    };

    std::unordered_map<FiveTuple, uint16_t, TupleHash, TupleEq> m_flowPins;
    std::unordered_map<uint64_t, uint16_t> m_pairPins;
    Ptr<FabricRouting> m_fallback;
};

/**
 * \ingroup training-fabric
 * \brief Rail affinity at a server switch of a rail-optimized fabric: traffic
 * of GPU i leaves through NIC i (uplink port FirstUplinkPort + i, with
 * i = source host mod NicsPerServer) whenever that uplink is a shortest-path
 * next hop; otherwise the Fallback policy decides.
 */
class RailAffinityRouting : public FabricRouting
{
  public:
    static TypeId GetTypeId();
    RailAffinityRouting();

    uint16_t SelectEgress(const RoceFrameInfo& info,
                          uint32_t srcHost,
                          uint32_t dstHost,
                          const uint16_t* candidates,
                          uint32_t n) override;

  private:
    void DoDispose() override;

    uint32_t m_nics;
    uint32_t m_firstUplink;
    Ptr<FabricRouting> m_fallback;
};

} // namespace ns3

#endif /* FABRIC_ROUTING_H */
