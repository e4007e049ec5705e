/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Hostile input, without simulating: the input-file reader (regular files
 * under a size limit only), bounded JSON nesting, and the values that used
 * to pass validation and give a silent wrong answer. Runs from the
 * repository root (ctest's working directory), in well under a second.
 */
#include "ns3/execution-trace.h"
#include "ns3/input-file.h"
#include "ns3/scenario-config.h"
#include "ns3/topology-file-helper.h"

#include <chrono>
#include <fstream>
#include <gtest/gtest.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace
{

const char* kIncastFile = "examples/incast-8to1.json";

/// The message of the ScenarioError that loading the incast example with \p sets throws.
std::string
LoadError(const std::vector<std::string>& sets)
{
    try
    {
        LoadScenarioFile(kIncastFile, sets);
    }
    catch (const ScenarioError& e)
    {
        return e.what();
    }
    return "";
}

/// A file of \p bytes 'x' characters in the test's temporary directory.
std::string
FileOf(const std::string& name, std::size_t bytes)
{
    const std::string path = ::testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << std::string(bytes, 'x');
    return path;
}

/// \p levels nested arrays, the innermost empty: "[[...]]".
std::string
Nested(std::size_t levels)
{
    return std::string(levels, '[') + std::string(levels, ']');
}

} // namespace

TEST(InputFile, ReadsARegularFileUpToItsLimitAndNotOneByteMore)
{
    // The limit is inclusive: a file of exactly maxBytes is read whole, one
    // byte more is refused with the limit named.
    std::string text;
    std::string error;
    ASSERT_TRUE(TryReadInputFile(FileOf("hundred", 100), "test file", 100, text, error)) << error;
    EXPECT_EQ(text, std::string(100, 'x'));
    const std::string big = FileOf("hundred-and-one", 101);
    EXPECT_FALSE(TryReadInputFile(big, "test file", 100, text, error));
    EXPECT_EQ(error,
              big + ": cannot open the test file (larger than the 100-byte limit for a test file)");
}

TEST(InputFile, RefusesDirectoriesDevicesAndFifosWithoutReading)
{
    std::string text;
    std::string error;
    EXPECT_FALSE(TryReadInputFile("traces", "scenario file", 1 << 20, text, error));
    EXPECT_EQ(error, "traces: cannot open the scenario file (it is a directory)");
    // /dev/zero never ends: refused by its kind, not after reading the limit.
    EXPECT_FALSE(TryReadInputFile("/dev/zero", "scenario file", 1ULL << 40, text, error));
    EXPECT_EQ(error,
              "/dev/zero: cannot open the scenario file (it is a character device, not a "
              "regular file)");
    // A FIFO without a writer: a blocking open would wait forever.
    const std::string fifo = ::testing::TempDir() + "input-fifo";
    unlink(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_FALSE(TryReadInputFile(fifo, "topology file", 1 << 20, text, error));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
    EXPECT_EQ(error, fifo + ": cannot open the topology file (it is a FIFO, not a regular file)");
    unlink(fifo.c_str());
    EXPECT_FALSE(TryReadInputFile("no-such-file", "trace file", 1 << 20, text, error));
    EXPECT_EQ(error, "no-such-file: cannot open the trace file (No such file or directory)");
}

TEST(InputFile, EveryReaderOfTheScenarioUsesIt)
{
    // A directory where each kind of input file is expected: one line naming
    // the scenario, the path and the reason, for every open site.
    EXPECT_EQ(LoadError({}), "");
    try
    {
        LoadScenarioFile("/dev/zero", {});
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_STREQ(e.what(),
                     "/dev/zero: cannot open the scenario file (it is a character device, not a "
                     "regular file)");
    }
    const std::string prefix = std::string(kIncastFile) + ": ";
    EXPECT_EQ(LoadError({"topology={\"type\": \"file\", \"path\": \"traces\"}"}),
              prefix + "topology.path: traces: cannot open the topology file (it is a directory)");
    EXPECT_EQ(LoadError({"workload={\"type\": \"text\", \"path\": \"traces\"}"}),
              prefix + "workload: traces: cannot open the text trace (it is a directory)");
    EXPECT_EQ(LoadError({"topology.hosts_per_leaf=8",
                         "workload={\"type\": \"chakra\", \"prefix\": \"traces/dp16/dp16\", "
                         "\"comm_groups\": \"traces\"}"}),
              prefix + "workload: traces: cannot open the comm-group file (it is a directory)");
    EXPECT_EQ(LoadError({"workload={\"type\": \"chakra\", \"prefix\": \"/dev/zero\"}"}),
              prefix + "workload: /dev/zero.0.et: no trace file for rank 0 (expected "
                       "<prefix>.<rank>.et)");
    try
    {
        TopologyFileHelper::CountHosts("/dev/zero");
        FAIL();
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("character device"), std::string::npos);
    }
}

TEST(JsonDepth, SixtyFourLevelsParseAndSixtyFiveAreRefused)
{
    // The top-level object is level 1, so "name" holding k nested arrays
    // makes 1 + k levels: k = 63 is the deepest document accepted (it then
    // fails on its meaning: a name is a string), k = 64 is refused while
    // parsing, naming the top-level key.
    const auto doc = [](std::size_t k) { return "{\"name\": " + Nested(k) + "}"; };
    static_assert(InputLimits::kJsonDepth == 64, "the levels below assume 64");
    try
    {
        ParseScenarioText(doc(63), {}, "deep.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("deep.json: name: expected a string"),
                  std::string::npos)
            << e.what();
    }
    try
    {
        ParseScenarioText(doc(64), {}, "deep.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_STREQ(e.what(),
                     "deep.json: name[0]...: nested deeper than 64 levels of arrays and objects");
    }
}

TEST(JsonDepth, AHundredThousandLevelsAreAnErrorNotAStackOverflow)
{
    // The case that crashed (SIGSEGV while formatting the error): in the
    // file, in a --set value, and in a comm-group file.
    const std::string deep = Nested(100000);
    try
    {
        ParseScenarioText("{\"workload\": " + deep + "}", {}, "deep.json");
        FAIL();
    }
    catch (const ScenarioError& e)
    {
        EXPECT_NE(std::string(e.what()).find("workload[0]...: nested deeper than 64"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_EQ(LoadError({"workload.bytes=" + deep}),
              std::string(kIncastFile) +
                  ": --set workload.bytes[0][0]...: nested deeper than 64 levels of arrays and "
                  "objects");
    const std::string groups = ::testing::TempDir() + "deep-groups.json";
    std::ofstream(groups) << "{\"1\": " << deep << "}";
    try
    {
        ReadCommGroups(groups, 16);
        FAIL();
    }
    catch (const TraceError& e)
    {
        EXPECT_EQ(std::string(e.what()), groups + ": JSON nested deeper than 64 levels");
    }
}
