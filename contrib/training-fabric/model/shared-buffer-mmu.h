/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Shared-buffer memory management unit of a switch: ingress admission with
 * per-queue reserved space, a dynamic-threshold shared pool and PFC headroom;
 * XOFF/XON decisions; RED/ECN marking probability at egress.
 */
#ifndef SHARED_BUFFER_MMU_H
#define SHARED_BUFFER_MMU_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Shared-buffer MMU in the style of merchant switch silicon.
 *
 * Every byte in the switch is charged to the ingress (port, class) it came
 * through, in one of three regions:
 *  - reserved: the first ReservedBytes of each ingress (port, class);
 *  - shared: a pool of BufferSize - reserved - headroom, where one (port,
 *    class) may hold at most Alpha x (free shared bytes) (dynamic threshold,
 *    Choudhury & Hahne 1998);
 *  - headroom (PFC only): per port, up to H bytes for each lossless class,
 *    absorbing what is still in flight after that class's pause is sent
 *    (classes pause on their own; a switch's per-priority-group headroom).
 *    The pool leaves out one H per port, and a frame into headroom must
 *    also fit in BufferSize.
 *
 * With PFC, a (port, class) that reaches its threshold or spills into headroom
 * sends XOFF upstream; it sends XON when its headroom is empty and its shared
 * use is XonOffset below the threshold (or zero). A frame is dropped only when
 * headroom overflows. Without PFC (lossy), a frame that fits neither reserved
 * nor shared space is dropped.
 *
 * Per-port headroom, unless set explicitly, is derived from the port's link:
 *   H = 3 x MaxFrame + PfcFrame + 2 x R x d + R x ResponseTime
 * (line bytes): the frame whose arrival crossed the threshold (it is already
 * in headroom), the frame our port is sending when XOFF is decided, the PFC
 * frame itself, the round trip of the cable at rate R, the upstream frame
 * already in serialization when the pause lands, plus any extra response time
 * of the peer (0 in this model, whose ports react at the next frame boundary;
 * IEEE 802.3 allows up to 201728 bit times at 100 GbE for real PHYs).
 */
class SharedBufferMmu : public Object
{
  public:
    static constexpr uint32_t kNumClasses = 8;

    /// Outcome of an admission check.
    enum Verdict : uint8_t
    {
        ADMIT = 0,         //!< stored
        DROP_HEADROOM = 1, //!< lossless class, headroom overflow (a PFC sizing failure)
        DROP_BUFFER = 2,   //!< lossy class, no reserved or shared space
    };

    /// Link facts needed to size headroom of one port.
    struct PortInfo
    {
        DataRate rate;   //!< line rate of the port
        Time cableDelay; //!< one-way propagation delay of its cable
    };

    static TypeId GetTypeId();
    SharedBufferMmu();

    /**
     * Size the regions for the given ports. Call once, after attributes are set.
     * \return an empty string, or a one-line reason the configuration is impossible
     *         (e.g. reserved plus headroom exceed the buffer)
     */
    std::string Configure(const std::vector<PortInfo>& ports);

    /**
     * The headroom a lossless ingress port needs so that nothing arriving
     * after its XOFF is lost (the model doc's formula, in line bytes):
     * 3 x MaxFrame + PfcFrame + 2 x R x d + R x ResponseTime.
     * \param port the port's line rate R and cable delay d
     * \param maxFrameBytes the largest frame (before preamble, FCS and IFG)
     * \param responseTime the peer's extra reaction time
     */
    static uint64_t DerivedHeadroom(const PortInfo& port,
                                    uint32_t maxFrameBytes,
                                    Time responseTime);

    /// Charge \p bytes arriving on (port, cls); returns the verdict.
    Verdict Admit(uint32_t port, uint8_t cls, uint32_t bytes);
    /// Release \p bytes charged to (port, cls) when the frame leaves the switch.
    void Release(uint32_t port, uint8_t cls, uint32_t bytes);

    /// \return true when (port, cls) should now send XOFF (state becomes paused)
    bool CheckXoff(uint32_t port, uint8_t cls);
    /// \return true when a paused (port, cls) should now send XON (state becomes resumed)
    bool CheckXon(uint32_t port, uint8_t cls);
    /// \return true while (port, cls) has an outstanding XOFF
    bool IsPausing(uint32_t port, uint8_t cls) const;

    /// \return whether class \p cls is lossless (PFC on and class enabled)
    bool IsLossless(uint8_t cls) const;

    /**
     * RED marking probability for an egress queue of \p queueBytes:
     * 0 below Kmin, rising linearly to Pmax at Kmax, 1 above Kmax
     * (DCQCN congestion point, Zhu et al. 2015).
     */
    double MarkProbability(uint64_t queueBytes) const;
    /// \return whether ECN marking is on
    bool IsEcnEnabled() const;

    /// \return the current dynamic threshold of the shared pool, in bytes
    uint64_t GetThreshold() const;
    /// \return headroom of \p port in bytes
    uint64_t GetHeadroom(uint32_t port) const;
    /// \return the shared pool size
    uint64_t GetSharedPoolBytes() const;
    /// \return bytes currently stored
    uint64_t GetUsedBytes() const;
    /// \return the peak of GetUsedBytes()
    uint64_t GetMaxUsedBytes() const;
    /// \return bytes charged to (port, cls), headroom included
    uint64_t GetIngressBytes(uint32_t port, uint8_t cls) const;
    /// \return headroom bytes in use by (port, cls)
    uint64_t GetHeadroomBytes(uint32_t port, uint8_t cls) const;
    /// \return the pause timer value to put in XOFF frames
    uint16_t GetPauseQuanta() const;

    /// Prefetch this MMU's own lines that Admit and Release read (issue #15).
    void PrefetchObject() const
    {
        __builtin_prefetch(&m_state);
        __builtin_prefetch(&m_sharedPool);
        __builtin_prefetch(&m_bufferBytes);
    }

    /// Prefetch the state of class \p cls at port \p port.
    void PrefetchPort(uint32_t port, uint8_t cls) const
    {
        if (port < m_nPorts && cls < kNumClasses)
        {
            __builtin_prefetch(&At(port, cls));
        }
    }

  private:
    uint64_t SharedUsed(uint32_t port, uint8_t cls) const;

    // Attributes
    uint64_t m_bufferBytes;
    uint64_t m_reservedBytes;
    double m_alpha;
    uint64_t m_headroomBytes; //!< 0 = derive per port
    uint64_t m_xonOffset;
    bool m_pfcEnabled;
    uint8_t m_pfcClasses;
    Time m_responseTime;
    uint32_t m_maxFrameBytes;
    uint16_t m_pauseQuanta;
    bool m_ecnEnabled;
    uint64_t m_kmin;
    uint64_t m_kmax;
    double m_pmax;

    // State
    /**
     * One (port, class)'s counters, together: a frame's admission, XOFF
     * check, release and XON check read one of these (24 bytes) instead of
     * a slot in each of three per-class arrays (three cache lines that are
     * cold at every hop of a large fabric, issue #15).
     */
    struct ClassState
    {
        uint64_t ingress{0}; //!< reserved + shared bytes
        uint64_t hdrm{0};    //!< headroom bytes
        bool pausing{false}; //!< XOFF outstanding
    };

    /// \return the counters of (\p port, \p cls)
    ClassState& At(uint32_t port, uint8_t cls)
    {
        return m_state[static_cast<std::size_t>(cls) * m_nPorts + port];
    }

    /// \return the counters of (\p port, \p cls)
    const ClassState& At(uint32_t port, uint8_t cls) const
    {
        return m_state[static_cast<std::size_t>(cls) * m_nPorts + port];
    }

    /**
     * Every (port, class)'s counters, class by class: the ports of one
     * class side by side, so that a switch whose traffic is in one class
     * touches a line per 2.7 ports in a round, not one per port (its
     * ports' counters were a port's 200 bytes apart; issue #15).
     */
    std::vector<ClassState> m_state;
    std::vector<uint64_t> m_headroom; //!< per port: the size of its headroom
    uint32_t m_nPorts{0};             //!< ports configured
    uint64_t m_sharedPool{0};
    uint64_t m_sharedUsed{0};
    uint64_t m_used{0};
    uint64_t m_maxUsed{0};
};

} // namespace ns3

#endif /* SHARED_BUFFER_MMU_H */
