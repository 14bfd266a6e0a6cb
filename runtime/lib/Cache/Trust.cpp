//===- Trust.cpp - Which cache files normc may load, and its warnings -----===//
#include "Trust.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <unistd.h>

std::optional<std::string> normc::cache::distrust(const struct stat &status) {
  if (status.st_uid != ::geteuid())
    return "owned by uid " + std::to_string(status.st_uid) + ", not " +
           std::to_string(::geteuid());
  if (status.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o",
                  static_cast<unsigned>(status.st_mode & 07777));
    return std::string("writable by ") +
           (status.st_mode & S_IWOTH ? "others" : "its group") + " (mode " +
           mode + ")";
  }
  return std::nullopt;
}

void normc::cache::warnOnce(const std::string &message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(message).second)
    std::fprintf(stderr, "normc: warning: %s\n", message.c_str());
}
