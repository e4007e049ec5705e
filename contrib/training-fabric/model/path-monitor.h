/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlowTracer-style path monitor: which path every flow took, per-link load
 * over time, and imbalance metrics per ECMP group.
 */
#ifndef PATH_MONITOR_H
#define PATH_MONITOR_H

#include "fabric-net-device.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

class FabricTopology;
class Packet;
class SimulatorImpl;

/**
 * \ingroup training-fabric
 * \brief Passive flow-to-path correlation and link-load monitor.
 *
 * It listens to the TxBegin trace of every port (it never changes
 * forwarding). A flow is a queue pair, identified by its 5-tuple (source and
 * destination address, UDP source port). Per flow it keeps, for every
 * (switch, egress port) its data frames used, bytes and frames, so memory
 * grows with flows x hops, not with packets; the path is rebuilt by
 * following those ports from the source's switch (a flow sprayed over several
 * paths shows each path, its bytes split in proportion at every fork). Per
 * link direction and time bin it counts bytes (all frames), data bytes,
 * distinct flows, the largest queue seen at a transmission, and paused time.
 *
 * Imbalance is computed per ECMP group (a switch's set of equal-cost next
 * hops, FabricTopology::GetEcmpGroups) on the data bytes and on the flow
 * counts of the members, with every ImbalanceMetric; fabric-wide values are
 * the groups' values weighted by their traffic. Collisions: member links
 * that carry more than one elephant flow (ElephantBytes).
 */
class PathMonitor : public Object, private FabricTxObserver
{
  public:
    static TypeId GetTypeId();
    PathMonitor();
    ~PathMonitor() override;

    /// Hook every port of \p topo. Call before the simulation runs.
    void Install(Ptr<FabricTopology> topo);
    /// Close the last bin (pause time). Call when the simulation has ended.
    void Finish();

    /// One (switch, egress port) a flow used.
    struct Hop
    {
        uint32_t sw{0};
        uint16_t port{0};
        uint64_t bytes{0}; //!< frame bytes of this flow's data through the port
        uint64_t frames{0};
        uint32_t lastBin{UINT32_MAX};
        uint32_t dev{0}; //!< the port, as a link direction index (GetDevice)
    };

    /// One flow (queue pair).
    struct Flow
    {
        uint32_t srcIp{0};
        uint32_t dstIp{0};
        uint16_t srcPort{0};
        uint32_t src{0}; //!< host
        uint32_t dst{0}; //!< host
        uint64_t payloadBytes{0};
        uint64_t frames{0};
        Time first;
        Time last;
        uint32_t lastBin{UINT32_MAX}; //!< at the source NIC
        std::vector<Hop> hops;
    };

    /// A path of a flow: switch hops and the bytes attributed to it.
    struct Path
    {
        std::vector<std::pair<uint32_t, uint16_t>> hops; //!< (switch, egress port)
        double bytes{0};
    };

    /// Per ECMP group results.
    struct GroupResult
    {
        std::string name;
        uint32_t sw{0};
        std::vector<uint16_t> ports;
        std::vector<double> bytes; //!< data bytes per member
        std::vector<double> flows; //!< flows per member
        std::map<std::string, double> byBytes;
        std::map<std::string, double> byFlows;
        uint32_t collisions{0};
    };

    const std::vector<Flow>& GetFlows() const;
    /// \return the path(s) of flow \p i
    std::vector<Path> GetPaths(uint32_t i) const;
    /// \return results for every ECMP group with traffic
    std::vector<GroupResult> ComputeGroups() const;
    /// \return fabric-wide value of metric \p name ("fim", "jain", ...) over bytes or flows
    double Overall(const std::vector<GroupResult>& groups,
                   const std::string& name,
                   bool byFlows) const;
    /// \return the number of collisions over all groups
    uint32_t Collisions(const std::vector<GroupResult>& groups) const;
    /// \return total bytes transmitted by link direction \p dev (all bins)
    uint64_t GetDeviceBytes(uint32_t dev) const;
    uint32_t GetNDevices() const;
    Ptr<FabricNetDevice> GetDevice(uint32_t dev) const;

    /// paths.csv, links.csv and imbalance.json texts.
    std::string PathsCsv() const;
    std::string LinksCsv() const;
    std::string ImbalanceJson() const;
    /// Write the three files and, when gnuplot is installed, the PNG plots.
    void WriteOutputs(const std::string& dir) const;
    /// A few lines for the console.
    std::string SummaryTable() const;

  private:
    void DoDispose() override;
    /**
     * A data frame starts on a port (FabricTxObserver); \p tag is the port's
     * link direction index, plus kHostPort for a host NIC port.
     */
    void OnTxBegin(uint32_t tag, const Packet& p, uint8_t cls, uint64_t queueBytes) override;
    void SampleBin();
    /// Schedule the next SampleBin after \p delay, from the current counts.
    void ScheduleSample(Time delay);
    /// Cancel sampling and leave the count of sampling monitors.
    void StopSampling();
    void AccountPause(uint32_t bin);
    /// \return the bin of time \p now
    uint32_t Bin(Time now) const;

    /// \return the bin of time step \p ts (inline fast path of Bin)
    uint32_t BinOfTimeStep(int64_t ts) const
    {
        if (ts < m_binStartTs || ts >= m_binEndTs)
        {
            MoveBin(ts);
        }
        return m_cachedBin;
    }

    /// Point the bin cache at the bin holding time step \p ts.
    void MoveBin(int64_t ts) const;

    /// One time bin of a link direction.
    struct BinStats
    {
        uint64_t bytes{0};     //!< all frames
        uint64_t dataBytes{0}; //!< data frames
        uint64_t maxQueue{0};  //!< largest queue seen at a transmission
        uint32_t flows{0};     //!< distinct flows
    };

    /// \return bin \p b of link direction \p dev (zeros past the last row)
    const BinStats& GetBin(uint32_t dev, uint32_t b) const;
    std::string DeviceName(uint32_t dev) const;

    struct Device
    {
        Ptr<FabricNetDevice> dev;
        bool host{false};
        uint32_t node{0}; //!< host or switch index
        uint32_t port{0};

        std::vector<int64_t> pausePs;
        int64_t pausedSoFarPs{0};
    };

    /**
     * Routes one port's TxBegin trace to OnTxBegin with the port's index;
     * only for a port that already has another FabricTxObserver.
     */
    struct Tap
    {
        PathMonitor* monitor;
        uint32_t index;

        void OnTx(Ptr<const Packet> p, uint8_t cls)
        {
            const Device& d = monitor->m_devices[index];
            monitor->OnTxBegin(index | (d.host ? kHostPort : 0),
                               *p,
                               cls,
                               d.dev->GetTotalQueueBytes());
        }
    };

    Time m_bin;
    uint64_t m_elephant;
    std::vector<std::unique_ptr<Tap>> m_taps;
    Ptr<FabricTopology> m_topo;
    /// The running simulator: its Now() per frame, without Simulator::Now's lookup of it.
    Ptr<SimulatorImpl> m_sim;
    std::vector<Device> m_devices;
    std::vector<Flow> m_flows;
    std::unordered_map<uint64_t, uint32_t> m_flowIndex; //!< 5-tuple key -> flow
    EventId m_binEvent;
    uint32_t m_bins{0};
    /**
     * Sampling with several monitors: each one's pending sample keeps the
     * others' Simulator::IsFinished() false, so a monitor also stops when
     * only monitor samples ran since its previous one, and re-arms when a
     * frame opens a new bin row. (One monitor relies on IsFinished alone.)
     */
    static uint32_t s_sampling;   //!< monitors installed and not finished
    static uint64_t s_samplesRun; //!< SampleBin calls, all monitors
    uint64_t m_lastEventCount{0}; //!< Simulator::GetEventCount at the last sample
    uint64_t m_lastSamplesRun{0}; //!< s_samplesRun at the last sample
    bool m_sampling{false};       //!< counted in s_sampling
    bool m_idle{false};           //!< sampling stopped while the simulation idled
    /**
     * Per-link bins, bin-major: row b holds bin b of every link direction,
     * so the frames of one bin, on any port, touch one small row that stays
     * in cache. Rows are added as time reaches them.
     */
    std::vector<BinStats> m_binStats;
    uint32_t m_binRows{0};
    uint32_t m_nDevices{0}; //!< m_devices.size(), the length of a bin row

    /**
     * Packet uid -> flow (kNotData for ACK/CNP/PFC), so frames parse once.
     * Slot uid % kUidSlots holds the uid's next 32 bits as a tag (uids 2^48
     * apart would alias; no simulation makes that many packets).
     */
    struct UidSlot
    {
        uint32_t tag{UINT32_MAX};
        uint32_t flow{0};
    };

    static constexpr uint32_t kUidBits = 16;
    static constexpr uint32_t kUidSlots = 1u << kUidBits;
    static constexpr uint32_t kNotData = UINT32_MAX;
    static constexpr uint32_t kHostPort = 1u << 31; //!< in an observer tag: a host NIC port
    std::vector<UidSlot> m_uidSlots = std::vector<UidSlot>(kUidSlots);
    mutable int64_t m_binStartTs{-1}; //!< start of the cached bin, in time steps
    mutable int64_t m_binEndTs{-1};   //!< its end (exclusive), in time steps
    mutable uint32_t m_cachedBin{0};
};

} // namespace ns3

#endif /* PATH_MONITOR_H */
