//===- FuzzInput.h - A fuzz input as a file the tools would read ----------===//
//
// The readers under test take paths; an anonymous memory file gives them
// the input's bytes through /proc/self/fd without touching the disk.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_TESTS_FUZZ_FUZZINPUT_H
#define NORMC_TESTS_FUZZ_FUZZINPUT_H

#include <cstdint>
#include <cstdlib>
#include <string>
#include <sys/mman.h>
#include <unistd.h>

namespace normc::fuzz {

class InputFile {
public:
  InputFile(const uint8_t *data, size_t size)
      : fd(::memfd_create("normc-fuzz-input", MFD_CLOEXEC)) {
    if (fd < 0 || ::write(fd, data, size) != static_cast<ssize_t>(size))
      std::abort(); // the harness, not the input, is broken
  }
  ~InputFile() { ::close(fd); }
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd); }

private:
  int fd;
};

} // namespace normc::fuzz

#endif // NORMC_TESTS_FUZZ_FUZZINPUT_H
