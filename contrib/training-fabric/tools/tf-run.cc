/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-run: run a training-fabric scenario file. See README.md.
 */
#include "ns3/scenario-runner.h"

int
main(int argc, char** argv)
{
    return ns3::RunScenarioCommandLine(argc, argv);
}
