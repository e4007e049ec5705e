/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * tf-run with the extensions linked in: RunScenarioFile(SCENARIO, OUT).
 */
#include "ns3/scenario-runner.h"

int
main(int argc, char** argv)
{
    return argc == 3 ? ns3::RunScenarioFile(argv[1], argv[2], {}) : 2;
}
