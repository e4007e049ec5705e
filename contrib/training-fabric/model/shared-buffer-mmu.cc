/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "shared-buffer-mmu.h"

#include "pfc-header.h"
#include "roce-header.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SharedBufferMmu");
NS_OBJECT_ENSURE_REGISTERED(SharedBufferMmu);

TypeId
SharedBufferMmu::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::SharedBufferMmu")
            .SetParent<Object>()
            .SetGroupName("TrainingFabric")
            .AddConstructor<SharedBufferMmu>()
            .AddAttribute("BufferSize",
                          "Total packet buffer of the switch in bytes. Default 16 MiB, the "
                          "on-chip buffer of a Broadcom Tomahawk (BCM56960) 32x100G switch.",
                          UintegerValue(16 * 1024 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_bufferBytes),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("ReservedBytes",
                          "Guaranteed space per ingress (port, class). Default 4 KiB, as in "
                          "the HPCC simulator's switch MMU (Li et al., SIGCOMM 2019).",
                          UintegerValue(4 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_reservedBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("Alpha",
                          "Dynamic-threshold factor: one (port, class) may hold up to Alpha x "
                          "(free shared bytes). Default 1/8, the HPCC simulator's value for "
                          "ports at NIC speed (Choudhury & Hahne dynamic threshold).",
                          DoubleValue(0.125),
                          MakeDoubleAccessor(&SharedBufferMmu::m_alpha),
                          MakeDoubleChecker<double>(1e-6, 1e6))
            .AddAttribute("HeadroomBytes",
                          "PFC headroom per ingress port in bytes; 0 derives it from the "
                          "port's rate and cable delay (see class doc and the model doc).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&SharedBufferMmu::m_headroomBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("XonOffset",
                          "Hysteresis: XON when shared use is this far below the threshold. "
                          "Default 3 KiB, the HPCC simulator's resume offset.",
                          UintegerValue(3 * 1024),
                          MakeUintegerAccessor(&SharedBufferMmu::m_xonOffset),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("PfcEnabled",
                          "Lossless operation with PFC (true) or lossy drop-on-overflow. "
                          "Default true (RoCEv2 deployments run PFC).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SharedBufferMmu::m_pfcEnabled),
                          MakeBooleanChecker())
            .AddAttribute("PfcClasses",
                          "Bit mask of lossless classes when PFC is on. Default 0xff (all).",
                          UintegerValue(0xff),
                          MakeUintegerAccessor(&SharedBufferMmu::m_pfcClasses),
                          MakeUintegerChecker<uint8_t>())
            .AddAttribute("ResponseTime",
                          "Extra reaction time of the upstream port to a pause, added to the "
                          "derived headroom. Default 0: the model's ports stop at the next "
                          "frame boundary (802.3 allows up to 201728 bit times at 100 GbE).",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&SharedBufferMmu::m_responseTime),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("MaxFrameBytes",
                          "Largest frame in the fabric, for headroom sizing. Default 4154: a "
                          "4096 B payload plus Ethernet/IPv4/UDP/BTH/ICRC headers.",
                          UintegerValue(4154),
                          MakeUintegerAccessor(&SharedBufferMmu::m_maxFrameBytes),
                          MakeUintegerChecker<uint32_t>(64))
            .AddAttribute("PauseQuanta",
                          "Timer in XOFF frames, in quanta of 512 bit times; the switch "
                          "refreshes the pause at half this time while congested, so half "
                          "of it must outlast a maximum frame and the PFC frame (Configure "
                          "refuses less: 134 with 4154 B frames). Default 65535, the largest "
                          "value (802.1Qbb).",
                          UintegerValue(65535),
                          MakeUintegerAccessor(&SharedBufferMmu::m_pauseQuanta),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("EcnEnabled",
                          "RED/ECN marking at egress. Default true.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&SharedBufferMmu::m_ecnEnabled),
                          MakeBooleanChecker())
            .AddAttribute("EcnKmin",
                          "RED Kmin in bytes. Default 100 KB: the HPCC simulator's 25G setting "
                          "(Kmin 100 KB, Kmax 400 KB, Pmax 0.2), unscaled.",
                          UintegerValue(100000),
                          MakeUintegerAccessor(&SharedBufferMmu::m_kmin),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnKmax",
                          "RED Kmax in bytes. Default 400 KB (see EcnKmin).",
                          UintegerValue(400000),
                          MakeUintegerAccessor(&SharedBufferMmu::m_kmax),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("EcnPmax",
                          "RED marking probability at Kmax. Default 0.2 (see EcnKmin).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&SharedBufferMmu::m_pmax),
                          MakeDoubleChecker<double>(0.0, 1.0));
    return tid;
}

SharedBufferMmu::SharedBufferMmu() = default;

std::string
SharedBufferMmu::Configure(const std::vector<PortInfo>& ports)
{
    m_nPorts = static_cast<uint32_t>(ports.size());
    m_state.assign(static_cast<std::size_t>(kNumClasses) * ports.size(), ClassState());
    m_headroom.assign(ports.size(), 0);
    uint64_t reservedTotal = m_reservedBytes * kNumClasses * ports.size();
    uint64_t headroomTotal = 0;
    if (m_pfcEnabled)
    {
        for (std::size_t i = 0; i < ports.size(); ++i)
        {
            const uint64_t h = m_headroomBytes != 0
                                   ? m_headroomBytes
                                   : DerivedHeadroom(ports[i], m_maxFrameBytes, m_responseTime);
            m_headroom[i] = h;
            headroomTotal += h;
        }
    }
    if (reservedTotal + headroomTotal >= m_bufferBytes)
    {
        std::ostringstream os;
        os << "buffer of " << m_bufferBytes << " B is too small: " << ports.size() << " ports need "
           << reservedTotal << " B reserved and " << headroomTotal << " B of PFC headroom";
        return os.str();
    }
    if (m_ecnEnabled && m_kmin > m_kmax)
    {
        return "ECN Kmin is larger than Kmax";
    }
    if (m_pfcEnabled)
    {
        // A pause is refreshed at half its time, and the refreshing PFC frame
        // may wait behind one maximum frame on the port: half the pause must
        // outlast both, or the pause lapses between refreshes. In bit times,
        // so the port's rate cancels out.
        const uint64_t bits =
            8 * (roce::WireBytes(m_maxFrameBytes) + roce::WireBytes(roce::kMinFrameBytes));
        const uint64_t minQuanta = (2 * bits + 511) / 512;
        if (m_pauseQuanta < minQuanta)
        {
            std::ostringstream os;
            os << "PFC pause of " << m_pauseQuanta << " quanta is too short: refreshed at half "
               << "its time, it must outlast a " << m_maxFrameBytes << " B frame and the PFC "
               << "frame (" << minQuanta << " quanta at least)";
            return os.str();
        }
    }
    m_sharedPool = m_bufferBytes - reservedTotal - headroomTotal;
    m_sharedUsed = 0;
    m_used = 0;
    m_maxUsed = 0;
    return "";
}

uint64_t
SharedBufferMmu::DerivedHeadroom(const PortInfo& port, uint32_t maxFrameBytes, Time responseTime)
{
    // XOFF is decided when a frame first spills into headroom; that frame,
    // plus what can still arrive after it (line bytes): our own frame in
    // progress delays the PFC frame, then the PFC frame, the cable round
    // trip, the peer's frame in progress and its extra response time.
    const uint64_t maxFrameLine = roce::WireBytes(maxFrameBytes);
    const uint64_t pfcLine = roce::WireBytes(roce::kMinFrameBytes);
    const double bytesPerSecond = port.rate.GetBitRate() / 8.0;
    const double cable = 2.0 * bytesPerSecond * port.cableDelay.GetSeconds();
    const double response = bytesPerSecond * responseTime.GetSeconds();
    return 3 * maxFrameLine + pfcLine + static_cast<uint64_t>(cable + response + 0.5);
}

uint64_t
SharedBufferMmu::SharedUsed(uint32_t port, uint8_t cls) const
{
    const uint64_t in = At(port, cls).ingress;
    return in > m_reservedBytes ? in - m_reservedBytes : 0;
}

uint64_t
SharedBufferMmu::GetThreshold() const
{
    return static_cast<uint64_t>(m_alpha * static_cast<double>(m_sharedPool - m_sharedUsed));
}

bool
SharedBufferMmu::IsLossless(uint8_t cls) const
{
    return m_pfcEnabled && ((m_pfcClasses >> cls) & 1);
}

SharedBufferMmu::Verdict
SharedBufferMmu::Admit(uint32_t port, uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << +cls << bytes);
    ClassState& cs = At(port, cls);
    const uint64_t oldIngress = cs.ingress;
    const uint64_t newIngress = oldIngress + bytes;
    const uint64_t oldShared = oldIngress > m_reservedBytes ? oldIngress - m_reservedBytes : 0;
    const uint64_t newShared = newIngress > m_reservedBytes ? newIngress - m_reservedBytes : 0;
    const uint64_t delta = newShared - oldShared;
    bool fits = (delta == 0);
    if (!fits && m_sharedUsed + delta <= m_sharedPool)
    {
        // The threshold is evaluated on the free pool before this frame.
        fits = newShared <= GetThreshold();
    }
    if (fits)
    {
        cs.ingress = newIngress;
        m_sharedUsed += delta;
    }
    else if (IsLossless(cls))
    {
        // Each class pauses on its own, so each absorbs what arrives after
        // its own XOFF: a port's headroom is per lossless class (a switch's
        // per-priority-group headroom; the HPCC simulator's check per
        // (port, queue)), within the whole buffer.
        if (cs.hdrm + bytes > m_headroom[port] || m_used + bytes > m_bufferBytes)
        {
            NS_LOG_LOGIC("port " << port << " class " << +cls << ": headroom full (" << cs.hdrm
                                 << " of " << m_headroom[port] << " B)");
            return DROP_HEADROOM;
        }
        NS_LOG_LOGIC("port " << port << " class " << +cls << ": into headroom");
        cs.hdrm += bytes;
    }
    else
    {
        NS_LOG_LOGIC("port " << port << " class " << +cls << ": no room (shared " << newShared
                             << " B, threshold " << GetThreshold() << " B, pool " << m_sharedUsed
                             << " of " << m_sharedPool << " B)");
        return DROP_BUFFER;
    }
    m_used += bytes;
    m_maxUsed = std::max(m_maxUsed, m_used);
    return ADMIT;
}

void
SharedBufferMmu::Release(uint32_t port, uint8_t cls, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << port << +cls << bytes);
    ClassState& cs = At(port, cls);
    m_used -= bytes;
    // Headroom drains first: it holds the most recent arrivals of a paused
    // class, and emptying it is the first condition for XON.
    uint64_t fromHdrm = std::min<uint64_t>(cs.hdrm, bytes);
    cs.hdrm -= fromHdrm;
    uint64_t rest = bytes - fromHdrm;
    if (rest > 0)
    {
        const uint64_t oldShared = SharedUsed(port, cls);
        NS_ASSERT(cs.ingress >= rest);
        cs.ingress -= rest;
        m_sharedUsed -= oldShared - SharedUsed(port, cls);
    }
}

bool
SharedBufferMmu::CheckXoff(uint32_t port, uint8_t cls)
{
    ClassState& cs = At(port, cls);
    if (!IsLossless(cls) || cs.pausing)
    {
        return false;
    }
    if (cs.hdrm > 0 || SharedUsed(port, cls) >= GetThreshold())
    {
        NS_LOG_LOGIC("port " << port << " class " << +cls << ": XOFF (shared "
                             << SharedUsed(port, cls) << " B, threshold " << GetThreshold()
                             << " B)");
        cs.pausing = true;
        return true;
    }
    return false;
}

bool
SharedBufferMmu::CheckXon(uint32_t port, uint8_t cls)
{
    ClassState& cs = At(port, cls);
    if (!cs.pausing || cs.hdrm > 0)
    {
        return false;
    }
    const uint64_t shared = SharedUsed(port, cls);
    if (shared == 0 || shared + m_xonOffset <= GetThreshold())
    {
        NS_LOG_LOGIC("port " << port << " class " << +cls << ": XON (shared " << shared << " B)");
        cs.pausing = false;
        return true;
    }
    return false;
}

bool
SharedBufferMmu::IsPausing(uint32_t port, uint8_t cls) const
{
    return At(port, cls).pausing;
}

double
SharedBufferMmu::MarkProbability(uint64_t queueBytes) const
{
    if (queueBytes <= m_kmin)
    {
        return 0.0;
    }
    if (queueBytes > m_kmax)
    {
        return 1.0;
    }
    if (m_kmax == m_kmin)
    {
        return 1.0;
    }
    return m_pmax * static_cast<double>(queueBytes - m_kmin) / static_cast<double>(m_kmax - m_kmin);
}

bool
SharedBufferMmu::IsEcnEnabled() const
{
    return m_ecnEnabled;
}

uint64_t
SharedBufferMmu::GetHeadroom(uint32_t port) const
{
    return m_headroom[port];
}

uint64_t
SharedBufferMmu::GetSharedPoolBytes() const
{
    return m_sharedPool;
}

uint64_t
SharedBufferMmu::GetUsedBytes() const
{
    return m_used;
}

uint64_t
SharedBufferMmu::GetMaxUsedBytes() const
{
    return m_maxUsed;
}

uint64_t
SharedBufferMmu::GetIngressBytes(uint32_t port, uint8_t cls) const
{
    return At(port, cls).ingress + At(port, cls).hdrm;
}

uint64_t
SharedBufferMmu::GetHeadroomBytes(uint32_t port, uint8_t cls) const
{
    return At(port, cls).hdrm;
}

uint16_t
SharedBufferMmu::GetPauseQuanta() const
{
    return m_pauseQuanta;
}

} // namespace ns3
