/*
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "input-file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ns3
{

namespace
{
/// Why a file of \p mode (not a regular file) cannot be read.
std::string
NotRegular(mode_t mode)
{
    if (S_ISDIR(mode))
    {
        return "it is a directory";
    }
    const char* kind = S_ISCHR(mode)    ? "a character device"
                       : S_ISBLK(mode)  ? "a block device"
                       : S_ISFIFO(mode) ? "a FIFO"
                       : S_ISSOCK(mode) ? "a socket"
                                        : "a special file";
    return std::string("it is ") + kind + ", not a regular file";
}

/// Closes a descriptor on every way out.
struct Fd
{
    int fd;

    ~Fd()
    {
        if (fd >= 0)
        {
            close(fd);
        }
    }
};
} // namespace

bool
TryReadInputFile(const std::string& path,
                 const std::string& what,
                 uint64_t maxBytes,
                 std::string& text,
                 std::string& error)
{
    const std::string prefix = path + ": cannot open the " + what + " (";
    // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then
    // tells what was opened, so nothing can change between check and read.
    Fd f{open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
    if (f.fd < 0)
    {
        error = prefix + std::strerror(errno) + ")";
        return false;
    }
    struct stat st;
    if (fstat(f.fd, &st) != 0)
    {
        error = prefix + std::strerror(errno) + ")";
        return false;
    }
    if (!S_ISREG(st.st_mode))
    {
        error = prefix + NotRegular(st.st_mode) + ")";
        return false;
    }
    const std::string tooLarge =
        prefix + "larger than the " + std::to_string(maxBytes) + "-byte limit for a " + what + ")";
    if (static_cast<uint64_t>(st.st_size) > maxBytes)
    {
        error = tooLarge;
        return false;
    }
    // Read to the end whatever st_size said (files in /proc report 0, a file
    // may grow while read), never past the limit.
    text.clear();
    text.reserve(static_cast<std::size_t>(st.st_size));
    char buf[65536];
    while (true)
    {
        const ssize_t n = read(f.fd, buf, sizeof(buf));
        if (n < 0 && errno == EINTR)
        {
            continue;
        }
        if (n < 0)
        {
            error = prefix + std::strerror(errno) + ")";
            return false;
        }
        if (n == 0)
        {
            return true;
        }
        if (text.size() + static_cast<uint64_t>(n) > maxBytes)
        {
            error = tooLarge;
            return false;
        }
        text.append(buf, static_cast<std::size_t>(n));
    }
}

bool
InputFileExists(const std::string& path)
{
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

bool
IsValidUtf8(const std::string& text)
{
    // RFC 3629, section 4: the byte ranges of each well-formed sequence.
    const auto* p = reinterpret_cast<const unsigned char*>(text.data());
    const auto* end = p + text.size();
    auto in = [](unsigned char c, unsigned char lo, unsigned char hi) {
        return c >= lo && c <= hi;
    };
    while (p < end)
    {
        const unsigned char c = *p;
        std::size_t n;
        unsigned char lo = 0x80;
        unsigned char hi = 0xBF;
        if (c < 0x80)
        {
            ++p;
            continue;
        }
        else if (in(c, 0xC2, 0xDF))
        {
            n = 1;
        }
        else if (in(c, 0xE0, 0xEF))
        {
            n = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80; // no overlong forms
            hi = c == 0xED ? 0x9F : 0xBF; // no surrogates
        }
        else if (in(c, 0xF0, 0xF4))
        {
            n = 3;
            lo = c == 0xF0 ? 0x90 : 0x80; // no overlong forms
            hi = c == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
        }
        else
        {
            return false;
        }
        if (static_cast<std::size_t>(end - p) <= n || !in(p[1], lo, hi))
        {
            return false;
        }
        for (std::size_t k = 2; k <= n; ++k)
        {
            if (!in(p[k], 0x80, 0xBF))
            {
                return false;
            }
        }
        p += n + 1;
    }
    return true;
}

} // namespace ns3
