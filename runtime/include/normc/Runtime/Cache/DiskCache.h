//===- DiskCache.h - Content-addressed caches of compiled kernels ---------===//
//
// Two levels: DiskCache, a directory of entries shared by every process of
// the user, and TwoLevelCache, a per-process map in front of it. Keys are
// SHA-256 digests of everything that shapes an entry (KeyBuilder). Entries
// are written atomically and verified against a checksum (of the key and
// the payload) on every read, so a torn, corrupted or misplaced entry reads
// as a miss and is rebuilt; processes sharing a directory take no locks.
// A cache folder or entry not owned by the user, or writable by others, is
// never read (with one warning). See docs/caching.md.
//
//===----------------------------------------------------------------------===//

#ifndef NORMC_RUNTIME_DISKCACHE_H
#define NORMC_RUNTIME_DISKCACHE_H

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace normc::cache {

/// $NORMC_CACHE_DIR, else $XDG_CACHE_HOME/normc, else $HOME/.cache/normc
/// (HOME from the password database when unset); empty variables count as
/// unset. Empty when there is no home directory at all.
std::string defaultCacheDir();

/// SHA-256 (FIPS 180-4) of `bytes`, as 64 lowercase hex digits.
std::string sha256Hex(std::string_view bytes);

/// A cache key from named parts, in the order they are added, e.g.
///   KeyBuilder().add("spec", spec.canonical()).add("schedule", schedule)
///       .add("normc", "0.1.0").add("nvrtc", "13.0").add("arch", "sm_90")
///       .add("options", options).hex()
/// Every name and value is length-prefixed, so no two different sequences
/// of parts give the same key.
class KeyBuilder {
public:
  KeyBuilder &add(std::string_view name, std::string_view value);
  /// SHA-256 of the parts, 64 lowercase hex digits.
  std::string hex() const;

private:
  std::string encoded;
};

/// Entries in <directory>/<ns>/<key[0:2]>/<key>.bin. Keys are 2 to 128
/// lowercase hex digits (KeyBuilder::hex(), sha256Hex()); any other key is
/// a std::invalid_argument. A cache that cannot be used (no directory at
/// all, a file in its place, a folder not owned by the user or writable by
/// others: problem()) is disabled, with one warning: every get misses and
/// every put fails. Folders it creates are private to the user (0700).
class DiskCache {
public:
  /// `dir` empty = defaultCacheDir(); `ns` is one folder name ("cuda",
  /// "tuning", ...), else std::invalid_argument.
  explicit DiskCache(std::string dir = {}, std::string ns = "cuda");

  /// The entry's payload, or nullopt when it is absent, truncated, corrupt,
  /// stored under another key, or not the user's own (not owned by the
  /// user, or writable by others). A truncated, corrupt or misplaced entry
  /// is removed so that it gets rebuilt; one not the user's is left alone
  /// and reported once. Never throws for a bad entry or a failing file
  /// system.
  std::optional<std::string> get(const std::string &key) const;

  /// Stores `payload` atomically: written to a unique temporary file in the
  /// entry's folder, then renamed over the entry. Of concurrent writers of
  /// one key the last rename wins; readers see a whole entry or none.
  /// Returns false, and leaves no temporary file, when the entry cannot be
  /// written (read-only directory, disk full, ...; reported once).
  bool put(const std::string &key, std::string_view payload) const;

  /// Why the cache is disabled, or nullopt when it can be used. Checked
  /// once (creating the folder if need be) and shared by copies.
  const std::optional<std::string> &problem() const;

  /// <directory>/<ns>/<key[0:2]>/<key>.bin; empty when disabled.
  std::string pathFor(const std::string &key) const;
  /// The cache's root folder: `dir`, or defaultCacheDir() when it was empty.
  const std::string &directory() const { return root; }

private:
  struct RootCheck {
    std::once_flag once;
    std::optional<std::string> problem;
  };
  std::string root;
  std::string ns;
  std::shared_ptr<RootCheck> rootCheck = std::make_shared<RootCheck>();
};

/// A DiskCache behind a per-process map, safe to use from several threads
/// at once. A memory hit takes a shared lock and one map lookup, and shares
/// the payload instead of copying it. The map keeps every entry seen for the
/// cache's lifetime (kernels are few and small).
class TwoLevelCache {
public:
  explicit TwoLevelCache(DiskCache disk = DiskCache());

  /// The payload from memory, else from disk (then kept in memory), else
  /// null.
  std::shared_ptr<const std::string> get(const std::string &key) const;

  /// Keeps `payload` in memory and writes it to disk; returns whether the
  /// disk write succeeded (memory holds the payload either way).
  bool put(const std::string &key, std::string payload);

  const DiskCache &disk() const { return diskCache; }

private:
  using Payload = std::shared_ptr<const std::string>;

  DiskCache diskCache;
  mutable std::shared_mutex mutex;
  mutable std::unordered_map<std::string, Payload> memory;
};

/// What clearCache removed.
struct ClearedEntries {
  int64_t files = 0;
  int64_t bytes = 0;
};

/// Empties the caches under `dir` (empty: defaultCacheDir()): every entry
/// <dir>/<ns>/<key[0:2]>/<key>.bin of every namespace, and the temporary
/// files of interrupted writes beside them, then the folders this leaves
/// empty. Only regular files the user owns, with those names, in real
/// folders (symbolic links are not followed): a cache root pointed at a
/// folder that holds anything else loses nothing else. Safe while other
/// processes use the cache (they rebuild what they miss). Never throws.
ClearedEntries clearCache(std::string dir = {});

} // namespace normc::cache

#endif // NORMC_RUNTIME_DISKCACHE_H
