/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The graph of a fabric: hosts, switches and the links between them, with
 * shortest-path forwarding tables and path queries.
 */
#ifndef FABRIC_TOPOLOGY_H
#define FABRIC_TOPOLOGY_H

#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class FabricChannel;
class FabricNetDevice;
class FabricSwitch;
class RdmaNic;
class RdmaQueuePair;

/**
 * \ingroup training-fabric
 * \brief A built fabric: what every topology exposes to the rest of the module.
 *
 * Topology helpers (LeafSpineHelper, ...) add hosts, switches and links here,
 * then call Finalize(), which sizes every switch MMU, computes the forwarding
 * tables (all shortest-path next hops toward every host, by breadth-first
 * search from the host's switch) and the base RTT of each host pair. Hosts are
 * numbered in the order they are added; host i has IPv4 address 10.0.0.1 + i.
 */
class FabricTopology : public Object
{
  public:
    /// One end of a link.
    struct Endpoint
    {
        bool isHost;    //!< host (true) or switch (false)
        uint32_t index; //!< host or switch index
        uint32_t port;  //!< port index on the switch (0 for a host)
    };

    /// A full-duplex link.
    struct Link
    {
        Endpoint a;                //!< first end
        Endpoint b;                //!< second end
        Ptr<FabricNetDevice> devA; //!< device at a
        Ptr<FabricNetDevice> devB; //!< device at b
        DataRate rate;             //!< line rate
        Time delay;                //!< one-way propagation delay
    };

    /// One hop of a path: a device that transmits the frame.
    struct Hop
    {
        bool fromHost; //!< transmitter is a host NIC
        uint32_t node; //!< host or switch index of the transmitter
        uint32_t port; //!< egress port (0 for a host)
        uint32_t link; //!< link index
    };

    /// A group of egress ports among which a switch balances (an ECMP group).
    struct EcmpGroup
    {
        uint32_t sw;                 //!< switch index
        std::vector<uint16_t> ports; //!< member egress ports, sorted
        std::string name;            //!< e.g. "leaf0.uplinks"
    };

    static TypeId GetTypeId();
    FabricTopology();

    /**
     * Switch the simulator to picosecond time resolution unless it already
     * runs at it. Call it before creating any Time in a program that builds
     * fabric devices by hand; the topology helpers call it themselves.
     * (ns-3 allows one change of resolution per process.)
     */
    static void EnsurePicosecondResolution();
    ~FabricTopology() override;

    /// Attributes applied to every FabricNetDevice created.
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// Attributes applied to every SharedBufferMmu.
    void SetMmuAttribute(const std::string& name, const AttributeValue& value);
    /// Attributes applied to every RdmaNic.
    void SetNicAttribute(const std::string& name, const AttributeValue& value);

    /**
     * Place the nodes created from now on on MPI ranks (ns-3 system ids):
     * host i on \p hostRank[i], switch i on \p switchRank[i], rank 0 beyond
     * the lists. A link whose ends are on different ranks gets a channel of
     * type ns3::FabricRemoteChannel (built only with MPI: without it this
     * throws std::invalid_argument when any rank is not 0).
     */
    void SetSystemIds(std::vector<uint32_t> hostRank, std::vector<uint32_t> switchRank);

    /// Add a host (node, NIC); returns its index.
    uint32_t AddHost();
    /// Add a switch; returns its index.
    uint32_t AddSwitch(const std::string& name);
    /// Join a host to a switch; returns the link index.
    uint32_t ConnectHost(uint32_t host, uint32_t sw, DataRate rate, Time delay);
    /// Join two switches; returns the link index.
    uint32_t ConnectSwitches(uint32_t swA, uint32_t swB, DataRate rate, Time delay);

    /**
     * Size MMUs, compute forwarding tables and base RTTs. Throws
     * std::invalid_argument with a one-line reason when the fabric cannot work
     * (a buffer too small for its headroom, a host that is not connected, a
     * disconnected fabric).
     */
    void Finalize();

    /**
     * Recompute every switch's next hops toward every host (SetRoute) by
     * shortest paths over the links that are up now, as a fabric's routing
     * does when it reconverges after a link failure or repair. A switch that
     * no longer reaches a host keeps its next hops toward it. Routing
     * policies are kept: static pins whose port is no longer a next hop fall
     * back (StaticRouting's "Fallback") to the remaining next hops.
     */
    void RecomputeRoutes();
    /**
     * Links between two nodes numbered as the topology file format numbers
     * them: hosts first (0..H-1), then switches (H..H+S-1); or, after
     * SetNodeNumbering, as the topology file that built the fabric does.
     * \return the link indices, in the order the links were added (empty: none)
     */
    std::vector<uint32_t> FindLinks(uint32_t nodeA, uint32_t nodeB) const;

    /**
     * Number the nodes as the topology file that described the fabric does
     * when it does not list its hosts first (TopologyFileHelper): node
     * \p fabricNode[id] (hosts 0..H-1, then switches) is the file's node
     * \p id. FindLinks, and so link events, then take the file's ids.
     * \param fabricNode a permutation of 0..H+S-1
     */
    void SetNodeNumbering(std::vector<uint32_t> fabricNode);
    /// \return SetNodeNumbering's permutation (empty: hosts first, then switches)
    const std::vector<uint32_t>& GetNodeNumbering() const;

    uint32_t GetNHosts() const;
    uint32_t GetNSwitches() const;
    /**
     * Fix the random streams of every random variable in the fabric (the
     * switches' RED/ECN draws), in switch order from \p stream, so that a run
     * does not depend on what the process simulated before.
     * \param stream the first stream index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);
    uint32_t GetNLinks() const;
    Ptr<Node> GetHostNode(uint32_t host) const;
    Ptr<RdmaNic> GetNic(uint32_t host) const;
    Ptr<FabricSwitch> GetSwitch(uint32_t sw) const;
    Ptr<Node> GetSwitchNode(uint32_t sw) const;
    const Link& GetLink(uint32_t link) const;
    /// \return the switch and port a host is attached to
    Endpoint GetHostAttachment(uint32_t host) const;
    /// \return the link behind switch \p sw port \p port
    uint32_t GetSwitchPortLink(uint32_t sw, uint32_t port) const;
    /// \return the endpoint at the other side of switch \p sw port \p port
    Endpoint GetSwitchPortPeer(uint32_t sw, uint32_t port) const;
    /// \return all host nodes
    NodeContainer GetHostNodes() const;
    /// \return all switch nodes
    NodeContainer GetSwitchNodes() const;
    /// \return every device of the fabric
    NetDeviceContainer GetDevices() const;

    /// \return switch hops between two hosts (0 for the same host)
    uint32_t GetHopCount(uint32_t src, uint32_t dst) const;
    /// \return every shortest path from \p src to \p dst (capped at \p limit paths)
    std::vector<std::vector<Hop>> GetPaths(uint32_t src, uint32_t dst, uint32_t limit = 4096) const;
    /// \return the ECMP groups (sets of next hops with more than one member)
    std::vector<EcmpGroup> GetEcmpGroups() const;

    /**
     * Unloaded round trip between two hosts: a full data frame of \p mtu
     * payload bytes one way and an ACK back, serialization and propagation
     * on every hop (store and forward).
     */
    Time GetBaseRtt(uint32_t src, uint32_t dst, uint32_t mtu) const;
    /**
     * Ideal completion time of a message of \p bytes on an idle path, to the
     * last byte at the destination: frames go back to back from the source,
     * are stored and forwarded at every hop, and the short last frame cannot
     * overtake the full frame ahead of it (an exact deterministic tandem-queue
     * result, see the model doc). Counts every header, FCS, preamble and IFG
     * byte and the propagation of every link. Exact for any 64-bit size;
     * a result beyond ns-3's clock (2^63 - 1 ps) is Time::Max().
     */
    Time GetIdealFct(uint32_t src, uint32_t dst, uint64_t bytes, uint32_t mtu) const;

    /**
     * Connect a queue pair from host \p src to host \p dst (RdmaNic::Connect)
     * and give it the base RTT of its path, which congestion control uses.
     */
    Ptr<RdmaQueuePair> Connect(uint32_t src, uint32_t dst, uint8_t cls, uint16_t srcPort = 0) const;

    /// A switch egress queue: (switch, port, traffic class).
    struct SwitchQueue
    {
        uint32_t sw;
        uint32_t port;
        uint8_t cls;

        bool operator==(const SwitchQueue& o) const
        {
            return sw == o.sw && port == o.port && cls == o.cls;
        }
    };

    /**
     * Look for a PFC pause cycle, the signature of a deadlock: a sequence of
     * switch egress queues, each paused by its peer and holding frames, each
     * peer being the next switch of the sequence, that closes on itself.
     * Cost: one pass over every switch queue, then linear in the paused ones.
     * \return the queues of the cycle in order, empty when none
     */
    std::vector<SwitchQueue> FindPauseCycleQueues() const;
    /// FindPauseCycleQueues() as "switch:port:class" names.
    std::vector<std::string> FindPauseCycle() const;
    /// \return "switch:port:class" for \p q
    std::string QueueName(const SwitchQueue& q) const;

  private:
    void DoDispose() override;
    Ptr<FabricNetDevice> MakeDevice(Ptr<Node> node, DataRate rate);
    uint32_t AddLink(Endpoint a,
                     Endpoint b,
                     Ptr<FabricNetDevice> da,
                     Ptr<FabricNetDevice> db,
                     DataRate rate,
                     Time delay);
    /// Shortest-path next hops over the links that are up; \p initial: throw when unreachable.
    void ComputeRoutes(bool initial);
    /// Links of one shortest path (first next hop at every switch).
    std::vector<uint32_t> FirstPathLinks(uint32_t src, uint32_t dst) const;

    std::vector<uint32_t> m_hostRank;     //!< SetSystemIds
    std::vector<uint32_t> m_switchRank;   //!< SetSystemIds
    ObjectFactory m_remoteChannelFactory; //!< channels of links that cross ranks
    ObjectFactory m_deviceFactory;
    ObjectFactory m_mmuFactory;
    ObjectFactory m_nicFactory;
    /// Built from m_deviceFactory at the first device; every device is a copy of it.
    Ptr<FabricNetDevice> m_deviceProto;
    /// Built from m_nicFactory at the first host; every NIC is a copy of it.
    Ptr<RdmaNic> m_nicProto;
    /// The channel of the first link within a rank; every later one is a copy of it.
    Ptr<FabricChannel> m_channelProto;

    struct HostEntry
    {
        Ptr<Node> node;
        Ptr<RdmaNic> nic;
        bool attached{false};
        Endpoint at{false, 0, 0}; //!< switch and port
        uint32_t link{0};         //!< access link
    };

    struct SwitchEntry
    {
        Ptr<Node> node;
        Ptr<FabricSwitch> sw;
        std::vector<uint32_t> portLink; //!< link of each port
    };

    std::vector<HostEntry> m_hosts;
    std::vector<SwitchEntry> m_switches;
    std::vector<Link> m_links;
    /// [switch t][switch s]: hops from s to t, for the switches hosts attach to
    std::vector<std::vector<uint32_t>> m_dist;
    std::vector<uint32_t> m_nodeNumbering; //!< SetNodeNumbering (empty: identity)
    bool m_finalized{false};
};

} // namespace ns3

#endif /* FABRIC_TOPOLOGY_H */
