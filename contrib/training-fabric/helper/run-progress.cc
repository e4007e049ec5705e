/*
 * Progress of a long run: one status line, refreshed about once a second.
 */
#include "run-progress.h"

#include "ns3/simulator.h"

#include <cmath>
#include <cstdio>
#include <ostream>

namespace ns3
{

namespace
{

/// A simulated time with a unit that keeps three to four digits.
std::string
SimTime(Time t)
{
    const double s = t.GetSeconds();
    char buf[32];
    if (s >= 1.0)
    {
        std::snprintf(buf, sizeof(buf), "%.3f s", s);
    }
    else if (s >= 1e-3)
    {
        std::snprintf(buf, sizeof(buf), "%.3f ms", s * 1e3);
    }
    else
    {
        std::snprintf(buf, sizeof(buf), "%.3f us", s * 1e6);
    }
    return buf;
}

/// A wall-clock duration: seconds below two minutes, else minutes and seconds.
std::string
WallTime(double s)
{
    char buf[32];
    if (s < 120)
    {
        std::snprintf(buf, sizeof(buf), "%.1f s", s);
    }
    else
    {
        const auto whole = static_cast<unsigned long long>(std::llround(s));
        std::snprintf(buf, sizeof(buf), "%llu min %02llu s", whole / 60, whole % 60);
    }
    return buf;
}

} // namespace

RunProgress::RunProgress(std::ostream& os, bool inPlace, std::chrono::milliseconds refresh)
    : m_os(os),
      m_inPlace(inPlace),
      m_refresh(refresh),
      m_start(std::chrono::steady_clock::now()),
      m_next(m_start)
{
}

RunProgress::~RunProgress()
{
    EndLine();
}

void
RunProgress::Phase(const std::string& what)
{
    EndLine();
    m_os << "[tf-run] " << what << "\n" << std::flush;
}

void
RunProgress::Start(Time stop, DoneFraction done)
{
    m_stop = stop;
    m_done = std::move(done);
    m_start = std::chrono::steady_clock::now();
    m_next = m_start + m_refresh;
}

void
RunProgress::Poll()
{
    if (std::chrono::steady_clock::now() >= m_next)
    {
        Draw();
    }
}

void
RunProgress::Finish()
{
    Draw();
    EndLine();
}

std::string
RunProgress::Format(Time now, Time stop, uint64_t events, double wallS, double doneFraction)
{
    std::string line = "[tf-run] simulated " + SimTime(now) + " (stop " + SimTime(stop) + ")";
    char buf[96];
    const double rate = wallS > 0 ? static_cast<double>(events) / wallS : 0.0;
    std::snprintf(buf, sizeof(buf), ", %.2f M events/s", rate / 1e6);
    line += buf;
    line += ", wall " + WallTime(wallS);
    if (doneFraction >= 0 && doneFraction <= 1)
    {
        std::snprintf(buf, sizeof(buf), ", %.1f%% done", 100 * doneFraction);
        line += buf;
        // At the rate so far: what is left takes (1 - f) / f of the time spent.
        if (doneFraction > 0 && doneFraction < 1)
        {
            line += ", about " + WallTime(wallS * (1 - doneFraction) / doneFraction) + " left";
        }
    }
    return line;
}

void
RunProgress::Draw()
{
    const auto now = std::chrono::steady_clock::now();
    const double wallS = std::chrono::duration<double>(now - m_start).count();
    const std::string line = Format(Simulator::Now(),
                                    m_stop,
                                    Simulator::GetEventCount(),
                                    wallS,
                                    m_done ? m_done() : -1.0);
    if (m_inPlace)
    {
        // Pad over a longer previous line.
        m_os << "\r" << line;
        if (line.size() < m_drawn)
        {
            m_os << std::string(m_drawn - line.size(), ' ');
        }
        m_drawn = line.size();
    }
    else
    {
        m_os << line << "\n";
    }
    m_os << std::flush;
    m_next = now + m_refresh;
}

void
RunProgress::EndLine()
{
    if (m_inPlace && m_drawn > 0)
    {
        m_os << "\n" << std::flush;
        m_drawn = 0;
    }
}

} // namespace ns3
