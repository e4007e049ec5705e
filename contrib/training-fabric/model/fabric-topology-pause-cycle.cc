/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * FabricTopology's search for a PFC pause cycle (deadlock) among the switch
 * egress queues.
 */
#include "fabric-net-device.h"
#include "fabric-switch.h"
#include "fabric-topology.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ns3
{

std::vector<FabricTopology::SwitchQueue>
FabricTopology::FindPauseCycleQueues() const
{
    // Nodes: (switch, port, class) egress queues paused by their peer and
    // non-empty. Edges: from such a queue to every such queue of the peer
    // switch in the same class (the frames it waits for cannot leave).
    std::vector<SwitchQueue> nodes;
    std::vector<std::size_t> firstOfSwitch(m_switches.size() + 1); // nodes sorted by switch
    for (uint32_t s = 0; s < m_switches.size(); ++s)
    {
        firstOfSwitch[s] = nodes.size();
        Ptr<FabricSwitch> sw = m_switches[s].sw;
        for (uint32_t p = 0; p < sw->GetNPorts(); ++p)
        {
            Ptr<FabricNetDevice> dev = sw->GetPort(p);
            for (uint8_t c = 0; c < FabricNetDevice::kNumClasses; ++c)
            {
                if (dev->IsPaused(c) && dev->GetQueueFrames(c) > 0)
                {
                    nodes.push_back(SwitchQueue{s, p, c});
                }
            }
        }
    }
    firstOfSwitch[m_switches.size()] = nodes.size();
    auto next = [&](std::size_t u, std::vector<std::size_t>& out) {
        out.clear();
        const Endpoint peer = GetSwitchPortPeer(nodes[u].sw, nodes[u].port);
        if (!peer.isHost)
        {
            for (std::size_t v = firstOfSwitch[peer.index]; v < firstOfSwitch[peer.index + 1]; ++v)
            {
                if (nodes[v].cls == nodes[u].cls)
                {
                    out.push_back(v);
                }
            }
        }
    };
    // Depth-first search for a back edge, with an explicit stack (a deep
    // recursion over many paused queues would overflow the call stack).
    std::vector<int> state(nodes.size(), 0); // 0 new, 1 on the path, 2 done

    struct Frame
    {
        std::size_t node;
        std::vector<std::size_t> succ;
        std::size_t at;
    };

    for (std::size_t root = 0; root < nodes.size(); ++root)
    {
        if (state[root] != 0)
        {
            continue;
        }
        std::vector<Frame> path;
        path.push_back(Frame{root, {}, 0});
        next(root, path.back().succ);
        state[root] = 1;
        while (!path.empty())
        {
            Frame& f = path.back();
            if (f.at == f.succ.size())
            {
                state[f.node] = 2;
                path.pop_back();
                continue;
            }
            const std::size_t v = f.succ[f.at++];
            if (state[v] == 1)
            {
                std::vector<SwitchQueue> cycle;
                auto it = std::find_if(path.begin(), path.end(), [v](const Frame& x) {
                    return x.node == v;
                });
                for (; it != path.end(); ++it)
                {
                    cycle.push_back(nodes[it->node]);
                }
                return cycle;
            }
            if (state[v] == 0)
            {
                state[v] = 1;
                path.push_back(Frame{v, {}, 0});
                next(v, path.back().succ);
            }
        }
    }
    return {};
}

std::string
FabricTopology::QueueName(const SwitchQueue& q) const
{
    return m_switches.at(q.sw).sw->GetName() + ":" + std::to_string(q.port) + ":" +
           std::to_string(q.cls);
}

std::vector<std::string>
FabricTopology::FindPauseCycle() const
{
    std::vector<std::string> names;
    for (const SwitchQueue& q : FindPauseCycleQueues())
    {
        names.push_back(QueueName(q));
    }
    return names;
}

} // namespace ns3
