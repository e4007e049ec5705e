/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Builds 1D/2D/3D (any-dimensional) tori and meshes of NPUs.
 */
#ifndef TORUS_HELPER_H
#define TORUS_HELPER_H

#include "fabric-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"

#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief A torus (or mesh) of NPUs, TPU-pod style.
 *
 * One vertex per NPU; each vertex is a FabricSwitch (the NPU's built-in
 * router, forwarding transit traffic) with one local host port for the NPU's
 * RDMA endpoint. Vertex v has coordinates c_d = (v / stride_d) mod n_d,
 * stride_0 = 1 (dimension 0 varies fastest); host v sits at vertex v. Each
 * dimension d links a vertex to its neighbour at c_d + 1, and, with
 * wrap-around, n_d - 1 to 0 (a ring; a dimension of size 2 has one link, not
 * two). Every dimension may have its own link rate and delay.
 *
 * Routing: Install() leaves all minimal paths in the forwarding tables (ECMP
 * over the minimal dimension orders). InstallDimensionOrderRouting() replaces
 * them by dimension-order routing: correct dimension 0 first, then 1, ...,
 * each along the shorter way around the ring, ties (n_d even, distance n_d/2)
 * broken toward increasing coordinates.
 *
 * With wrap-around, a ring's buffers form a cycle, so PFC can deadlock under
 * load whatever the routing (Dally & Seitz, 1987); the model does not add
 * dateline virtual channels but FabricTopology::FindPauseCycle() reports a
 * cycle of paused, non-empty ports when a run stalls.
 */
class TorusHelper : public FabricTopologyHelper
{
  public:
    TorusHelper();

    /// Sizes of the dimensions, e.g. {4, 4, 4}; every size at least 1.
    void SetDimensions(const std::vector<uint32_t>& dims);
    /// Wrap-around links (torus, default) or not (mesh).
    void SetWrap(bool wrap);
    /**
     * Rate and delay of dimension \p d's links (after SetDimensions); the
     * other dimensions use the fabric link (SetFabricLink, default 400 Gb/s,
     * 500 ns). The host link is the NPU's local port (default 400 Gb/s, 100 ns).
     */
    void SetDimensionLink(uint32_t d, DataRate rate, Time delay);

    Ptr<FabricTopology> Install() override;

    /// Replace the forwarding tables of \p topo (built by this helper) by DOR.
    void InstallDimensionOrderRouting(Ptr<FabricTopology> topo) const;

    /// \return the number of vertices
    uint32_t GetNVertices() const;
    /// \return the coordinates of vertex \p v
    std::vector<uint32_t> GetCoordinates(uint32_t v) const;
    /// \return the minimal number of torus links between vertices a and b
    uint32_t GetDistance(uint32_t a, uint32_t b) const;

  protected:
    FabricPartition MakePartition(uint32_t ranks) const override;

  private:
    uint32_t Neighbour(uint32_t v, uint32_t d, bool up) const;

    std::vector<uint32_t> m_dims;
    bool m_wrap{true};
    /// SetDimensionLink's (rate, delay) per dimension; empty: the fabric link
    std::vector<std::optional<std::pair<DataRate, Time>>> m_dimLinks;
};

} // namespace ns3

#endif /* TORUS_HELPER_H */
