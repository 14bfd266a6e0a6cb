//===- Printable.h - User text made safe to echo to a terminal ------------===//
#ifndef NORMC_ABI_PRINTABLE_H
#define NORMC_ABI_PRINTABLE_H

#include <string>
#include <string_view>

namespace normc {

/// `text` with every control character escaped as compilers print them
/// (`\n`, `\r`, `\t`, `\x1b`, ...), so that a name a user wrote, echoed
/// in a message, cannot start a line of its own (a forged `file:1:1:
/// error:`) or move the terminal's cursor. Bytes of 0x80 and above (UTF-8)
/// are kept.
std::string printable(std::string_view text);

} // namespace normc

#endif // NORMC_ABI_PRINTABLE_H
