/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * Reading the files a user names: scenario files, topology files, text and
 * Chakra traces, comm-group files. Only regular files are read (a directory,
 * /dev/zero, a FIFO or a socket is refused before a byte is read, and a FIFO
 * is never waited on), and each kind has a size limit, so that no input can
 * make a run read forever or exhaust memory before it starts.
 */
#ifndef INPUT_FILE_H
#define INPUT_FILE_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * Size limits of input files, in bytes. Each is far above what a real input
 * of its kind needs (the comments say how far) and far below what would
 * exhaust the memory of a workstation once parsed (nlohmann::json holds a
 * scenario in roughly 10x its text size).
 */
namespace InputLimits
{
/// Scenario files: 64 MiB, about 900,000 explicit flows of 70 characters.
constexpr uint64_t kScenarioBytes = 64ULL << 20;
/// Topology files: 64 MiB, about 2 million links of 30 characters.
constexpr uint64_t kTopologyBytes = 64ULL << 20;
/// Text traces (all ranks in one file): 256 MiB, about 8 million nodes.
constexpr uint64_t kTextTraceBytes = 256ULL << 20;
/// One Chakra ET file (one rank, possibly gzip): 1 GiB (it inflates to at most 4 GiB).
constexpr uint64_t kChakraBytes = 1ULL << 30;
/// Comm-group files: 16 MiB.
constexpr uint64_t kCommGroupBytes = 16ULL << 20;
/**
 * Deepest nesting of arrays and objects in JSON input (scenario files,
 * `--set` values, comm-group files); a real scenario nests 4 levels. Bounds
 * the recursion of everything that walks a parsed document.
 */
constexpr int kJsonDepth = 64;
} // namespace InputLimits

/**
 * Read the whole of \p path, a regular file of at most \p maxBytes bytes,
 * into \p text. On failure return false and put one line in \p error:
 * "<path>: cannot open the <what> (<reason>)", the reason being the system's
 * ("No such file or directory"), "it is a directory", "it is a character
 * device, not a regular file", or "larger than the N-byte limit for a <what>".
 */
bool TryReadInputFile(const std::string& path,
                      const std::string& what,
                      uint64_t maxBytes,
                      std::string& text,
                      std::string& error);

/// As TryReadInputFile, throwing an \p E (ScenarioError, TraceError, ...) with the error line.
template <class E>
std::string
ReadInputFile(const std::string& path, const std::string& what, uint64_t maxBytes)
{
    std::string text;
    std::string error;
    if (!TryReadInputFile(path, what, maxBytes, text, error))
    {
        throw E(error);
    }
    return text;
}

/// True if something exists at \p path (a file, a directory, ...), found without opening it.
bool InputFileExists(const std::string& path);

/// True if \p text is well-formed UTF-8 (RFC 3629: no overlong forms, surrogates or values
/// above U+10FFFF).
bool IsValidUtf8(const std::string& text);

} // namespace ns3

#endif /* INPUT_FILE_H */
