/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * HeapHugePages under FabricSimulatorImpl's HugePages attribute: which
 * mappings of the heap carry the kernel's MADV_HUGEPAGE flag ("hg" in
 * /proc/self/smaps) and how much of them is mapped with 2 MiB pages, as a
 * fabric is built, as a run grows the heap, and after malloc trimmed it and
 * grew it back. Each test needs a process of its own (ctest runs each so):
 * the heap and malloc's settings are the process's.
 */
#include "simulator-fixtures.h"

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/heap-huge-pages.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <malloc.h>
#include <string>
#include <vector>

using namespace ns3;
using tftest::EndFabric;
using tftest::StartFabricUnderQuadHeap;

namespace
{

/// A mapping of /proc/self/smaps: its range, its AnonHugePages and whether
/// its VmFlags hold "hg" (MADV_HUGEPAGE).
struct Mapping
{
    uintptr_t from{0};
    uintptr_t to{0};
    uint64_t hugeKb{0};
    bool advised{false};
};

/// The mappings of /proc/self/smaps that overlap [\p from, \p to).
std::vector<Mapping>
MappingsOver(uintptr_t from, uintptr_t to)
{
    std::vector<Mapping> all;
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    while (std::getline(smaps, line))
    {
        unsigned long a = 0;
        unsigned long b = 0;
        unsigned long kb = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &a, &b) == 2 && line.find(' ') > line.find('-'))
        {
            all.push_back(Mapping{a, b, 0, false});
        }
        else if (!all.empty() && std::sscanf(line.c_str(), "AnonHugePages: %lu kB", &kb) == 1)
        {
            all.back().hugeKb = kb;
        }
        else if (!all.empty() && line.rfind("VmFlags:", 0) == 0)
        {
            all.back().advised = line.find(" hg") != std::string::npos;
        }
    }
    std::vector<Mapping> over;
    for (const Mapping& m : all)
    {
        if (m.from < to && m.to > from)
        {
            over.push_back(m);
        }
    }
    return over;
}

#if defined(__SANITIZE_ADDRESS__)
#define TF_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TF_TEST_ASAN 1
#endif
#endif

/// Why HeapHugePages cannot act here (empty if it can).
std::string
HugePagesUnavailable()
{
#ifdef TF_TEST_ASAN
    return "AddressSanitizer's allocator does not use the brk heap";
#else
    std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    if (!std::getline(enabled, text))
    {
        return "no transparent huge pages in this kernel";
    }
    if (text.find("[never]") != std::string::npos)
    {
        return "transparent huge pages are off (never)";
    }
    return "";
#endif
}

/// \return the kernel's count of huge pages it could not find for a fault
/// in an advised range (thp_fault_fallback in /proc/vmstat), 0 if unknown
uint64_t
ThpFaultFallbacks()
{
    std::ifstream vmstat("/proc/vmstat");
    std::string key;
    uint64_t value = 0;
    while (vmstat >> key >> value)
    {
        if (key == "thp_fault_fallback")
        {
            return value;
        }
    }
    return 0;
}

/// What a run that grew the heap saw.
struct HeapGrowth
{
    uintptr_t from{0};             //!< lowest block
    uintptr_t to{0};               //!< end of the highest block
    uint64_t advisedBefore{0};     //!< HeapHugePages::GetAdvisedBytes before the run
    uint64_t advisedAfter{0};      //!< and after it
    uint64_t fallbacks{0};         //!< ThpFaultFallbacks during the run
    std::vector<Mapping> mappings; //!< over [from, to), after the run
};

/**
 * Under FabricSimulatorImpl (HugePages \p hugePages), a chain of 24 x
 * 65,536 events (24 of the loop's checks, one every 65,536 events); every
 * 4,096th allocates 112 KiB in seven blocks of 16 KiB (below malloc's mmap
 * threshold, so from the brk heap) and writes them: 42 MiB in all, 1.75 MiB
 * between two checks, as frames and packets come into flight in a fabric.
 */
HeapGrowth
GrowTheHeapSlowlyInARun(bool hugePages)
{
    Config::SetDefault("ns3::FabricSimulatorImpl::HugePages", BooleanValue(hugePages));
    StartFabricUnderQuadHeap();
    HeapGrowth g;
    g.advisedBefore = HeapHugePages::GetAdvisedBytes();
    const uint64_t fallbacksBefore = ThpFaultFallbacks();
    constexpr size_t kBlock = 16 << 10;
    std::vector<char*> blocks;
    uint32_t left = 24 * 65536;
    std::function<void()> chain = [&chain, &left, &blocks]() {
        if (left % 4096 == 0)
        {
            for (int i = 0; i < 7; ++i)
            {
                blocks.push_back(static_cast<char*>(std::malloc(kBlock)));
                std::memset(blocks.back(), 1, kBlock);
            }
        }
        if (--left > 0)
        {
            Simulator::Schedule(NanoSeconds(1), chain);
        }
    };
    Simulator::Schedule(NanoSeconds(1), chain);
    Simulator::Run();
    g.advisedAfter = HeapHugePages::GetAdvisedBytes();
    g.fallbacks = ThpFaultFallbacks() - fallbacksBefore;
    g.from = reinterpret_cast<uintptr_t>(*std::min_element(blocks.begin(), blocks.end()));
    g.to = reinterpret_cast<uintptr_t>(*std::max_element(blocks.begin(), blocks.end())) + kBlock;
    g.mappings = MappingsOver(g.from, g.to);
    for (char* b : blocks)
    {
        std::free(b);
    }
    EndFabric();
    Config::SetDefault("ns3::FabricSimulatorImpl::HugePages", BooleanValue(true));
    return g;
}

} // namespace

// HugePages (default): a run whose events grow the heap by 42 MiB, 1.75 MiB
// between two of the loop's checks. Made, the simulator advised the heap,
// made malloc grow it 32 MiB at a time and took one such growth at once,
// so the blocks first fill that growth, advised before they touch it, and
// then (42 > 32 MiB plus the at most 4 MiB the heap had free) a second
// growth of at least 32 MiB, advised by the next check. Expected: every
// mapping over the blocks carries "hg"; the advised part grew during the
// run; at least one 2 MiB range is mapped huge (the first growth's ranges
// are all touched after its advice), at most the mappings' size, unless
// the kernel found no free 2 MiB page for a fault (thp_fault_fallback
// rose: a fragmented host). With malloc's default growth (128 KiB), each
// growth would be a mapping of about 1.75 MiB, touched before its advice:
// none could hold a huge page, and no fault would try one.
TEST(HeapHugePages, AdvisesTheHeapARunGrows)
{
    const std::string why = HugePagesUnavailable();
    if (!why.empty())
    {
        GTEST_SKIP() << why;
    }
    const HeapGrowth g = GrowTheHeapSlowlyInARun(true);
    ASSERT_FALSE(g.mappings.empty());
    uint64_t hugeKb = 0;
    uint64_t sizeKb = 0;
    for (const Mapping& m : g.mappings)
    {
        EXPECT_TRUE(m.advised) << std::hex << m.from << "-" << m.to;
        hugeKb += m.hugeKb;
        sizeKb += (m.to - m.from) >> 10;
    }
    EXPECT_GT(g.advisedAfter, g.advisedBefore);
    if (g.fallbacks == 0)
    {
        EXPECT_GE(hugeKb, 2048U);
    }
    EXPECT_LE(hugeKb, sizeKb);
}

// HugePages (default), a fabric being built: the simulator, once made,
// advised the heap and took its next growth (32 MiB) at once, so 8 MiB
// allocated next, before any run (as a topology helper allocates devices
// and switches), lie in advised memory: every mapping over them carries
// "hg". (Were the growth left to malloc, it would be a new mapping, not
// advised until the run starts.) Needs a process of its own, as ctest
// runs each test: an earlier test's simulator would have taken the growth.
TEST(HeapHugePages, AdvisesTheHeapAFabricIsBuiltIn)
{
    const std::string why = HugePagesUnavailable();
    if (!why.empty())
    {
        GTEST_SKIP() << why;
    }
    if (HeapHugePages::GetAdvisedBytes() != 0)
    {
        GTEST_SKIP() << "an earlier test in this process advised the heap";
    }
    StartFabricUnderQuadHeap();
    constexpr size_t kBlock = 16 << 10;
    std::vector<char*> blocks;
    for (size_t i = 0; i < (8 << 20) / kBlock; ++i)
    {
        blocks.push_back(static_cast<char*>(std::malloc(kBlock)));
        std::memset(blocks.back(), 1, kBlock);
    }
    const uintptr_t from =
        reinterpret_cast<uintptr_t>(*std::min_element(blocks.begin(), blocks.end()));
    const uintptr_t to =
        reinterpret_cast<uintptr_t>(*std::max_element(blocks.begin(), blocks.end())) + kBlock;
    const std::vector<Mapping> mappings = MappingsOver(from, to);
    for (char* b : blocks)
    {
        std::free(b);
    }
    EndFabric();
    ASSERT_FALSE(mappings.empty());
    for (const Mapping& m : mappings)
    {
        EXPECT_TRUE(m.advised) << std::hex << m.from << "-" << m.to;
    }
}

// HugePages (default): a chain of 140,000 events. The 1,000th (once the
// chain's own small allocations recycle, so nothing lands above the
// blocks) allocates 48 MiB in 16 KiB blocks; the loop's check at event
// 65,536 advises the heap grown for them. Event 70,000 frees them all (malloc, its trim
// threshold set to 1 MiB, trims the heap's top down to its 32 MiB pad,
// and the mapping past it is gone) and
// allocates 48 MiB again, so the heap grows back, as a new mapping, to
// where it ended at that check. Expected: every mapping over the second
// blocks carries "hg" after the check at event 131,072 (a heap grown back
// to the same end is advised again).
TEST(HeapHugePages, AdvisesAHeapTrimmedAndGrownBack)
{
    const std::string why = HugePagesUnavailable();
    if (!why.empty())
    {
        GTEST_SKIP() << why;
    }
    StartFabricUnderQuadHeap();
    // malloc trims its free top above 1 MiB (glibc's threshold moves with
    // its mmap threshold, up to 64 MiB; fixed here so that it trims).
    mallopt(M_TRIM_THRESHOLD, 1 << 20);
    constexpr size_t kBlock = 16 << 10;
    constexpr size_t kBlocks = (48 << 20) / kBlock;
    std::vector<char*> blocks;
    blocks.reserve(kBlocks);
    auto allocate = [&blocks]() {
        for (size_t i = 0; i < kBlocks; ++i)
        {
            blocks.push_back(static_cast<char*>(std::malloc(kBlock)));
            std::memset(blocks.back(), 1, kBlock);
        }
    };
    auto release = [&blocks]() {
        for (auto b = blocks.rbegin(); b != blocks.rend(); ++b)
        {
            std::free(*b);
        }
        blocks.clear();
    };
    uint32_t done = 0;
    std::function<void()> chain = [&]() {
        ++done;
        if (done == 1000)
        {
            allocate();
        }
        else if (done == 70000)
        {
            release();
            allocate();
        }
        if (done < 140000)
        {
            Simulator::Schedule(NanoSeconds(1), chain);
        }
    };
    Simulator::Schedule(NanoSeconds(1), chain);
    Simulator::Run();
    const uintptr_t from =
        reinterpret_cast<uintptr_t>(*std::min_element(blocks.begin(), blocks.end()));
    const uintptr_t to =
        reinterpret_cast<uintptr_t>(*std::max_element(blocks.begin(), blocks.end())) + kBlock;
    const std::vector<Mapping> mappings = MappingsOver(from, to);
    release();
    EndFabric();
    ASSERT_FALSE(mappings.empty());
    for (const Mapping& m : mappings)
    {
        EXPECT_TRUE(m.advised) << std::hex << m.from << "-" << m.to;
    }
}

// HugePages false: the same run advises nothing more. (Run alone, as ctest
// runs each test, no mapping over the blocks is advised either.)
TEST(HeapHugePages, AttributeFalseLeavesTheHeapAlone)
{
    const HeapGrowth g = GrowTheHeapSlowlyInARun(false);
    EXPECT_EQ(g.advisedAfter, g.advisedBefore);
    if (g.advisedBefore == 0)
    {
        for (const Mapping& m : g.mappings)
        {
            EXPECT_FALSE(m.advised) << std::hex << m.from << "-" << m.to;
        }
    }
}
