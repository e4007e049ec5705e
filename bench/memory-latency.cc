/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * The machine's load-to-use latency against the data's size (benchmark, not
 * a test; issue #15): what a cache miss of the fat-tree runs costs here.
 * For each footprint, one cache line a step along a random cycle through
 * all the footprint's lines (Sattolo's shuffle, a fixed seed), each load's
 * address read by the one before, so that nothing overlaps and neither
 * the hardware prefetchers nor out-of-order execution hide anything. The
 * buffer is advised for transparent huge pages, as the simulator's heap is
 * (HeapHugePages), so that page walks do not add to the larger sizes.
 * Prints one JSON line: footprints in KiB and nanoseconds per load.
 *
 *   build/bin/bench-memory-latency [--kib=32,256,1024,...] [--loads=N]
 *
 * Where the nanoseconds jump is where the caches this core gets end; the
 * model doc ("Stop 34") reads the 1,024-host run's misses against it.
 */
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace
{
/// One cache line of the cycle: the next line's address, then padding.
struct alignas(64) Line
{
    Line* next;
    char pad[64 - sizeof(Line*)];
};

/// \return nanoseconds per dependent load over \p kib KiB, \p loads loads
double
NsPerLoad(std::size_t kib, std::size_t loads)
{
    const std::size_t n = std::max<std::size_t>(kib * 1024 / sizeof(Line), 2);
    const std::size_t bytes = n * sizeof(Line);
    const std::size_t huge = std::size_t{2} << 20;
    void* raw = std::aligned_alloc(huge, (bytes + huge - 1) / huge * huge);
    if (!raw)
    {
        return -1;
    }
#ifdef __linux__
    madvise(raw, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);
#endif
    auto* lines = static_cast<Line*>(raw);
    // Sattolo's algorithm: a uniformly random permutation of one cycle.
    std::vector<uint32_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
    {
        order[i] = static_cast<uint32_t>(i);
    }
    std::mt19937_64 rng(1);
    for (std::size_t i = n - 1; i > 0; --i)
    {
        std::uniform_int_distribution<std::size_t> pick(0, i - 1);
        std::swap(order[i], order[pick(rng)]);
    }
    for (std::size_t i = 0; i < n; ++i)
    {
        lines[order[i]].next = &lines[order[(i + 1) % n]];
    }
    Line* p = &lines[order[0]];
    for (std::size_t i = 0; i < n; ++i) // once round: the data in whatever cache holds it
    {
        p = p->next;
    }
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < loads; ++i)
    {
        p = p->next;
    }
    const std::chrono::duration<double, std::nano> ns = std::chrono::steady_clock::now() - start;
    // The walk's end, so that the loop is not optimized away.
    const bool ok = p != nullptr;
    std::free(raw);
    return ok ? ns.count() / static_cast<double>(loads) : -1;
}
} // namespace

int
main(int argc, char** argv)
{
    std::vector<std::size_t> sizes = {32, 256, 1024, 2048, 4096, 8192, 16384, 65536};
    std::size_t loads = 4000000;
    for (int a = 1; a < argc; ++a)
    {
        const std::string arg = argv[a];
        if (arg.rfind("--kib=", 0) == 0)
        {
            sizes.clear();
            std::string list = arg.substr(6);
            for (std::size_t at = 0; at <= list.size();)
            {
                const std::size_t comma = std::min(list.find(',', at), list.size());
                char* end = nullptr;
                const std::string item = list.substr(at, comma - at);
                const unsigned long v = std::strtoul(item.c_str(), &end, 10);
                if (item.empty() || *end != '\0' || v == 0)
                {
                    std::fprintf(stderr,
                                 "bench-memory-latency: --kib: expected sizes in KiB separated "
                                 "by commas, got '%s'\n",
                                 list.c_str());
                    return 2;
                }
                sizes.push_back(v);
                at = comma + 1;
            }
        }
        else if (arg.rfind("--loads=", 0) == 0)
        {
            char* end = nullptr;
            loads = std::strtoul(arg.c_str() + 8, &end, 10);
            if (*end != '\0' || loads == 0)
            {
                std::fprintf(stderr,
                             "bench-memory-latency: --loads: expected a positive count, got '%s'\n",
                             arg.c_str() + 8);
                return 2;
            }
        }
        else
        {
            std::fprintf(stderr,
                         "bench-memory-latency: unknown argument '%s' (--kib=LIST, --loads=N)\n",
                         arg.c_str());
            return 2;
        }
    }
    std::string kib;
    std::string ns;
    bool ok = true;
    for (const std::size_t s : sizes)
    {
        const double v = NsPerLoad(s, loads);
        ok = ok && v > 0;
        char text[64];
        std::snprintf(text, sizeof(text), "%s%zu", kib.empty() ? "" : ", ", s);
        kib += text;
        std::snprintf(text, sizeof(text), "%s%.1f", ns.empty() ? "" : ", ", v);
        ns += text;
    }
    std::printf("{\"bench\": \"memory-latency-ns-per-dependent-load\", \"kib\": [%s], \"ns\": "
                "[%s]}\n",
                kib.c_str(),
                ns.c_str());
    return ok ? 0 : 1;
}
