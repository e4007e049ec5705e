/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * One port's probe of the path monitor (the role of ns-3's FlowProbe).
 */
#ifndef PATH_PROBE_H
#define PATH_PROBE_H

#include "fabric-net-device.h"
#include "roce-flow-classifier.h"

#include "ns3/object.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class PathMonitor;

/**
 * \ingroup training-fabric
 * \brief Listens to one port's data frames as they start transmission and
 * keeps that port's per-bin counters.
 *
 * The port calls the probe directly (FabricTxObserver: one virtual call per
 * frame) or, when another observer already holds that hook, through its
 * "TxBegin" trace. Per frame the probe adds the frame to the counters of the
 * current bin, which live in the probe itself, asks the classifier for the
 * frame's flow and reports the flow's hop to the monitor. When a frame falls
 * in a later bin, the finished bin is appended to the port's series; bins in
 * which the port did nothing are not stored, so memory grows with the bins a
 * port was busy in, not with ports x bins.
 */
class alignas(64) PathProbe : public Object, private FabricTxObserver
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

    static TypeId GetTypeId();

    PathProbe();

    /**
     * Attach to \p dev.
     * \param monitor the monitor the probe reports to (owns the probe)
     * \param classifier the monitor's classifier
     * \param dev the port
     * \param index the port's index in the monitor
     * \param entry whether frames enter the fabric here (a host port)
     */
    void Attach(PathMonitor* monitor,
                RoceFlowClassifier* classifier,
                Ptr<FabricNetDevice> dev,
                uint32_t index,
                bool entry);
    /// Stop listening to the port.
    void Detach();

    /**
     * Add the time the port was paused (any class) since the previous call
     * to bin \p bin (bins come in order).
     * \return that time, in ps
     */
    int64_t SamplePause(uint32_t bin);
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
    void OnTxBegin(uint32_t index, const Packet& p, uint8_t cls, uint64_t queueBytes) override;
    /// The "TxBegin" trace's sink, for a port that already has an observer.
    void TracedTxBegin(Ptr<const Packet> p, uint8_t cls);
    /// Start bin \p bin, keeping the current one if it holds anything.
    void Roll(uint32_t bin);
    /// Add \p ps of paused time to bin \p bin.
    void AddPause(uint32_t bin, int64_t ps);

    // What a frame reads, first: after the Object and observer headers (40
    // bytes), the pointers and flags fill the probe's first cache line and
    // the current bin is the next one (the probe is aligned to a line).
    PathMonitor* m_monitor{nullptr}; //!< owns this probe
    RoceFlowClassifier* m_classifier{nullptr};
    uint32_t m_index{0};
    bool m_entry{false};
    bool m_traced{false}; //!< connected to "TxBegin" instead of the observer hook
    LinkBin m_cur;        //!< the bin frames are counted in now
    Ptr<FabricNetDevice> m_dev;
    int64_t m_pausedSoFarPs{0}; //!< paused time already given to bins
    std::vector<LinkBin> m_bins;
};

} // namespace ns3

#endif /* PATH_PROBE_H */
