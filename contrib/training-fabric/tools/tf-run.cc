/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-run: run a training-fabric scenario file. See README.md.
 *   tf-run SCENARIO.json [--out DIR] [--set key.path=value ...]
 * Exit codes (ExitCode): 0 completed, 1 failure, 2 bad input, 3 stop reached
 * with work unfinished, 4 stalled.
 */
#include "ns3/run-control.h"
#include "ns3/scenario-runner.h"

#include <iostream>
#include <string>
#include <vector>

using namespace ns3;

int
main(int argc, char** argv)
{
    const char* usage = "usage: tf-run SCENARIO.json [--out DIR] [--set key.path=value ...]";
    std::string path;
    std::string out;
    std::vector<std::string> sets;
    for (int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if (a == "--out" || a == "--set")
        {
            if (i + 1 >= argc)
            {
                std::cerr << "tf-run: " << a << " needs a value\n" << usage << "\n";
                return ExitCode::kBadInput;
            }
            (a == "--out" ? out : (sets.emplace_back(), sets.back())) = argv[++i];
        }
        else if (a == "-h" || a == "--help")
        {
            std::cout << usage << "\n";
            return ExitCode::kCompleted;
        }
        else if (!a.empty() && a[0] == '-')
        {
            std::cerr << "tf-run: unknown option " << a << "\n" << usage << "\n";
            return ExitCode::kBadInput;
        }
        else if (path.empty())
        {
            path = a;
        }
        else
        {
            std::cerr << "tf-run: more than one scenario file given\n" << usage << "\n";
            return ExitCode::kBadInput;
        }
    }
    if (path.empty())
    {
        std::cerr << usage << "\n";
        return ExitCode::kBadInput;
    }
    return RunScenarioFile(path, out, sets);
}
