//===- SharedLayout.cpp - A kernel's dynamic shared memory ----------------===//
#include "normc/Abi/SharedLayout.h"
#include "normc/Abi/Number.h"

using namespace normc;

// More than any kernel has (one per kept row value, one table); bounds the
// sums of hostile text far below overflow.
static constexpr size_t kMaxRegions = 64;

int64_t SharedRegion::pitch(int64_t d) const {
  int64_t width = features ? features : d;
  return group ? divideCeil(width, group)
               : divideCeil(width, vectorWidth) * vectorWidth;
}

int64_t SharedRegion::bytes(int64_t d) const {
  return divideCeil(rows * pitch(d) * elementBytes, 16) * 16;
}

std::string SharedRegion::check() const {
  auto str = [](int64_t v) { return std::to_string(v); };
  if (rows < 1 || rows > kMaxBlockThreads)
    return "a region has 1 to " + str(kMaxBlockThreads) + " rows, got " +
           str(rows);
  if (elementBytes != 1 && elementBytes != 2 && elementBytes != 4 &&
      elementBytes != 8)
    return "elements of 1, 2, 4 or 8 bytes, got " + str(elementBytes);
  if (features < 0 || features > kMaxD)
    return "fixed features in [1, " + str(kMaxD) + "], got " + str(features);
  if (group)
    return group >= 16 && group <= 1024 && isPowerOfTwo(group) &&
                   vectorWidth == 1 && features == 0
               ? ""
               : "a region per group has groups of a power of two in [16, "
                 "1024] features and no vector width, got group " +
                     str(group) + ", vector width " + str(vectorWidth);
  if (!isPowerOfTwo(vectorWidth) || vectorWidth > 16)
    return "a vector width of a power of two up to 16, got " + str(vectorWidth);
  return "";
}

bool SharedRegion::operator==(const SharedRegion &o) const {
  return rows == o.rows && elementBytes == o.elementBytes &&
         vectorWidth == o.vectorWidth && features == o.features &&
         group == o.group;
}

int64_t SharedLayout::offset(size_t index, int64_t d) const {
  int64_t offset = 0;
  for (size_t i = 0; i < index && i < regions.size(); ++i)
    offset += regions[i].bytes(d);
  return offset;
}

int64_t SharedLayout::bytes(int64_t d) const {
  return offset(regions.size(), d);
}

std::string SharedLayout::str() const {
  std::string text;
  for (const SharedRegion &r : regions) {
    if (!text.empty())
      text += ",";
    text += std::to_string(r.rows) + ":" + std::to_string(r.elementBytes) +
            ":" +
            (r.group ? "g" + std::to_string(r.group)
                     : "v" + std::to_string(r.vectorWidth));
    if (r.features)
      text += ":f" + std::to_string(r.features);
  }
  return text;
}

std::optional<SharedLayout> SharedLayout::parse(std::string_view text) {
  SharedLayout layout;
  while (!text.empty()) {
    size_t end = text.find(',');
    std::string_view region = text.substr(0, end);
    text = end == std::string_view::npos ? "" : text.substr(end + 1);
    if (end != std::string_view::npos && text.empty())
      return std::nullopt; // a trailing comma
    // rows:bytes:(vV|gG)[:fN]
    std::vector<std::string_view> fields;
    for (size_t colon; (colon = region.find(':')) != std::string_view::npos;
         region = region.substr(colon + 1))
      fields.push_back(region.substr(0, colon));
    fields.push_back(region);
    if (fields.size() < 3 || fields.size() > 4 || fields[2].empty() ||
        (fields.size() == 4 && (fields[3].size() < 2 || fields[3][0] != 'f')))
      return std::nullopt;
    std::optional<int64_t> rows = parseWholeNumber(fields[0]);
    std::optional<int64_t> bytes = parseWholeNumber(fields[1]);
    std::optional<int64_t> pitch = parseWholeNumber(fields[2].substr(1));
    std::optional<int64_t> features =
        fields.size() == 4 ? parseWholeNumber(fields[3].substr(1)) : 0;
    char unit = fields[2][0];
    if (!rows || !bytes || !pitch || !features || (unit != 'v' && unit != 'g'))
      return std::nullopt;
    SharedRegion r;
    r.rows = *rows;
    r.elementBytes = *bytes;
    (unit == 'v' ? r.vectorWidth : r.group) = *pitch;
    r.features = *features;
    if ((fields.size() == 4 && !r.features) || !r.check().empty() ||
        layout.regions.size() == kMaxRegions)
      return std::nullopt;
    layout.regions.push_back(r);
  }
  return layout;
}

bool SharedLayout::operator==(const SharedLayout &other) const {
  return regions == other.regions;
}

SharedRegion normc::keptRowRegion(const Schedule &schedule,
                                  std::optional<int64_t> d,
                                  int64_t elementBytes) {
  SharedRegion r;
  r.rows = schedule.rowsPerBlock;
  r.elementBytes = elementBytes;
  r.vectorWidth = schedule.vectorWidth;
  if (schedule.strategy == Strategy::Cluster && d)
    r.features = featuresPerBlock(schedule, *d);
  return r;
}

SharedRegion normc::groupRegion(const Schedule &schedule, int64_t group,
                                int64_t elementBytes) {
  SharedRegion r;
  r.rows = schedule.rowsPerBlock;
  r.elementBytes = elementBytes;
  r.group = group;
  return r;
}
