/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "collective-plan.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace ns3
{

namespace
{
using Ready = std::vector<std::vector<uint32_t>>; //!< per local rank: arrivals needed first

/// Size of piece i when \p total is split into \p parts (remainder to the first pieces).
uint64_t
Split(uint64_t total, uint64_t parts, uint64_t i)
{
    return total / parts + (i < total % parts ? 1 : 0);
}

bool
IsPowerOfTwo(uint32_t n)
{
    return n && !(n & (n - 1));
}

/// Builds one piece (channel, chunk) of a collective over a subset of ranks.
class Builder
{
  public:
    Builder(CollectivePlan& plan, uint32_t channel)
        : m_plan(plan),
          m_channel(channel)
    {
    }

    uint32_t Add(uint32_t src, uint32_t dst, uint64_t bytes, std::vector<uint32_t> deps)
    {
        Transfer t;
        t.src = src;
        t.dst = dst;
        t.bytes = bytes;
        t.channel = m_channel;
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        t.deps = std::move(deps);
        for (uint32_t d : t.deps)
        {
            t.step = std::max(t.step, m_plan.transfers[d].step + 1);
        }
        m_plan.transfers.push_back(std::move(t));
        return static_cast<uint32_t>(m_plan.transfers.size() - 1);
    }

    static std::vector<uint32_t> Join(const std::vector<uint32_t>& a,
                                      const std::vector<uint32_t>& b)
    {
        std::vector<uint32_t> r = a;
        r.insert(r.end(), b.begin(), b.end());
        return r;
    }

    // Each algorithm runs over `ranks` (global group indices), each rank with
    // `bytes` of data in the sense of the operation, and returns the arrivals
    // each rank needs before it can go on.

    Ready RingReduceScatter(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in)
    {
        return Ring(ranks, bytes, in, 0);
    }

    Ready RingAllGather(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in)
    {
        return Ring(ranks, bytes, in, 1);
    }

    /// N-1 ring steps; at step s rank i sends segment (i + shift - s) mod n to i+1.
    Ready Ring(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in, uint32_t shift)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        Ready out = in;
        if (n < 2)
        {
            return out;
        }
        std::vector<uint32_t> last(n);
        for (uint32_t s = 0; s + 1 < n; ++s)
        {
            std::vector<uint32_t> now(n);
            for (uint32_t i = 0; i < n; ++i)
            {
                const uint32_t seg = (i + shift + n - s % n) % n;
                std::vector<uint32_t> deps = in[i];
                if (s > 0)
                {
                    deps.push_back(last[(i + n - 1) % n]);
                }
                now[i] = Add(ranks[i], ranks[(i + 1) % n], Split(bytes, n, seg), deps);
            }
            last = now;
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            out[i] = Join(in[i], {last[(i + n - 1) % n]});
        }
        return out;
    }

    /// Every rank sends `perPeer(i, j)` bytes to every other rank at once.
    Ready Direct(const std::vector<uint32_t>& ranks,
                 const std::function<uint64_t(uint32_t, uint32_t)>& perPeer,
                 const Ready& in)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        Ready out = in;
        for (uint32_t i = 0; i < n; ++i)
        {
            for (uint32_t j = 0; j < n; ++j)
            {
                if (i != j)
                {
                    out[j].push_back(Add(ranks[i], ranks[j], perPeer(i, j), in[i]));
                }
            }
        }
        return out;
    }

    Ready DirectReduceScatter(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        return Direct(
            ranks,
            [&](uint32_t, uint32_t j) { return Split(bytes, n, j); },
            in);
    }

    Ready DirectAllGather(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        return Direct(
            ranks,
            [&](uint32_t i, uint32_t) { return Split(bytes, n, i); },
            in);
    }

    /// Recursive halving (reduce-scatter) on a power-of-two group.
    Ready HalvingReduceScatter(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        Ready out = in;
        std::vector<uint64_t> block(n, bytes);
        std::vector<uint32_t> last(n, UINT32_MAX);
        for (uint32_t dist = n / 2; dist >= 1; dist /= 2)
        {
            std::vector<uint32_t> now(n);
            std::vector<uint64_t> next(n);
            for (uint32_t i = 0; i < n; ++i)
            {
                const uint32_t p = i ^ dist;
                // Send the half the partner keeps; keep the other half.
                const uint64_t keep = (i < p) ? block[i] - block[i] / 2 : block[i] / 2;
                next[i] = keep;
                std::vector<uint32_t> deps = in[i];
                if (last[i] != UINT32_MAX)
                {
                    deps.push_back(last[i]);
                }
                now[p] = Add(ranks[i], ranks[p], block[i] - keep, deps); // arrives at p
            }
            block = next;
            last = now;
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            out[i] = Join(in[i], {last[i]});
        }
        return out;
    }

    /// Recursive doubling (all-gather) on a power-of-two group.
    Ready DoublingAllGather(const std::vector<uint32_t>& ranks, uint64_t bytes, const Ready& in)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        Ready out = in;
        std::vector<uint64_t> have(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            have[i] = Split(bytes, n, i);
        }
        std::vector<uint32_t> last(n, UINT32_MAX);
        for (uint32_t dist = 1; dist < n; dist *= 2)
        {
            std::vector<uint32_t> now(n);
            std::vector<uint64_t> next(n);
            for (uint32_t i = 0; i < n; ++i)
            {
                const uint32_t p = i ^ dist;
                std::vector<uint32_t> deps = in[i];
                if (last[i] != UINT32_MAX)
                {
                    deps.push_back(last[i]);
                }
                now[p] = Add(ranks[i], ranks[p], have[i], deps);
                next[p] = have[p] + have[i];
            }
            have = next;
            last = now;
        }
        for (uint32_t i = 0; i < n; ++i)
        {
            out[i] = Join(in[i], {last[i]});
        }
        return out;
    }

    /// Binary-tree reduce then broadcast of `bytes`; `order` maps tree slots to local ranks.
    Ready Tree(const std::vector<uint32_t>& ranks,
               const std::vector<uint32_t>& order,
               uint64_t bytes,
               const Ready& in)
    {
        const uint32_t n = static_cast<uint32_t>(ranks.size());
        Ready out = in;
        // Heap layout: slot k has children 2k+1 and 2k+2; reduce bottom-up.
        std::vector<std::vector<uint32_t>> got(n); // arrivals at each slot
        for (uint32_t k = n; k-- > 1;)
        {
            const uint32_t parent = (k - 1) / 2;
            std::vector<uint32_t> deps = Join(in[order[k]], got[k]);
            got[parent].push_back(Add(ranks[order[k]], ranks[order[parent]], bytes, deps));
        }
        // Broadcast top-down: the root once everything is reduced.
        std::vector<std::vector<uint32_t>> down(n);
        down[0] = Join(in[order[0]], got[0]);
        for (uint32_t k = 1; k < n; ++k)
        {
            const uint32_t parent = (k - 1) / 2;
            down[k] = {Add(ranks[order[parent]], ranks[order[k]], bytes, down[parent])};
        }
        for (uint32_t k = 0; k < n; ++k)
        {
            out[order[k]] = Join(in[order[k]], down[k]);
        }
        return out;
    }

    CollectivePlan& m_plan;
    uint32_t m_channel;
};

Ready
Phase(Builder& b,
      const std::string& type,
      const std::string& algorithm,
      const std::vector<uint32_t>& ranks,
      uint64_t bytes,
      const Ready& in)
{
    const uint32_t n = static_cast<uint32_t>(ranks.size());
    if (algorithm == "ring")
    {
        if (type == "reduce-scatter")
        {
            return b.RingReduceScatter(ranks, bytes, in);
        }
        if (type == "all-gather")
        {
            return b.RingAllGather(ranks, bytes, in);
        }
        if (type == "all-reduce")
        {
            // After the reduce-scatter rank i owns segment i+1, which the
            // all-gather (shift 1) starts from.
            return b.RingAllGather(ranks, bytes, b.RingReduceScatter(ranks, bytes, in));
        }
    }
    else if (algorithm == "direct")
    {
        if (type == "reduce-scatter")
        {
            return b.DirectReduceScatter(ranks, bytes, in);
        }
        if (type == "all-gather")
        {
            return b.DirectAllGather(ranks, bytes, in);
        }
        if (type == "all-reduce")
        {
            return b.DirectAllGather(ranks, bytes, b.DirectReduceScatter(ranks, bytes, in));
        }
        if (type == "all-to-all")
        {
            return b.Direct(
                ranks,
                [&](uint32_t, uint32_t j) { return Split(bytes, n, j); },
                in);
        }
    }
    else if (algorithm == "halving-doubling")
    {
        if (type == "all-reduce" && !IsPowerOfTwo(n))
        {
            // Fold the ranks beyond the largest power of two P onto ranks
            // 0..n-P-1, run on P ranks, unfold the result.
            uint32_t p = 1;
            while (p * 2 <= n)
            {
                p *= 2;
            }
            Ready mid(in.begin(), in.begin() + p);
            for (uint32_t e = p; e < n; ++e)
            {
                mid[e - p].push_back(b.Add(ranks[e], ranks[e - p], bytes, in[e]));
            }
            std::vector<uint32_t> core(ranks.begin(), ranks.begin() + p);
            Ready r = b.DoublingAllGather(core, bytes, b.HalvingReduceScatter(core, bytes, mid));
            Ready out = in;
            for (uint32_t i = 0; i < p; ++i)
            {
                out[i] = r[i];
            }
            for (uint32_t e = p; e < n; ++e)
            {
                out[e] = Builder::Join(in[e], {b.Add(ranks[e - p], ranks[e], bytes, r[e - p])});
            }
            return out;
        }
        if (!IsPowerOfTwo(n))
        {
            throw std::invalid_argument("halving-doubling " + type +
                                        " needs a power-of-two group (use ring or direct)");
        }
        if (type == "reduce-scatter")
        {
            return b.HalvingReduceScatter(ranks, bytes, in);
        }
        if (type == "all-gather")
        {
            return b.DoublingAllGather(ranks, bytes, in);
        }
        if (type == "all-reduce")
        {
            return b.DoublingAllGather(ranks, bytes, b.HalvingReduceScatter(ranks, bytes, in));
        }
    }
    else if (algorithm == "double-binary-tree" && type == "all-reduce")
    {
        // Two trees, each half the data. Tree 2 numbers the ranks backwards,
        // so most inner nodes of one tree are leaves of the other.
        std::vector<uint32_t> fwd(n);
        std::vector<uint32_t> bwd(n);
        for (uint32_t i = 0; i < n; ++i)
        {
            fwd[i] = i;
            bwd[i] = n - 1 - i;
        }
        Ready a = b.Tree(ranks, fwd, bytes - bytes / 2, in);
        Ready c = b.Tree(ranks, bwd, bytes / 2, in);
        for (uint32_t i = 0; i < n; ++i)
        {
            a[i] = Builder::Join(a[i], c[i]);
        }
        return a;
    }
    throw std::invalid_argument("algorithm \"" + algorithm + "\" does not do " + type +
                                " (ring: all-reduce, reduce-scatter, all-gather; direct: those "
                                "and all-to-all; halving-doubling: all-reduce, reduce-scatter, "
                                "all-gather; double-binary-tree and hierarchical: all-reduce)");
}

} // namespace

CollectivePlan
PlanCollective(const CollectiveSpec& spec)
{
    const uint32_t n = spec.ranks;
    if (n == 0)
    {
        throw std::invalid_argument("a collective needs at least one rank");
    }
    if (spec.chunks == 0 || spec.channels == 0)
    {
        throw std::invalid_argument("chunks and channels must be at least 1");
    }
    static const std::vector<std::string> types{"all-reduce",
                                                "reduce-scatter",
                                                "all-gather",
                                                "all-to-all",
                                                "broadcast",
                                                "reduce",
                                                "barrier"};
    if (std::find(types.begin(), types.end(), spec.type) == types.end())
    {
        throw std::invalid_argument(
            "unknown collective \"" + spec.type +
            "\" (valid: all-reduce, reduce-scatter, all-gather, all-to-all)");
    }
    CollectivePlan plan;
    plan.busFactor = spec.type == "all-reduce" ? 2.0 * (n - 1) / n : double(n - 1) / n;
    if (spec.type == "broadcast" || spec.type == "reduce" || spec.type == "barrier")
    {
        plan.busFactor = 1.0; // nccl-tests: busbw = algbw for broadcast and reduce
    }
    if (n == 1)
    {
        return plan;
    }
    if (spec.type == "barrier")
    {
        // Every rank tells every other it has arrived (one byte each); the
        // barrier ends when all have heard from all.
        Builder b(plan, 0);
        b.Direct(
            std::vector<uint32_t>([n] {
                std::vector<uint32_t> r(n);
                for (uint32_t i = 0; i < n; ++i)
                {
                    r[i] = i;
                }
                return r;
            }()),
            [](uint32_t, uint32_t) { return uint64_t(1); },
            Ready(n));
        return plan;
    }
    if (spec.type == "broadcast" || spec.type == "reduce")
    {
        // A pipelined chain through the ranks in order, root rank 0:
        // broadcast flows 0 -> 1 -> ... -> n-1, reduce n-1 -> ... -> 0; each
        // chunk of a channel moves on once it has arrived at a rank.
        for (uint32_t k = 0; k < spec.channels; ++k)
        {
            const uint64_t channelBytes = Split(spec.bytes, spec.channels, k);
            Builder b(plan, k);
            for (uint32_t c = 0; c < spec.chunks; ++c)
            {
                const uint64_t piece = Split(channelBytes, spec.chunks, c);
                uint32_t last = UINT32_MAX;
                for (uint32_t s = 0; s + 1 < n; ++s)
                {
                    const uint32_t from = spec.type == "broadcast" ? s : n - 1 - s;
                    const uint32_t to = spec.type == "broadcast" ? s + 1 : n - 2 - s;
                    std::vector<uint32_t> deps;
                    if (last != UINT32_MAX)
                    {
                        deps.push_back(last);
                    }
                    last = b.Add(from, to, piece, deps);
                }
            }
        }
        return plan;
    }
    std::vector<uint32_t> all(n);
    for (uint32_t i = 0; i < n; ++i)
    {
        all[i] = i;
    }
    for (uint32_t k = 0; k < spec.channels; ++k)
    {
        const uint64_t channelBytes = Split(spec.bytes, spec.channels, k);
        for (uint32_t c = 0; c < spec.chunks; ++c)
        {
            const uint64_t piece = Split(channelBytes, spec.chunks, c);
            Builder b(plan, k);
            const Ready none(n);
            if (spec.algorithm != "hierarchical")
            {
                Phase(b, spec.type, spec.algorithm, all, piece, none);
                continue;
            }
            if (spec.type != "all-reduce")
            {
                throw std::invalid_argument("hierarchical does only all-reduce");
            }
            uint64_t prod = 1;
            for (uint32_t d : spec.dims)
            {
                if (d == 0)
                {
                    throw std::invalid_argument("hierarchical: dimension sizes must be >= 1");
                }
                prod *= d;
            }
            if (spec.dims.empty() || prod != n)
            {
                throw std::invalid_argument("hierarchical: dims must multiply to the group size " +
                                            std::to_string(n));
            }
            // Reduce-scatter along dimension 1, 2, ...; all-gather back.
            Ready ready = none;
            uint64_t stride = 1;
            std::vector<uint64_t> strides;
            for (std::size_t d = 0; d < spec.dims.size(); ++d)
            {
                strides.push_back(stride);
                stride *= spec.dims[d];
            }
            auto groups = [&](std::size_t d) {
                // Ranks that differ only in coordinate d.
                std::vector<std::vector<uint32_t>> gs;
                for (uint32_t r = 0; r < n; ++r)
                {
                    if ((r / strides[d]) % spec.dims[d] == 0)
                    {
                        std::vector<uint32_t> g;
                        for (uint32_t x = 0; x < spec.dims[d]; ++x)
                        {
                            g.push_back(static_cast<uint32_t>(r + x * strides[d]));
                        }
                        gs.push_back(g);
                    }
                }
                return gs;
            };
            // What a rank holds entering dimension d: its share of each
            // earlier dimension's reduce-scatter, Split by its coordinate
            // there (the shares of a dimension add up to what it split, so
            // no remainder byte is lost or counted twice). The ranks of one
            // group of dimension d agree on every earlier coordinate.
            auto shard = [&](uint32_t r, std::size_t d) {
                uint64_t bytes = piece;
                for (std::size_t k = 0; k < d; ++k)
                {
                    bytes = Split(bytes, spec.dims[k], (r / strides[k]) % spec.dims[k]);
                }
                return bytes;
            };
            auto algo = [&](std::size_t d) {
                return d < spec.dimAlgorithms.size() ? spec.dimAlgorithms[d] : std::string("ring");
            };
            auto run = [&](std::size_t d, const std::string& type) {
                Ready next = ready;
                for (const auto& g : groups(d))
                {
                    const uint64_t bytes = shard(g[0], d);
                    Ready in(g.size());
                    for (std::size_t i = 0; i < g.size(); ++i)
                    {
                        in[i] = ready[g[i]];
                    }
                    Ready r = Phase(b, type, algo(d), g, bytes, in);
                    for (std::size_t i = 0; i < g.size(); ++i)
                    {
                        next[g[i]] = r[i];
                    }
                }
                ready = next;
            };
            for (std::size_t d = 0; d < spec.dims.size(); ++d)
            {
                run(d, "reduce-scatter");
            }
            for (std::size_t d = spec.dims.size(); d-- > 0;)
            {
                run(d, "all-gather");
            }
        }
    }
    return plan;
}

uint64_t
BytesSentBy(const CollectivePlan& plan, uint32_t r)
{
    uint64_t sum = 0;
    for (const auto& t : plan.transfers)
    {
        if (t.src == r)
        {
            sum += t.bytes;
        }
    }
    return sum;
}

} // namespace ns3
