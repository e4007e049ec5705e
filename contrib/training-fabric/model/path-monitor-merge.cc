/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The path monitor on several MPI ranks: each rank's records as bytes
 * (Export), and rank 0 merging them into its own (Absorb).
 */
#include "path-monitor.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

namespace ns3
{

namespace
{
/// The first bytes of an export, with the format's version.
constexpr char kMagic[8] = {'t', 'f', 'p', 'm', 'o', 'n', '0', '1'};

/// Appends plain values to a byte string.
class Writer
{
  public:
    template <typename T>
    void Put(const T& v)
    {
        static_assert(std::is_trivially_copyable_v<T>);
        m_out.append(reinterpret_cast<const char*>(&v), sizeof(T));
    }

    std::string& Text()
    {
        return m_out;
    }

  private:
    std::string m_out;
};

/// Reads what Writer wrote; throws on a short string.
class Reader
{
  public:
    Reader(const std::string& in, uint32_t rank)
        : m_in(in),
          m_rank(rank)
    {
    }

    template <typename T>
    T Get()
    {
        static_assert(std::is_trivially_copyable_v<T>);
        if (m_in.size() - m_pos < sizeof(T))
        {
            Fail("ends early");
        }
        T v;
        std::memcpy(&v, m_in.data() + m_pos, sizeof(T));
        m_pos += sizeof(T);
        return v;
    }

    bool AtEnd() const
    {
        return m_pos == m_in.size();
    }

    [[noreturn]] void Fail(const std::string& what) const
    {
        throw std::runtime_error("path monitor: rank " + std::to_string(m_rank) + "'s records " +
                                 what);
    }

  private:
    const std::string& m_in;
    uint32_t m_rank;
    std::size_t m_pos{0};
};

/// A flow's key: its 5-tuple (protocol and destination port are RoCEv2's).
uint64_t
FlowKey(const RoceFlowClassifier::Tuple& t)
{
    return RoceFlowClassifier::Key(t.src, t.dst, t.srcPort);
}
} // namespace

std::string
PathMonitor::Export(Time end) const
{
    Writer w;
    for (char c : kMagic)
    {
        w.Put(c);
    }
    w.Put(GetNDevices());
    w.Put(m_bin.GetTimeStep());
    // Bins up to this rank's end. Not m_bins: a rank keeps sampling after its
    // part of the run until its ports are quiet, which may pass the run's end.
    uint32_t bins = static_cast<uint32_t>(end.GetTimeStep() / m_bin.GetTimeStep()) + 1;
    if (m_lastFrameBin >= 0)
    {
        bins = std::max(bins, static_cast<uint32_t>(m_lastFrameBin) + 1);
    }
    w.Put(bins);
    uint32_t busy = 0;
    for (uint32_t dev = 0; dev < GetNDevices(); ++dev)
    {
        busy += GetLinkBins(dev).empty() ? 0 : 1;
    }
    w.Put(busy);
    for (uint32_t dev = 0; dev < GetNDevices(); ++dev)
    {
        const auto& bins = GetLinkBins(dev);
        if (!bins.empty())
        {
            w.Put(dev);
            w.Put(static_cast<uint64_t>(bins.size()));
            for (const PathProbe::LinkBin& b : bins)
            {
                w.Put(b);
            }
        }
    }
    const auto& flows = GetFlows();
    w.Put(static_cast<uint64_t>(flows.size()));
    for (const Flow& f : flows)
    {
        // Field by field: the tuple has padding.
        w.Put(f.tuple.srcIp);
        w.Put(f.tuple.dstIp);
        w.Put(f.tuple.srcPort);
        w.Put(f.tuple.src);
        w.Put(f.tuple.dst);
        w.Put(f.payloadBytes);
        w.Put(f.frames);
        w.Put(f.first.GetTimeStep());
        w.Put(f.last.GetTimeStep());
        w.Put(f.lastBin);
        w.Put(static_cast<uint32_t>(f.hops.size()));
        for (const Hop& h : f.hops)
        {
            w.Put(h);
        }
    }
    return std::move(w.Text());
}

void
PathMonitor::Absorb(const std::vector<std::string>& exports, uint32_t self)
{
    const auto& flows = GetFlows(); // the hops, from the hop table (no frames come any more)
    std::unordered_map<uint64_t, uint32_t> index;
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        index.emplace(FlowKey(flows[i].tuple), i);
    }
    // Which ports have a flow's hop already: ports are disjoint between ranks.
    std::vector<std::vector<uint32_t>> hopDevs(flows.size());
    for (uint32_t i = 0; i < flows.size(); ++i)
    {
        for (const Hop& h : flows[i].hops)
        {
            hopDevs[i].push_back(h.dev);
        }
    }
    uint32_t bins = 0;
    for (uint32_t rank = 0; rank < exports.size(); ++rank)
    {
        Reader r(exports[rank], rank);
        for (char c : kMagic)
        {
            if (r.Get<char>() != c)
            {
                r.Fail("are not a path monitor's export of this version");
            }
        }
        if (r.Get<uint32_t>() != GetNDevices() || r.Get<int64_t>() != m_bin.GetTimeStep())
        {
            r.Fail("are of another fabric or bin width");
        }
        bins = std::max(bins, r.Get<uint32_t>());
        if (rank == self)
        {
            continue; // this monitor's own records are here already
        }
        const auto busy = r.Get<uint32_t>();
        for (uint32_t k = 0; k < busy; ++k)
        {
            const auto dev = r.Get<uint32_t>();
            if (dev >= GetNDevices() || !GetLinkBins(dev).empty())
            {
                r.Fail("have bins of port " + std::to_string(dev) + ", which is not theirs alone");
            }
            std::vector<PathProbe::LinkBin> series(r.Get<uint64_t>());
            for (auto& b : series)
            {
                b = r.Get<PathProbe::LinkBin>();
            }
            m_probes[dev]->AbsorbBins(std::move(series));
        }
        const auto nFlows = r.Get<uint64_t>();
        for (uint64_t k = 0; k < nFlows; ++k)
        {
            Flow f;
            f.tuple.srcIp = r.Get<uint32_t>();
            f.tuple.dstIp = r.Get<uint32_t>();
            f.tuple.srcPort = r.Get<uint16_t>();
            f.tuple.src = r.Get<uint32_t>();
            f.tuple.dst = r.Get<uint32_t>();
            f.payloadBytes = r.Get<uint64_t>();
            f.frames = r.Get<uint64_t>();
            f.first = TimeStep(r.Get<int64_t>());
            f.last = TimeStep(r.Get<int64_t>());
            f.lastBin = r.Get<uint32_t>();
            f.hops.resize(r.Get<uint32_t>());
            for (Hop& h : f.hops)
            {
                h = r.Get<Hop>();
            }
            auto [it, isNew] = index.try_emplace(FlowKey(f.tuple), m_flows.size());
            if (isNew)
            {
                hopDevs.emplace_back();
                m_flows.emplace_back().tuple = f.tuple;
                m_flows.back().first = f.first;
            }
            Flow& mine = m_flows[it->second];
            std::vector<uint32_t>& devs = hopDevs[it->second];
            if (f.frames > 0)
            {
                // The source's rank: the flow's own fields are its.
                if (mine.frames > 0)
                {
                    r.Fail("have frames of a flow another rank sent too");
                }
                mine.payloadBytes = f.payloadBytes;
                mine.frames = f.frames;
                mine.first = f.first;
                mine.last = f.last;
                mine.lastBin = f.lastBin;
            }
            else if (mine.frames == 0)
            {
                // Neither is the source (yet): first seen anywhere so far.
                mine.first = std::min(mine.first, f.first);
            }
            for (const Hop& h : f.hops)
            {
                if (h.dev >= GetNDevices() ||
                    std::find(devs.begin(), devs.end(), h.dev) != devs.end())
                {
                    r.Fail("have a flow's hop on port " + std::to_string(h.dev) +
                           ", which is not theirs alone");
                }
                devs.push_back(h.dev);
                mine.hops.push_back(h);
            }
        }
        if (!r.AtEnd())
        {
            r.Fail("have bytes after the end");
        }
    }
    m_bins = bins;
}

} // namespace ns3
