/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-run: run a training-fabric scenario file. See README.md.
 *   tf-run SCENARIO.json [--out DIR] [--set key.path=value ...] [--progress | --quiet]
 *          [--mpi granted|null]
 * --mpi (under mpirun, in a build with MPI): ns-3's distributed engine,
 * granted-time window (DistributedSimulatorImpl) or null messages
 * (NullMessageSimulatorImpl), the fabric split over the MPI ranks ("ranks"
 * set to their number). Rank 0 writes to DIR, rank r to DIR.rank<r>;
 * tools/merge-ranks.py (run by ./tf run --ranks) merges them into DIR. The
 * path monitor's ranks are gathered to rank 0 (GatherToRankZero), which
 * writes its files.
 * Progress (set-up phases, then one line refreshed about once a second) goes
 * to stderr when it is a terminal, or always with --progress; --quiet turns
 * it off. Results are the same either way.
 * Exit codes (ExitCode): 0 completed, 1 failure, 2 bad input, 3 stop reached
 * with work unfinished, 4 stalled.
 */
#include "ns3/run-control.h"
#include "ns3/run-progress.h"
#include "ns3/scenario-runner.h"
#ifdef TF_HAVE_MPI
#include "rank-gather.h"

#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/string.h"
#endif

#include <iostream>
#include <memory>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

int
main(int argc, char** argv)
{
    const char* usage = "usage: tf-run SCENARIO.json [--out DIR] [--set key.path=value ...] "
                        "[--progress | --quiet] [--mpi granted|null]";
    // A command-line error is one line, as every other error (the usage is --help's).
    const char* seeHelp = " (tf-run --help shows the usage)";
    std::string path;
    std::string out;
    std::vector<std::string> sets;
    std::string engine; // --mpi
    const bool terminal = isatty(STDERR_FILENO) == 1;
    bool progress = terminal;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a == "--out" || a == "--set" || a == "--mpi")
        {
            if (i + 1 >= argc)
            {
                std::cerr << "tf-run: " << a << " needs a value" << seeHelp << "\n";
                return ExitCode::kBadInput;
            }
            (a == "--out"   ? out
             : a == "--mpi" ? engine
                            : (sets.emplace_back(), sets.back())) = argv[++i];
            if (a == "--out" && out.empty())
            {
                // It would fall back to results/<name>/ as if not given.
                std::cerr << "tf-run: --out: expected a directory, got an empty path\n";
                return ExitCode::kBadInput;
            }
        }
        else if (a == "--progress" || a == "--quiet")
        {
            progress = a == "--progress";
        }
        else if (a == "-h" || a == "--help")
        {
            std::cout << usage << "\n";
            return ExitCode::kCompleted;
        }
        else if (!a.empty() && a[0] == '-')
        {
            std::cerr << "tf-run: unknown option " << a << seeHelp << "\n";
            return ExitCode::kBadInput;
        }
        else if (path.empty())
        {
            path = a;
        }
        else
        {
            std::cerr << "tf-run: more than one scenario file given" << seeHelp << "\n";
            return ExitCode::kBadInput;
        }
    }
    if (!engine.empty() && engine != "granted" && engine != "null")
    {
        std::cerr << "tf-run: --mpi: expected granted or null, got " << engine << "\n";
        return ExitCode::kBadInput;
    }
#ifndef TF_HAVE_MPI
    // Before the scenario is asked for: `tf-run --mpi granted` alone tells
    // whether this build has the engine (test/mpi/same-answer.py asks so).
    if (!engine.empty())
    {
        std::cerr << "tf-run: --mpi: this build has no MPI engine (./tf build says why)\n";
        return ExitCode::kBadInput;
    }
#endif
    if (path.empty())
    {
        std::cerr << "tf-run: no scenario file given" << seeHelp << "\n";
        return ExitCode::kBadInput;
    }
#ifdef TF_HAVE_MPI
    if (!engine.empty())
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue(engine == "granted" ? "ns3::DistributedSimulatorImpl"
                                                          : "ns3::NullMessageSimulatorImpl"));
        MpiInterface::Enable(&argc, &argv);
        const uint32_t rank = MpiInterface::GetSystemId();
        sets.push_back("ranks=" + std::to_string(MpiInterface::GetSize()));
        if (rank > 0)
        {
            out =
                (out.empty() ? std::string("results/rank") : out + ".rank") + std::to_string(rank);
            progress = false;
        }
        const int code = RunScenarioFile(path, out, sets, nullptr, GatherToRankZero);
        MpiInterface::Disable();
        return code;
    }
#endif
    std::unique_ptr<RunProgress> shown;
    if (progress)
    {
        shown = std::make_unique<RunProgress>(std::cerr, terminal, std::chrono::seconds(1));
    }
    return RunScenarioFile(path, out, sets, shown.get());
}
