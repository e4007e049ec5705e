/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One port's probe of the path monitor (the role of ns-3's FlowProbe).
 */
#ifndef PATH_PROBE_H
#define PATH_PROBE_H

#include "fabric-net-device.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class PathMonitor;

/**
 * \ingroup training-fabric
 * \brief One port's attachment to the path monitor and that port's series of
 * time bins.
 *
 * Frames do not go through the probe: the port calls the monitor directly
 * (FabricTxObserver: one virtual call per frame, the port's index in the
 * hook's value) or, when another observer already holds that hook, through
 * the probe's sink of its "TxBegin" trace. Per frame the monitor adds the
 * frame to the port's Current counters, which live in one dense array of the
 * monitor (32 B a port, two ports a cache line), not in the probe. When a
 * frame falls in a later bin, the monitor asks the probe to Roll: the
 * finished bin is appended to the port's series; bins in which the port did
 * nothing are not stored, so memory grows with the bins a port was busy in,
 * not with ports x bins. Paused time is sampled at bin edges (SamplePause).
 */
class PathProbe : public Object
{
  public:
    /// One time bin of the port (a link direction).
    struct LinkBin
    {
        uint32_t bin{0};       //!< bin index (time / bin width)
        uint32_t flows{0};     //!< distinct flows with data frames
        uint64_t bytes{0};     //!< all frames (data, ACK, CNP)
        uint64_t dataBytes{0}; //!< data frames
        uint64_t maxQueue{0};  //!< largest port queue seen as a frame started
        int64_t pausePs{0};    //!< time the port was paused (any class), ps
    };

    /// What frames update in the port's current bin (the rest of a LinkBin stays in the probe).
    struct alignas(32) Current
    {
        uint32_t bin{UINT32_MAX}; //!< the bin frames are counted in now (UINT32_MAX: none yet)
        uint32_t flows{0};
        uint64_t bytes{0};
        uint64_t dataBytes{0};
        uint64_t maxQueue{0};
    };

    static TypeId GetTypeId();

    PathProbe();

    /**
     * Attach to \p dev.
     * \param monitor the monitor frames are reported to (owns the probe)
     * \param hook the monitor as the port's observer
     * \param cur the port's current-bin counters, in the monitor
     * \param dev the port
     * \param hookIndex the value the port gives \p hook with each frame (the
     *        port's index in the monitor, and whether frames enter the fabric here)
     */
    void Attach(PathMonitor* monitor,
                FabricTxObserver* hook,
                Current* cur,
                Ptr<FabricNetDevice> dev,
                uint32_t hookIndex);
    /// Stop listening to the port.
    void Detach();

    /**
     * Add the time the port was paused (any class) since the previous call
     * to bin \p bin (bins come in order).
     * \return that time, in ps
     */
    int64_t SamplePause(uint32_t bin);
    /// \return true while the port is sending or has frames queued
    bool IsBacklogged() const;
    /// Start bin \p bin, moving the current one to the series if it holds anything.
    void Roll(uint32_t bin);
    /// Move the current bin to the series. Call when the simulation has ended.
    void Flush();

    /// \return the port
    Ptr<FabricNetDevice> GetDevice() const;
    /// \return the port's bins with traffic or pause, in bin order (after Flush)
    const std::vector<LinkBin>& GetBins() const;
    /// Take \p bins (in bin order) as the port's, from the MPI rank that holds the port.
    void AbsorbBins(std::vector<LinkBin> bins);

  private:
    void DoDispose() override;
    /// The "TxBegin" trace's sink, for a port that already has an observer.
    void TracedTxBegin(Ptr<const Packet> p, uint8_t cls);
    /// Add \p ps of paused time to bin \p bin.
    void AddPause(uint32_t bin, int64_t ps);

    PathMonitor* m_monitor{nullptr}; //!< owns this probe
    FabricTxObserver* m_hook{nullptr};
    Current* m_cur{nullptr}; //!< the port's current bin, in the monitor
    int64_t m_curPausePs{0}; //!< paused time in the current bin
    uint32_t m_hookIndex{0};
    bool m_traced{false}; //!< connected to "TxBegin" instead of the observer hook
    Ptr<FabricNetDevice> m_dev;
    int64_t m_pausedSoFarPs{0}; //!< paused time already given to bins
    std::vector<LinkBin> m_bins;
};

} // namespace ns3

#endif /* PATH_PROBE_H */
