#include "text_util.h"

#include <algorithm>
#include <cctype>

namespace diamond::spec::detail {

int editDistance(const std::string &a, const std::string &b, int cap) {
    const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
    if (std::abs(n - m) > cap) return cap + 1;
    std::vector<int> prev(m + 1), cur(m + 1);
    for (int j = 0; j <= m; ++j)
        prev[j] = j;
    for (int i = 1; i <= n; ++i) {
        cur[0] = i;
        int rowMin = cur[0];
        for (int j = 1; j <= m; ++j) {
            const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                              std::tolower(static_cast<unsigned char>(b[j - 1]));
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
            rowMin = std::min(rowMin, cur[j]);
        }
        if (rowMin > cap) return cap + 1;
        std::swap(prev, cur);
    }
    return prev[m];
}

std::string closestMatch(const std::string &word, const std::vector<std::string> &candidates,
                         std::size_t maxCandidates) {
    if (word.empty() || word.size() > 256) return {};
    const int cap = std::max(1, static_cast<int>(word.size()) / 3);
    std::string best;
    int bestDistance = cap + 1;
    const std::size_t n = std::min(candidates.size(), maxCandidates);
    for (std::size_t i = 0; i < n; ++i) {
        const int d = editDistance(word, candidates[i], cap);
        if (d < bestDistance) {
            bestDistance = d;
            best = candidates[i];
        }
    }
    return best;
}

std::string didYouMean(const std::string &word, const std::vector<std::string> &candidates) {
    const std::string best = closestMatch(word, candidates);
    return best.empty() ? std::string() : "Did you mean '" + best + "'?";
}

std::string joinQuoted(const std::vector<std::string> &items, const std::string &lastSeparator) {
    std::string s;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i) s += (i + 1 == items.size()) ? lastSeparator : ", ";
        s += "'" + items[i] + "'";
    }
    return s;
}

} // namespace diamond::spec::detail
