/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FlowTracer-style path monitor: which path every flow took, per-link load
 * over time, and imbalance metrics per ECMP group.
 */
#ifndef PATH_MONITOR_H
#define PATH_MONITOR_H

#include "fabric-topology.h"
#include "path-probe.h"
#include "roce-flow-classifier.h"

#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/simulator-impl.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Passive flow-to-path correlation and link-load monitor, shaped
 * like ns-3's FlowMonitor.
 *
 * Install() puts a PathProbe on every port (both directions of every link)
 * and observes every port's frames (FabricTxObserver): it counts them per
 * port and time bin, in one dense array of current bins (the probes keep the
 * finished ones), and asks a RoceFlowClassifier for each data frame's flow;
 * it keeps, per flow, the ports its data
 * frames used (bytes and frames per port), so memory grows with flows x hops,
 * not with packets. It never changes forwarding. From these records it
 * rebuilds each flow's path(s) (a flow sprayed over several paths shows
 * each, its bytes split in proportion at every fork) and computes the
 * imbalance of every ECMP group (FabricTopology::GetEcmpGroups) over the
 * members' data bytes and flow counts with every ImbalanceMetric;
 * fabric-wide values weight the groups by their traffic. Collisions: member
 * links that carry more than one elephant flow (ElephantBytes). Files and
 * plots are PathMonitorHelper's business.
 *
 * Paused time per port and bin is sampled at bin edges while the fabric is
 * active; sampling stops once the fabric has been quiet (no frame started,
 * no port paused) for longer than any pause could still follow the last
 * frame, and resumes with the next frame, so a monitor never keeps a
 * simulation running, alone or with other monitors.
 */
class PathMonitor : public Object, private FabricTxObserver
{
  public:
    static TypeId GetTypeId();
    PathMonitor();
    ~PathMonitor() override;

    /// Probe every port of \p topo. Call before the simulation runs.
    void Install(Ptr<FabricTopology> topo);
    /// Close the last bin (pause time). Call when the simulation has ended.
    void Finish();

    /// \return true while sampling is stopped (the fabric was quiet): the
    /// next frame restarts it with an event of no context
    bool IsIdle() const
    {
        return m_idle;
    }

    /// One port a flow's data frames used.
    struct Hop
    {
        uint32_t dev{0};              //!< the port, as a link direction index (GetDevice)
        uint32_t lastBin{UINT32_MAX}; //!< last bin with a frame of the flow here
        uint64_t bytes{0};            //!< frame bytes of this flow's data through the port
        uint64_t frames{0};
    };

    /// One flow (queue pair).
    struct Flow
    {
        RoceFlowClassifier::Tuple tuple;
        uint64_t payloadBytes{0};     //!< RoCE payload sent by the source
        uint64_t frames{0};           //!< data frames sent by the source
        Time first;                   //!< first data frame at the source
        Time last;                    //!< last data frame at the source
        uint32_t lastBin{UINT32_MAX}; //!< at the source NIC
        std::vector<Hop> hops;        //!< switch egress ports, in order of first use
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

    /// Fabric-wide imbalance of data bytes in one time bin.
    struct BinImbalance
    {
        uint32_t bin{0};
        std::map<std::string, double> byBytes; //!< every metric, groups weighted by bytes
    };

    /// Where a monitored port is.
    struct PortInfo
    {
        bool host{false};
        uint32_t node{0}; //!< host or switch index
        uint32_t port{0}; //!< port on the switch (0 for a host)
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
    /// \return every metric over data bytes per bin with traffic in an ECMP group
    std::vector<BinImbalance> ComputeOverTime() const;

    /// \return total bytes transmitted by link direction \p dev (all bins)
    uint64_t GetDeviceBytes(uint32_t dev) const;
    uint32_t GetNDevices() const;
    Ptr<FabricNetDevice> GetDevice(uint32_t dev) const;
    PortInfo GetPortInfo(uint32_t dev) const;
    /// \return link direction \p dev's bins with traffic or pause, in order
    const std::vector<PathProbe::LinkBin>& GetLinkBins(uint32_t dev) const;
    /// \return the bin width
    Time GetBinWidth() const;
    /// \return the number of bins up to the end of the run (after Finish)
    uint32_t GetNBins() const;
    Ptr<FabricTopology> GetTopology() const;

    /**
     * This monitor's records as a flat byte string, for Absorb on another
     * MPI rank (call after Finish): the bins of the ports with any (a rank
     * sees only its own ports), every flow it saw with its hops there, and
     * the bins up to \p end, the end of this rank's part of the run.
     * Native byte order: the ranks run on one kind of machine.
     */
    std::string Export(Time end) const;
    /**
     * Merge every rank's Export into this monitor (rank 0's, after Finish):
     * \p exports in rank order, this monitor's own at \p self (only its bin
     * count is read). Ports are disjoint: a port's bins and a flow's hop
     * come from the one rank that holds the port; a flow's source fields
     * (payload, frames, first and last frame) from the rank of its source.
     * Afterwards the monitor answers for the whole fabric.
     * \throws std::runtime_error when the exports are not of this fabric or overlap
     */
    void Absorb(const std::vector<std::string>& exports, uint32_t self);

  private:
    friend class PathProbe;

    void DoDispose() override;

    /// The hook's value of a port where frames enter the fabric (a host port): index | kEntry.
    static constexpr uint32_t kEntry = 1u << 31;

    /**
     * A frame starts transmission on port \p index & ~kEntry (from a
     * probe's "TxBegin" sink): classified by its packet.
     */
    void OnTxBegin(uint32_t index, const Packet& p, uint8_t cls, uint64_t queueBytes) override
    {
        Account(index, p.GetSize(), queueBytes, [this, &p](bool entry) {
            return m_classifier.Classify(p, entry);
        });
    }

    /**
     * A frame starts transmission on port \p index & ~kEntry (from the
     * port's observer hook): classified by its parse, in its first line,
     * at every hop (RoceFlowClassifier::ClassifyParsed: a table of 16 bytes
     * a flow, which stays in cache), so that no packet is built for the
     * monitor and its second line is not read (ReadsSecondLine).
     */
    void OnTxBeginFrame(uint32_t index, FabricFrame& f, uint8_t cls, uint64_t queueBytes) override
    {
        Account(index, f.GetSize(), queueBytes, [this, &f](bool /* entry */) {
            return m_classifier.ClassifyParsed(f.IsRoce(), f.GetInfo());
        });
    }

    /// The monitor reads a frame's size and parse only (OnTxBeginFrame).
    bool ReadsSecondLine() const override
    {
        return false;
    }

    /**
     * Count a frame of \p size bytes starting on port \p index & ~kEntry with
     * \p queueBytes queued there, its flow given by \p classify(entry).
     * What needs only the monitor's own hot state (the bin cache, the
     * classifier, a new flow's record) is done now; the port's and the
     * flow's records, each a likely cache miss in a large fabric, are
     * prefetched and updated kPending frames later (ApplyPending), in the
     * frames' order, so that their misses overlap (issue #17 at 1,024
     * hosts). Every reader of those records settles the pending frames
     * first (Settle).
     */
    template <typename Classify>
    void Account(uint32_t index, uint32_t size, uint64_t queueBytes, Classify classify)
    {
        const bool entry = (index & kEntry) != 0;
        Time now;
        const uint32_t bin = BinNow(now);
        const RoceFlowClassifier::Result c = classify(entry);
        if (c.isNew)
        {
            m_flows.emplace_back().tuple = m_classifier.GetTuple(c.flow);
            m_flows.back().first = now;
        }
        const uint32_t dev = index & ~kEntry;
        __builtin_prefetch(&m_current[dev]);
        if (c.flow != RoceFlowClassifier::kNotData)
        {
            if (entry)
            {
                __builtin_prefetch(&m_flows[c.flow]);
            }
            else
            {
                __builtin_prefetch(&m_hopSlots[HopIndex(HopKey(c.flow, dev))]);
            }
        }
        PendingFrame& slot = m_pending[m_pendingNext++ % kPending];
        if (m_pendingCount == kPending)
        {
            ApplyFrame(slot); // the oldest: its lines were prefetched kPending frames ago
        }
        else
        {
            m_pendingCount++;
        }
        slot = PendingFrame{now.GetTimeStep(), queueBytes, index, size, bin, c.flow, c.payload};
    }

    /// A frame Account has counted only in the monitor's own state so far.
    struct PendingFrame
    {
        int64_t ts;          //!< when it started, in time steps
        uint64_t queueBytes; //!< bytes queued at the port then
        uint32_t index;      //!< port index | kEntry
        uint32_t size;       //!< frame bytes
        uint32_t bin;        //!< its bin
        uint32_t flow;       //!< its flow, or RoceFlowClassifier::kNotData
        uint32_t payload;    //!< RoCE payload bytes
    };

    /// Frames between a frame's prefetch and its update (a few hundred ns
    /// of other events each at 1,024 hosts: enough for a miss).
    static constexpr uint32_t kPending = 8;

    /// Update the port's and flow's records for frame \p p (as counted at its start).
    void ApplyFrame(const PendingFrame& p)
    {
        const uint32_t dev = p.index & ~kEntry;
        PathProbe::Current& cur = m_current[dev];
        if (p.bin != cur.bin)
        {
            m_probes[dev]->Roll(p.bin);
        }
        cur.bytes += p.size;
        cur.maxQueue = std::max(cur.maxQueue, p.queueBytes);
        if (p.flow == RoceFlowClassifier::kNotData)
        {
            return;
        }
        cur.dataBytes += p.size;
        cur.flows += ReportData(p, dev);
    }

    /// Apply every pending frame, oldest first.
    void ApplyPending();

    /// ApplyPending, for readers: the pending frames belong to the state
    /// they read (they are what a caller that counted at once would see).
    void Settle() const
    {
        if (m_pendingCount != 0)
        {
            const_cast<PathMonitor*>(this)->ApplyPending();
        }
    }

    /// \return the bin of the current time (per frame), and the time
    uint32_t BinNow(Time& now)
    {
        now = m_sim->Now();
        const int64_t ts = now.GetTimeStep();
        if (ts < m_binStartTs || ts >= m_binEndTs)
        {
            MoveBin(ts);
        }
        return m_cachedBin;
    }

    /// Point the bin cache at the bin holding time step \p ts (a frame's).
    void MoveBin(int64_t ts);

    /**
     * The data frame \p p of its flow started on port \p dev (per data
     * frame, kPending frames later).
     * \return 1 when it is the flow's first frame on that port in the bin
     */
    uint32_t ReportData(const PendingFrame& p, uint32_t dev)
    {
        uint32_t* lastBin;
        if (p.index & kEntry)
        {
            Flow& f = m_flows[p.flow];
            f.payloadBytes += p.payload;
            f.frames++;
            f.last = TimeStep(p.ts);
            lastBin = &f.lastBin;
        }
        else
        {
            HopSlot& hop = FindHop(HopKey(p.flow, dev), p.ts);
            hop.bytes += p.size;
            hop.frames++;
            lastBin = &hop.lastBin;
            m_hopsSynced = false;
        }
        if (*lastBin == p.bin)
        {
            return 0;
        }
        *lastBin = p.bin;
        return 1;
    }

    /// \return the hop table's key of flow \p flow on port \p dev
    static uint64_t HopKey(uint32_t flow, uint32_t dev)
    {
        return (static_cast<uint64_t>(flow) << 32) | dev;
    }

    /// One (flow, port) record of the hop table: the data of a Hop, by key.
    struct alignas(32) HopSlot
    {
        uint64_t key{kNoHop}; //!< flow << 32 | port index
        uint64_t bytes{0};
        uint64_t frames{0};
        uint32_t lastBin{UINT32_MAX};
    };

    static constexpr uint64_t kNoHop = UINT64_MAX; //!< an empty slot's key

    /// \return \p key's home slot in the hop table (Fibonacci hashing: the product's top bits)
    std::size_t HopIndex(uint64_t key) const
    {
        return (key * 0x9E3779B97F4A7C15ULL) >> m_hopShift;
    }

    /// \return the hop table's slot of \p key (flow << 32 | port), created when new
    /// (first used at time step \p ts)
    HopSlot& FindHop(uint64_t key, int64_t ts)
    {
        // Open addressing, linear probing: one cache line per frame where
        // a per-flow list of hops costs two (the flow, then its list).
        const std::size_t mask = m_hopSlots.size() - 1;
        for (std::size_t i = HopIndex(key);; i = (i + 1) & mask)
        {
            HopSlot& s = m_hopSlots[i];
            if (s.key == key)
            {
                return s;
            }
            if (s.key == kNoHop)
            {
                return AddHop(key, i, ts);
            }
        }
    }

    /// Put \p key, first used at time step \p ts, in the empty slot \p i
    /// (or, when the table is three quarters full, grow it first).
    HopSlot& AddHop(uint64_t key, std::size_t i, int64_t ts);
    /// \return the hop table's slot of \p key, which is there
    const HopSlot& GetHop(uint64_t key) const;
    /// Copy the hop table into the flows' hops, when frames came since the last copy.
    void SyncHops() const;

    /// \return the port index of switch \p sw's port \p port, or UINT32_MAX when it has no link
    uint32_t DeviceOf(uint32_t sw, uint32_t port) const;
    /// \return the topology's ECMP groups, read once at Install (at scale, a scan of every route)
    const std::vector<FabricTopology::EcmpGroup>& EcmpGroups() const;
    void SampleBin();
    /// Give every port's paused time since the last call to \p bin. \return whether any
    bool AccountPause(uint32_t bin);

    Time m_bin;
    uint64_t m_elephant;
    Ptr<FabricTopology> m_topo;
    /// The running simulator: its Now() per frame, without Simulator::Now's lookup of it.
    Ptr<SimulatorImpl> m_sim;
    RoceFlowClassifier m_classifier;
    std::vector<Ptr<PathProbe>> m_probes;
    /// Every port's current bin, by port index (what a frame updates: 32 B, two ports a line).
    std::vector<PathProbe::Current> m_current;
    std::vector<PortInfo> m_ports;
    std::vector<std::vector<uint32_t>> m_switchPorts; //!< [switch][port] -> port index
    /// The flows; their hops are copied from the hop table by SyncHops.
    mutable std::vector<Flow> m_flows;
    std::vector<HopSlot> m_hopSlots; //!< (flow, port) table, a power of two in size
    uint32_t m_hopShift{0};          //!< 64 - log2(table size): the hash's top bits index it
    std::vector<uint64_t> m_hopKeys; //!< the table's keys in order of first use
    std::vector<int64_t> m_hopFirst; //!< m_hopKeys' first use, in time steps
    mutable bool m_hopsSynced{true}; //!< the flows' hops equal the table
    std::array<PendingFrame, kPending> m_pending; //!< a ring: Account
    uint32_t m_pendingNext{0};                    //!< where the next frame goes, mod kPending
    uint32_t m_pendingCount{0}; //!< frames in m_pending (the oldest at m_pendingNext - count)
    EventId m_binEvent;
    /// The restart of sampling after a quiet stop (a first event: no EventId).
    Ptr<EventImpl> m_restartEvent;
    uint32_t m_bins{0};
    int64_t m_binStartTs{-1}; //!< start of the cached bin, in time steps
    int64_t m_binEndTs{-1};   //!< its end (exclusive), in time steps
    uint32_t m_cachedBin{0};
    int64_t m_lastFrameBin{-1}; //!< the latest bin a frame started in
    uint32_t m_quietBins{0};    //!< bins in a row with no frame and no pause
    uint32_t m_quietLimit{1};   //!< quiet bins after which sampling stops
    bool m_idle{false};         //!< sampling stopped while the fabric was quiet
    mutable std::vector<FabricTopology::EcmpGroup> m_ecmpGroups; //!< EcmpGroups' cache
    mutable bool m_haveEcmpGroups{false};
};

} // namespace ns3

#endif /* PATH_MONITOR_H */
