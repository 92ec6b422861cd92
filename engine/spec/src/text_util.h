// Small text helpers for diagnostics (internal to diamond_spec).
#pragma once

#include <string>
#include <vector>

namespace diamond::spec::detail {

/// Levenshtein distance, capped: returns cap + 1 as soon as the distance exceeds cap.
int editDistance(const std::string &a, const std::string &b, int cap);

/// The candidate closest to `word` (case-insensitive), or empty when none is close enough
/// (distance <= max(1, size/3)). Scans at most `maxCandidates` candidates.
std::string closestMatch(const std::string &word, const std::vector<std::string> &candidates,
                         std::size_t maxCandidates = 5000);

/// "Did you mean 'x'?" or empty.
std::string didYouMean(const std::string &word, const std::vector<std::string> &candidates);

/// "'a', 'b' or 'c'"
std::string joinQuoted(const std::vector<std::string> &items, const std::string &lastSeparator = " or ");

} // namespace diamond::spec::detail
