/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * An output-queued shared-buffer switch for a lossless RoCEv2 fabric.
 */
#ifndef FABRIC_SWITCH_H
#define FABRIC_SWITCH_H

#include "fabric-net-device.h"
#include "lazy-uniform-stream.h"

#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class FabricNetDevice;
class FabricRouting;
class Packet;
class SharedBufferMmu;

/**
 * \ingroup training-fabric
 * \brief A fabric switch: ingress MMU accounting and PFC, routing, egress ECN.
 *
 * A frame arriving on port i in class c (from the IPv4 DSCP: class = DSCP / 8)
 * is parsed once (fixed offsets, no header objects), routed to an egress port
 * by the forwarding table and the routing policy, admitted by the
 * SharedBufferMmu against ingress (i, c), and queued at the egress port. When
 * it starts transmission, its bytes are released, RED marks CE with the
 * probability given by the egress queue (DCQCN congestion point), and XON is
 * sent upstream when (i, c) has drained. XOFF frames are refreshed at half
 * their pause time while the ingress stays congested.
 */
class FabricSwitch : public Object, private FabricPortHandler
{
  public:
    /// Reasons a frame may be dropped.
    enum DropReason : uint8_t
    {
        DROP_HEADROOM_OVERFLOW = 0, //!< lossless class, PFC headroom exhausted
        DROP_BUFFER_OVERFLOW = 1,   //!< lossy class, no buffer
        DROP_NO_ROUTE = 2,          //!< destination unknown
        DROP_MALFORMED = 3,         //!< not a RoCEv2 frame
        DROP_LINK_DOWN = 4,         //!< routed onto a port whose link is down
        DROP_REASON_COUNT = 5,
    };

    /// \return a short name of \p reason, as used in summaries
    static const char* DropReasonName(DropReason reason);

    static TypeId GetTypeId();
    FabricSwitch();
    ~FabricSwitch() override;

    /// Add a port; its index is the number of ports added before it.
    uint32_t AddPort(Ptr<FabricNetDevice> dev);
    /// \return the number of ports
    uint32_t GetNPorts() const;
    /// \return port \p i
    Ptr<FabricNetDevice> GetPort(uint32_t i) const;

    /**
     * Size the MMU and the pause timers for the ports added so far. Call
     * after all AddPort().
     * \return an empty string or a one-line reason the buffer is too small
     */
    std::string Configure();

    /**
     * Where every host of the fabric attaches: the index of its switch and
     * the port there, per host index. One table serves every switch of a
     * fabric (FabricTopology shares it).
     */
    struct HostAttachments
    {
        std::vector<uint32_t> sw;   //!< switch of each host
        std::vector<uint16_t> port; //!< port of each host on its switch
    };

    /**
     * Route by destination switch (FabricTopology does), in a fabric of
     * \p nSwitches switches: a host attached to this switch (\p self in \p at) is reached through
     * its own port, any other host through the group SetSwitchRouteGroup gave its switch. The table
     * then costs 4 bytes per switch instead of 4 bytes per host. Routes set per host (SetRoute,
     * SetRouteGroup for one host) take precedence: the first one copies every host's route into a
     * per-host table.
     */
    void SetHostAttachments(std::shared_ptr<const HostAttachments> at,
                            uint32_t self,
                            uint32_t nSwitches);
    /**
     * Route toward every host attached to switch \p dstSwitch through \p group
     * (from AddRouteGroup); \p hosts are those hosts, which a per-host table
     * (see SetHostAttachments) also gets.
     */
    void SetSwitchRouteGroup(uint32_t dstSwitch,
                             uint32_t group,
                             const std::vector<uint32_t>& hosts);
    /// Route toward each of \p hosts, attached to this switch, through its own port.
    void SetAttachedRoutes(const std::vector<uint32_t>& hosts);

    /// Set the next hops toward host \p dstHost (egress port indices).
    void SetRoute(uint32_t dstHost, const std::vector<uint16_t>& ports);
    /**
     * \return the index of the next-hop group \p ports in this switch's
     * table, added if new. Destinations share groups (from a spine, every
     * host behind one leaf; from a leaf, every remote host), so the table
     * holds a few groups of ports and one index per destination host.
     */
    uint32_t AddRouteGroup(const std::vector<uint16_t>& ports);
    /// Route toward \p dstHost through \p group (from AddRouteGroup).
    void SetRouteGroup(uint32_t dstHost, uint32_t group);
    /// Route toward each of \p dstHosts through \p group (from AddRouteGroup).
    void SetRouteGroup(const std::vector<uint32_t>& dstHosts, uint32_t group);

    /// \return the next hops toward \p dstHost
    const std::vector<uint16_t>& GetRoute(uint32_t dstHost) const
    {
        return m_groups[GetRouteGroupIndex(dstHost)];
    }

    /// \return the index of the group GetRoute(\p dstHost) returns (0: no route)
    uint32_t GetRouteGroupIndex(uint32_t dstHost) const
    {
        if (dstHost >= m_nRouted)
        {
            return 0;
        }
        if (!m_hostSwitch)
        {
            return m_groupOf[dstHost];
        }
        const uint32_t t = m_hostSwitch[dstHost];
        return t == m_self ? m_groupOfPort[m_hostPort[dstHost]] : m_groupOfSwitch[t];
    }

    /// \return the number of groups (AddRouteGroup; group 0 is the empty set)
    uint32_t GetNRouteGroups() const;
    /// \return group \p group's ports
    const std::vector<uint16_t>& GetRouteGroup(uint32_t group) const;
    /// Set the routing policy.
    void SetRouting(Ptr<FabricRouting> routing);
    /// \return the routing policy
    Ptr<FabricRouting> GetRouting() const;
    /// \return the MMU
    Ptr<SharedBufferMmu> GetMmu() const;

    /// Fix the random stream used for RED (deterministic runs).
    int64_t AssignStreams(int64_t stream);

    /// Counters, for summaries and tests.
    struct Counters
    {
        uint64_t rxFrames{0};    //!< data frames received
        uint64_t forwarded{0};   //!< frames queued at an egress
        uint64_t ecnMarked{0};   //!< frames marked CE
        uint64_t xoffSent{0};    //!< pause transitions (first XOFF of an episode)
        uint64_t xoffRefresh{0}; //!< XOFF refreshes
        uint64_t xonSent{0};     //!< resume frames
        std::array<uint64_t, DROP_REASON_COUNT> drops{}; //!< by reason
    };

    const Counters& GetCounters() const;

    /// Name used in logs and outputs (e.g. "leaf0", "spine3").
    void SetName(const std::string& name);
    const std::string& GetName() const;

  private:
    void DoDispose() override;
    // FabricPortHandler: the ports' frames.
    void ReceiveFrame(FabricNetDevice* dev, FabricFrame* f) override;
    void FrameDequeued(FabricNetDevice* dev, FabricFrame& f, uint8_t cls, uint32_t tag) override;
    void PrefetchReceive(const FabricNetDevice* dev,
                         const FabricFrame& f,
                         int level) const override;
    void LinkChanged(FabricNetDevice* dev, bool up) override;
    /// Count and trace the drop of \p f, and free it.
    void Drop(FabricFrame* f, uint32_t inPort, DropReason reason);
    void RefreshPause(uint32_t port, uint8_t cls, bool refresh);
    void SendXon(uint32_t port, uint8_t cls);

    std::string m_name;
    std::vector<Ptr<FabricNetDevice>> m_ports;
    std::vector<std::vector<uint16_t>> m_groups{1}; //!< distinct next-hop sets; 0: none

    /// Where a group's ports are in m_groupPorts.
    struct GroupSpan
    {
        uint32_t offset; //!< its first port's index
        uint32_t count;  //!< its ports
    };

    /**
     * m_groups again for a frame's route lookup: every group's ports in
     * one array and each group's place in another, a few lines for a
     * switch's groups instead of a heap block each and the vectors' own
     * lines (issue #15). Groups are only ever added.
     */
    std::vector<GroupSpan> m_groupSpans{GroupSpan{0, 0}};
    std::vector<uint16_t> m_groupPorts;                     //!< see m_groupSpans
    std::map<std::vector<uint16_t>, uint32_t> m_groupIndex; //!< index in m_groups of each set
    uint32_t m_lastGroup{0};         //!< the group AddRouteGroup returned last
    std::vector<uint32_t> m_groupOf; //!< per destination host (SetRoute): its m_groups index
    std::shared_ptr<const HostAttachments> m_hosts; //!< SetHostAttachments
    /// m_hosts->sw.data() while routes go by destination switch, null with a per-host table
    const uint32_t* m_hostSwitch{nullptr};
    const uint16_t* m_hostPort{nullptr};   //!< m_hosts->port.data()
    uint32_t m_nRouted{0};                 //!< hosts GetRouteGroupIndex knows
    uint32_t m_self{0};                    //!< this switch's index in m_hosts
    std::vector<uint32_t> m_groupOfSwitch; //!< per destination switch: its m_groups index
    std::vector<uint32_t> m_groupOfPort;   //!< per port: the group of that port alone
    Ptr<FabricRouting> m_routing;
    Ptr<SharedBufferMmu> m_mmu;
    LazyUniformStream m_uniform;                   //!< RED's draws
    std::vector<std::array<EventId, 8>> m_refresh; //!< XOFF refresh timer per (port, class)
    Counters m_counters;

    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, uint8_t> m_forwardTrace;
    TracedCallback<Ptr<const Packet>, uint32_t, uint8_t> m_dropTrace;
    TracedCallback<uint32_t, uint8_t, bool> m_pfcTrace;
};

} // namespace ns3

#endif /* FABRIC_SWITCH_H */
