//===- Program.h - Which computation of a spec a kernel module runs -------===//
#ifndef NORMC_ABI_PROGRAM_H
#define NORMC_ABI_PROGRAM_H

#include <optional>
#include <string>
#include <vector>

namespace normc {

/// The forward of a spec, or its backward (docs/backward.md) with the
/// inputs it reads. Kernels, caches and packs are keyed by str().
struct Program {
  bool backward = false;
  bool savedStats = false;   // backward: the forward's saved mean and rstd
  bool dresidualOut = false; // backward: the gradient at residual_out

  static Program forward() { return {}; }
  static Program gradient(bool savedStats = false, bool dresidualOut = false) {
    return {true, savedStats, dresidualOut};
  }

  /// "forward", "backward", "backward+saved_stats+dresidual_out", ...
  std::string str() const {
    if (!backward)
      return "forward";
    return std::string("backward") + (savedStats ? "+saved_stats" : "") +
           (dresidualOut ? "+dresidual_out" : "");
  }
  /// str() back; nullopt for anything else.
  static std::optional<Program> parse(const std::string &text) {
    if (text == "forward")
      return forward();
    for (bool saved : {false, true})
      for (bool dresidual : {false, true})
        if (gradient(saved, dresidual).str() == text)
          return gradient(saved, dresidual);
    return std::nullopt;
  }
  /// Every backward a spec has (dresidual_out only with residual_add).
  static std::vector<Program> backwards(bool residualAdd) {
    std::vector<Program> out;
    for (bool dresidual : {false, true})
      for (bool saved : {false, true})
        if (!dresidual || residualAdd)
          out.push_back(gradient(saved, dresidual));
    return out;
  }
  bool operator==(const Program &o) const {
    return backward == o.backward && savedStats == o.savedStats &&
           dresidualOut == o.dresidualOut;
  }
  bool operator<(const Program &o) const { return str() < o.str(); }
};

} // namespace normc

#endif // NORMC_ABI_PROGRAM_H
