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
 * \brief Payload of a PFC MAC control frame (IEEE 802.1Qbb clause 36; the
 * MAC control frame format of IEEE 802.3 clause 31 and annex 31D).
 *
 * Follows an Ethernet II header with destination 01-80-C2-00-00-01 and
 * EtherType 0x8808:
 *
 *     bytes 0-1    opcode 0x0101
 *     bytes 2-3    priority-enable vector (bit i for class i, bits 15..8 zero)
 *     bytes 4-19   time[0] .. time[7], 16 bits each, in pause quanta
 *     bytes 20-45  zero padding
 *
 * 46 B of MAC client data make the frame 60 B, 64 B with the FCS (the Ethernet
 * minimum). A pause quantum is 512 bit times at the link rate. A timer of 0 for
 * an enabled class means resume (XON); classes not enabled are unaffected.
 */
class PfcHeader : public Header
{
  public:
    static constexpr uint16_t kEtherType = 0x8808; //!< MAC control (IEEE 802.3 clause 31)
    static constexpr uint16_t kOpcode = 0x0101;    //!< priority-based flow control
    static constexpr uint32_t kQuantumBits = 512;  //!< bit times in one pause quantum
    static constexpr uint16_t kMaxQuanta = 65535;  //!< largest 16-bit timer
    static constexpr uint32_t kPayloadBytes = 46;  //!< MAC control payload, padded
    static constexpr uint8_t kNumClasses = 8;      //!< priorities 0..7

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    void Print(std::ostream& os) const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;

    /**
     * Enable class \p cls with a pause of \p quanta.
     * \param cls priority, 0..7
     * \param quanta pause time in quanta (0 = resume)
     */
    void SetPause(uint8_t cls, uint16_t quanta);
    /**
     * Enable class \p cls with timer 0 (resume).
     * \param cls priority, 0..7
     */
    void SetResume(uint8_t cls);
    /**
     * \param cls priority, 0..7
     * \return the timer of \p cls (meaningful when the class is enabled)
     */
    uint16_t GetQuanta(uint8_t cls) const;
    /**
     * \param cls priority, 0..7
     * \return true when bit \p cls of the enable vector is set
     */
    bool IsClassEnabled(uint8_t cls) const;
    /// \return the priority-enable vector
    uint16_t GetClassEnableVector() const;
    /**
     * \return false when the deserialized opcode is not 0x0101 (an IEEE 802.3
     * PAUSE, for example); such a header has no class enabled.
     */
    bool IsValid() const;
    /// \return the opcode as written or read
    uint16_t GetOpcode() const;

    /**
     * Duration of \p quanta pause quanta (quanta x 512 bit times) at \p rate,
     * in whole picoseconds (exact for every rate that divides 512e12 b, such as
     * 10/25/40/50/100/200/400/800 Gb/s; else rounded down). Exact only when the
     * simulator runs at picosecond resolution, as the fabric does.
     * \param quanta timer value
     * \param rate link rate (non-zero)
     * \return the pause duration
     */
    static Time QuantaToTime(uint16_t quanta, const DataRate& rate);
    /**
     * Smallest number of quanta whose duration at \p rate is at least \p t,
     * capped at 65535 (0 for t <= 0).
     * \param t a duration
     * \param rate link rate
     * \return the quanta
     */
    static uint16_t TimeToQuanta(Time t, const DataRate& rate);

  private:
    uint16_t m_opcode{kOpcode};                   //!< opcode
    uint16_t m_enable{0};                         //!< priority-enable vector
    std::array<uint16_t, kNumClasses> m_quanta{}; //!< timers
};

/**
 * Build a complete 60-byte PFC frame: Ethernet II to 01-80-C2-00-00-01 with
 * EtherType 0x8808, then a PfcHeader. Classes set in \p classMask are enabled
 * with the timers in \p quanta (0 = resume); the other timers are 0.
 * \param src the sending port's MAC address
 * \param classMask bit i enables class i
 * \param quanta eight timers, indexed by class
 * \return the frame
 */
Ptr<Packet> MakePfcFrame(Mac48Address src, uint8_t classMask, const uint16_t quanta[8]);

/**
 * Fast check of bytes 12-15 of a frame: EtherType 0x8808 and opcode 0x0101.
 * \param p the frame (Ethernet header first)
 * \return true for a PFC frame; false for other MAC control frames too
 */
bool IsPfcFrame(const Packet& p);

/**
 * Fast check of bytes 12-13 of a frame: EtherType 0x8808 (any MAC control
 * frame, PFC or not). MAC control frames end at the receiving MAC (IEEE 802.3
 * clause 31): a port consumes them and never forwards them.
 * \param p the frame (Ethernet header first)
 * \return true for a MAC control frame
 */
bool IsMacControlFrame(const Packet& p);

} // namespace ns3

#endif /* PFC_HEADER_H */
