/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * IEEE 802.1Qbb priority-based flow control frames.
 */
#ifndef PFC_HEADER_H
#define PFC_HEADER_H

#include "ns3/data-rate.h"
#include "ns3/header.h"
#include "ns3/mac48-address.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <array>
#include <cstdint>

namespace ns3
{

class Packet;

/**
 * \ingroup training-fabric
 * \brief Payload of a PFC MAC control frame (IEEE 802.1Qbb clause 36).
 *
 * Follows an Ethernet II header with destination 01-80-C2-00-00-01 and
 * EtherType 0x8808: opcode 0x0101 (2 B), priority-enable vector (2 B, bit i
 * for class i), eight 16-bit timers in pause quanta of 512 bit times, then
 * zero padding to 46 B so that the frame is 60 B (64 B with FCS). A timer of
 * 0 for an enabled class means resume (XON).
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint16_t kEtherType = 0x8808; //!< MAC control
    static constexpr uint16_t kOpcode = 0x0101;    //!< priority-based flow control
    static constexpr uint32_t kQuantumBits = 512;  //!< one pause quantum
    static constexpr uint16_t kMaxQuanta = 65535;
    static constexpr uint32_t kPayloadBytes = 46; //!< minimum MAC client data

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /// Enable class \p cls with a pause of \p quanta.
    void SetPause(uint8_t cls, uint16_t quanta);
    /// Enable class \p cls with timer 0 (resume).
    void SetResume(uint8_t cls);
    uint16_t GetQuanta(uint8_t cls) const;
    bool IsClassEnabled(uint8_t cls) const;
    uint16_t GetClassEnableVector() const;
    /// \return false when the deserialized opcode is not 0x0101
    bool IsValid() const;

    /// Duration of \p quanta pause quanta at \p rate (exact in picoseconds).
    static Time QuantaToTime(uint16_t quanta, const DataRate& rate);
    /// Smallest number of quanta covering \p t at \p rate, capped at 65535.
    static uint16_t TimeToQuanta(Time t, const DataRate& rate);

  private:
    uint16_t m_opcode{kOpcode};
    uint16_t m_enable{0};
    std::array<uint16_t, 8> m_quanta{};
};

/**
 * Build a complete PFC frame from \p src: classes set in \p classMask carry
 * the timers in \p quanta.
 */
Ptr<Packet> MakePfcFrame(Mac48Address src, uint8_t classMask, const uint16_t quanta[8]);

/// \return true when the frame's EtherType is MAC control (0x8808)
bool IsPfcFrame(const Packet& p);

} // namespace ns3

#endif /* PFC_HEADER_H */
