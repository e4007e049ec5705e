/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Link failures, repairs and rate changes during a run, with the routing
 * reconvergence that follows them.
 */
#ifndef LINK_EVENTS_H
#define LINK_EVENTS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

class FabricTopology;

/**
 * \ingroup training-fabric
 * \brief Schedules link events on a built fabric: a link goes down, comes
 * back up, or changes its data rate at a given time.
 *
 * Nodes are named as the topology file format numbers them: hosts first
 * (0..H-1), then switches (H..H+S-1).
 *
 * - Down: frames being serialized or in flight on the link are lost, and so
 *   are frames sent onto it while it is down (FabricChannel); a switch drops
 *   the frames its forwarding table still sends to the dead port
 *   (FabricSwitch::DROP_LINK_DOWN). Both ends forget the pauses they
 *   received. The NICs' retransmission recovers the lost frames.
 * - Up: the link carries frames again.
 * - Rate: both ends serialize their next frame at the new rate.
 *
 * "Reconvergence" after a down or up event, every switch's next hops are
 * recomputed over the links up at that moment (FabricTopology::
 * RecomputeRoutes): ECMP groups shrink or grow back, and static pins on a
 * dead link fall back to the remaining next hops.
 */
class LinkEvents : public Object
{
  public:
    /// What an event sets; state or rate may be left unchanged.
    struct Event
    {
        Time at;           //!< simulation time of the event
        uint32_t nodeA{0}; //!< one end (topology-file numbering)
        uint32_t nodeB{0}; //!< the other end
        int8_t state{-1};  //!< 0 down, 1 up, -1 unchanged
        DataRate rate{0};  //!< new rate, 0 unchanged
        uint32_t link{0};  //!< the link's index in the FabricTopology (set by Add)
    };

    /// A link after an event was applied (for link_events.csv and plots).
    struct Record
    {
        Time at;        //!< when
        uint32_t nodeA; //!< one end (topology-file numbering)
        uint32_t nodeB; //!< the other end
        bool up;        //!< state after the event
        DataRate rate;  //!< rate after the event
    };

    /// Signature of the "LinkEvent" trace source.
    typedef void (*RecordCallback)(const Record& record);

    static TypeId GetTypeId();
    LinkEvents();

    /// The fabric the events apply to (finalized, routing installed).
    void SetTopology(Ptr<FabricTopology> topo);

    /**
     * \return the index of the one link between nodes \p a and \p b; throws
     * std::invalid_argument with a one-line reason when a node does not
     * exist, no link joins them, or several parallel links do
     */
    uint32_t FindLink(uint32_t a, uint32_t b) const;

    /**
     * Schedule \p e (its link found by FindLink, which may throw). Call
     * before Simulator::Run(): frames already in flight on a link when its
     * first event is added cannot be lost. \p e.at is absolute simulation
     * time, not before now.
     */
    void Add(Event e);
    /// Schedule the link between \p a and \p b to go down at \p at.
    void SetLinkDown(uint32_t a, uint32_t b, Time at);
    /// Schedule the link between \p a and \p b to come up at \p at.
    void SetLinkUp(uint32_t a, uint32_t b, Time at);
    /// Schedule the link between \p a and \p b to run at \p rate from \p at.
    void SetLinkRate(uint32_t a, uint32_t b, Time at, DataRate rate);

    /// \return the events applied so far, in order
    const std::vector<Record>& GetRecords() const;

  private:
    void DoDispose() override;
    void Apply(Event e);

    Ptr<FabricTopology> m_topo;
    Time m_reconvergence;
    std::vector<Record> m_records;
    TracedCallback<const Record&> m_eventTrace;
};

} // namespace ns3

#endif /* LINK_EVENTS_H */
