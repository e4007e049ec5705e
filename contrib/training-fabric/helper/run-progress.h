/*
 * Progress of a long run: one status line, refreshed about once a second.
 */
#ifndef TF_RUN_PROGRESS_H
#define TF_RUN_PROGRESS_H

#include "ns3/nstime.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

namespace ns3
{

/**
 * \ingroup training-fabric
 * \brief Where a run is: simulated time reached, the stop time, events per
 * second, wall time and, where the workload can say how much of it is done,
 * an estimate of the wall time left.
 *
 * It schedules no simulator event of its own (that would change the event
 * count and, at the end of a run, the time the simulator stops): the runner
 * calls Poll() from an event it already has (its periodic sample), and
 * Poll() reads the wall clock and redraws the line when the refresh period
 * has passed. On a terminal the line is redrawn in place ("\r"); on a file
 * or pipe (with --progress) each refresh is its own line. Set-up phases
 * name themselves with Phase() while they run. Off (the default when stderr
 * is not a terminal, or with --quiet) nothing is constructed: the cost is
 * one pointer test per sample.
 *
 * ns-3's ShowProgress prints simulated time and rates only, and schedules
 * its own events; this one also estimates the time left and leaves the
 * simulation's event sequence untouched.
 */
class RunProgress
{
  public:
    /// Fraction of the workload done, in [0, 1], or negative when unknown.
    using DoneFraction = std::function<double()>;

    /**
     * \param os where to draw (stderr)
     * \param inPlace redraw one line with "\r" (a terminal) or print lines
     * \param refresh wall time between two refreshes
     */
    RunProgress(std::ostream& os, bool inPlace, std::chrono::milliseconds refresh);
    ~RunProgress();

    /// Announce a set-up phase ("building the fabric: 1024 hosts").
    void Phase(const std::string& what);

    /// The simulation starts: \p stop is the configured stop time.
    void Start(Time stop, DoneFraction done);

    /// Called from an existing periodic event; redraws when due.
    void Poll();

    /// The simulation ended: draws the last state and ends the line.
    void Finish();

    /// The status line for the given state (without "\r" or newline).
    static std::string Format(Time now,
                              Time stop,
                              uint64_t events,
                              double wallS,
                              double doneFraction);

  private:
    void Draw();
    void EndLine();

    std::ostream& m_os;
    bool m_inPlace;
    std::chrono::milliseconds m_refresh;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_next;
    Time m_stop;
    DoneFraction m_done;
    std::size_t m_drawn{0}; //!< length of the line on screen (in-place mode)
};

} // namespace ns3

#endif // TF_RUN_PROGRESS_H
