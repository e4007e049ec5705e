/*
 * RunProgress: the status line's figures and when it is drawn.
 */
#include "ns3/run-progress.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>
#include <sstream>

using namespace ns3;

namespace
{

// The figures follow from the inputs by hand: 3,000,000 events in 2 s are
// 1.50 M events/s; a quarter done after 2 s leaves three quarters, 2 s x
// 0.75 / 0.25 = 6 s, at the same rate.
TEST(RunProgress, LineGivesRatesAndTimeLeft)
{
    EXPECT_EQ(RunProgress::Format(MicroSeconds(1500), MilliSeconds(5), 3000000, 2.0, 0.25),
              "[tf-run] simulated 1.500 ms (stop 5.000 ms), 1.50 M events/s, wall 2.0 s, "
              "25.0% done, about 6.0 s left");
    // Unknown share done: no estimate. 150 s of wall time read as minutes.
    EXPECT_EQ(RunProgress::Format(Seconds(2), Seconds(10), 300000000, 150.0, -1),
              "[tf-run] simulated 2.000 s (stop 10.000 s), 2.00 M events/s, wall 2 min 30 s");
    // All done: no time left to estimate; nothing done yet: none either.
    EXPECT_EQ(RunProgress::Format(NanoSeconds(2500), MicroSeconds(10), 10, 1.0, 1.0),
              "[tf-run] simulated 2.500 us (stop 10.000 us), 0.00 M events/s, wall 1.0 s, "
              "100.0% done");
    EXPECT_EQ(RunProgress::Format(Time(0), MicroSeconds(10), 0, 0.0, 0.0),
              "[tf-run] simulated 0.000 us (stop 10.000 us), 0.00 M events/s, wall 0.0 s, "
              "0.0% done");
}

// Poll() draws only once the refresh period has passed: with an hour's
// period nothing is drawn; with a zero period every poll draws. Lines go
// one per refresh to a file, in place (carriage return, padded over a
// longer previous line, a newline at the end) to a terminal.
TEST(RunProgress, DrawsWhenDueAndEndsItsLine)
{
    std::ostringstream quiet;
    {
        RunProgress p(quiet, false, std::chrono::hours(1));
        p.Start(Seconds(1), nullptr);
        p.Poll();
        p.Poll();
    }
    EXPECT_EQ(quiet.str(), "");

    std::ostringstream lines;
    {
        RunProgress p(lines, false, std::chrono::milliseconds(0));
        p.Phase("building the fabric");
        p.Start(Seconds(1), []() { return 0.5; });
        p.Poll();
        p.Poll();
        p.Finish();
    }
    const std::string out = lines.str();
    EXPECT_EQ(out.rfind("[tf-run] building the fabric\n", 0), 0u) << out;
    std::size_t newlines = 0;
    for (char c : out)
    {
        newlines += c == '\n';
    }
    EXPECT_EQ(newlines, 4u) << out; // the phase, two polls, the finish
    EXPECT_EQ(out.find('\r'), std::string::npos);

    std::ostringstream tty;
    {
        RunProgress p(tty, true, std::chrono::milliseconds(0));
        p.Start(Seconds(1), []() { return 0.5; });
        p.Poll();
    } // the destructor ends the line
    const std::string t = tty.str();
    ASSERT_FALSE(t.empty());
    EXPECT_EQ(t.front(), '\r');
    EXPECT_EQ(t.back(), '\n');
    EXPECT_EQ(t.find('\n'), t.size() - 1) << "one line, redrawn in place";
    Simulator::Destroy();
}

} // namespace
