/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * How a run ends and what it reports about itself: the exit codes of tf-run,
 * the stall detector that ends a run stuck in a PFC deadlock, the check of
 * the output directory before anything is simulated, and the process's
 * peak memory.
 */
#ifndef RUN_CONTROL_H
#define RUN_CONTROL_H

#include "ns3/callback.h"
#include "ns3/event-id.h"
#include "ns3/fabric-topology.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/// Exit codes of tf-run (README and the model doc list them).
namespace ExitCode
{
constexpr int kCompleted = 0;   //!< all work finished (or a fixed-length run reached stop)
constexpr int kFailure = 1;     //!< the program failed (writing outputs, out of memory, ...)
constexpr int kBadInput = 2;    //!< a bad scenario, trace, topology file, --out or option
constexpr int kStopReached = 3; //!< stop came with work unfinished
constexpr int kStalled = 4;     //!< ended early: a PFC pause cycle stopped all progress
} // namespace ExitCode

/// How a run ended.
enum class RunOutcome
{
    COMPLETED,    //!< every flow, collective and rank finished
    STOP_REACHED, //!< stop came first
    STALLED,      //!< a PFC pause cycle blocked all progress for stall_timeout
};

/// \return "completed", "stop_reached" or "stalled" (summary.json's `outcome`)
std::string OutcomeName(RunOutcome o);

/// \return tf-run's exit code for a run that ended so (\p fixedLength: stop is no failure)
int ExitCodeFor(RunOutcome o, bool fixedLength);

/**
 * \ingroup training-fabric
 * \brief Ends a run that a PFC deadlock has stalled, when it stalls.
 *
 * Every Timeout/4 it looks for a pause cycle (FabricTopology::
 * FindPauseCycleQueues). When the same cycle has been there for Timeout and
 * every queue of it was paused all that time (its paused time grew by the
 * whole interval: no frame of its class left the port), the run is stalled:
 * the callback runs (the owner stops the simulator). A stall is thus
 * declared at most 1.25 x Timeout after the cycle closes. Nothing in the
 * model breaks such a cycle (no PFC watchdog), so it would last until stop.
 */
class StallDetector
{
  public:
    /**
     * \param topo the fabric to watch
     * \param timeout how long a cycle must block before it is a stall (> 0)
     */
    StallDetector(Ptr<FabricTopology> topo, Time timeout);

    /// Start checking now; \p onStall runs once, when a stall is found.
    void Start(Callback<void> onStall);

    /// \return whether a stall was found
    bool IsStalled() const;
    /// \return when the stalled cycle was first seen
    Time GetCycleSince() const;
    /// \return the stalled cycle as "switch:port:class" names (empty: none)
    std::vector<std::string> GetCycle() const;

  private:
    void Check();
    /// Paused time of every queue of m_cycle, now.
    std::vector<Time> PausedTimes() const;

    Ptr<FabricTopology> m_topo;
    Time m_timeout;
    Time m_period;
    Callback<void> m_onStall;
    std::vector<FabricTopology::SwitchQueue> m_cycle; //!< the cycle being watched
    std::vector<Time> m_pausedAtSince;                //!< its paused times at m_since
    Time m_since;
    bool m_stalled{false};
    EventId m_event;
};

/**
 * Make sure results can be written to \p dir before the run: create it (and
 * its parents) if missing and write and remove a probe file in it.
 * \return "" or why not, e.g. "it is a file, not a directory"
 */
std::string PrepareOutputDirectory(const std::string& dir);

/// Peak resident set size of this process so far, in bytes (getrusage).
uint64_t PeakRssBytes();

} // namespace ns3

#endif /* RUN_CONTROL_H */
