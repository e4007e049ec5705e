/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "run-control.h"

#include "ns3/fabric-net-device.h"
#include "ns3/fabric-switch.h"
#include "ns3/simulator.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sys/resource.h>
#include <unistd.h>

namespace ns3
{

std::string
OutcomeName(RunOutcome o)
{
    switch (o)
    {
    case RunOutcome::COMPLETED:
        return "completed";
    case RunOutcome::STALLED:
        return "stalled";
    default:
        return "stop_reached";
    }
}

int
ExitCodeFor(RunOutcome o, bool fixedLength)
{
    switch (o)
    {
    case RunOutcome::COMPLETED:
        return ExitCode::kCompleted;
    case RunOutcome::STALLED:
        return ExitCode::kStalled;
    default:
        return fixedLength ? ExitCode::kCompleted : ExitCode::kStopReached;
    }
}

StallDetector::StallDetector(Ptr<FabricTopology> topo, Time timeout)
    : m_topo(topo),
      m_timeout(timeout),
      m_period(std::max(timeout / 4, PicoSeconds(1)))
{
}

void
StallDetector::Start(Callback<void> onStall)
{
    m_onStall = onStall;
    m_event = Simulator::ScheduleNow(&StallDetector::Check, this);
}

bool
StallDetector::IsStalled() const
{
    return m_stalled;
}

Time
StallDetector::GetCycleSince() const
{
    return m_since;
}

std::vector<std::string>
StallDetector::GetCycle() const
{
    std::vector<std::string> names;
    if (m_stalled)
    {
        for (const auto& q : m_cycle)
        {
            names.push_back(m_topo->QueueName(q));
        }
    }
    return names;
}

std::vector<Time>
StallDetector::PausedTimes() const
{
    std::vector<Time> t;
    for (const auto& q : m_cycle)
    {
        t.push_back(m_topo->GetSwitch(q.sw)->GetPort(q.port)->GetCounters().pausedTime[q.cls]);
    }
    return t;
}

void
StallDetector::Check()
{
    const Time now = Simulator::Now();
    std::vector<FabricTopology::SwitchQueue> cycle = m_topo->FindPauseCycleQueues();
    bool blocked = !cycle.empty() && cycle == m_cycle;
    if (blocked)
    {
        // Paused for the whole time since: not one frame of the class left.
        const std::vector<Time> paused = PausedTimes();
        for (std::size_t i = 0; i < paused.size() && blocked; ++i)
        {
            blocked = paused[i] - m_pausedAtSince[i] == now - m_since;
        }
    }
    if (!blocked)
    {
        // A new cycle (or none, or one that moved): watch it from now.
        m_cycle = std::move(cycle);
        m_pausedAtSince = PausedTimes();
        m_since = now;
    }
    else if (now - m_since >= m_timeout)
    {
        m_stalled = true;
        m_onStall();
        return;
    }
    m_event = Simulator::Schedule(m_period, &StallDetector::Check, this);
}

std::string
PrepareOutputDirectory(const std::string& dir)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    {
        return "it is a file, not a directory";
    }
    fs::create_directories(dir, ec);
    if (ec)
    {
        return "cannot create the directory (" + ec.message() + ")";
    }
    // Permissions alone do not tell (root, read-only mounts): write a file.
    std::string probe = dir + "/.tf-run-write-test-XXXXXX";
    const int fd = mkstemp(probe.data());
    if (fd < 0)
    {
        return std::string("cannot write in the directory (") + std::strerror(errno) + ")";
    }
    close(fd);
    unlink(probe.c_str());
    return "";
}

uint64_t
PeakRssBytes()
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
    {
        return 0;
    }
    return static_cast<uint64_t>(ru.ru_maxrss) * 1024; // Linux: kilobytes
}

} // namespace ns3
