//===- SharedLayout.h - A kernel's dynamic shared memory, as plain data ---===//
//
// The one description of where a kernel keeps values in dynamic shared
// memory. The compiler's kern-allocate-shared pass places every region of a
// kernel (the #kern.shared_layout attribute holds a SharedLayout); the
// emitter prints the offsets, and the launch facts, the verifier, the
// heuristic and the cost model size the memory, all from this struct and the
// two functions below. No LLVM needed: packs and caches store it as text.
//
//===----------------------------------------------------------------------===//
#ifndef NORMC_ABI_SHAREDLAYOUT_H
#define NORMC_ABI_SHAREDLAYOUT_H

#include "normc/Abi/Schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace normc {

/// One region: `rows` rows (one per row of the block's row group) of
/// `pitch(d)` elements of `elementBytes` bytes each. A row holds either the
/// block's features (d, or `features` when fixed: a cluster's slice) padded
/// to whole vectors of `vectorWidth`, or, when `group` is set, one element
/// per group of `group` features.
struct SharedRegion {
  int64_t rows = 1;
  int64_t elementBytes = 4;
  int64_t vectorWidth = 1;
  int64_t features = 0; // 0: d
  int64_t group = 0;    // 0: a row of features

  /// Elements of one row of the region at hidden size d.
  int64_t pitch(int64_t d) const;
  /// Bytes the region takes: rows * pitch * elementBytes, rounded up to 16.
  int64_t bytes(int64_t d) const;
  /// Why the region cannot be laid out, or empty when it can.
  std::string check() const;
  bool operator==(const SharedRegion &other) const;
};

/// Regions one after another, each 16-byte aligned, in order.
struct SharedLayout {
  std::vector<SharedRegion> regions;

  /// Byte offset of region `index` at hidden size d.
  int64_t offset(size_t index, int64_t d) const;
  /// Bytes of dynamic shared memory a launch at hidden size d needs.
  int64_t bytes(int64_t d) const;

  /// "1:2:v8,1:4:v8:f512,1:4:g64": per region rows:elementBytes and the
  /// pitch (vectors of V features, with :fN when fixed at N; or groups of
  /// G); empty for no regions. The text packs and caches store.
  std::string str() const;
  static std::optional<SharedLayout> parse(std::string_view text);
  bool operator==(const SharedLayout &other) const;
};

/// The region that keeps one row value of `elementBytes` per feature for
/// `schedule` (the block's features padded to whole vectors; a cluster's
/// slice needs d fixed: `d`).
SharedRegion keptRowRegion(const Schedule &schedule, std::optional<int64_t> d,
                           int64_t elementBytes);
/// The region that keeps a value of `elementBytes` per group of `group`
/// features of each row of the block.
SharedRegion groupRegion(const Schedule &schedule, int64_t group,
                         int64_t elementBytes);

} // namespace normc

#endif // NORMC_ABI_SHAREDLAYOUT_H
