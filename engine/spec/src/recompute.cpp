#include "diamond/spec/recompute.h"

#include <algorithm>

namespace diamond::spec {

std::vector<std::size_t> cutRecomputedRun(const std::vector<double> &bytes, const std::vector<std::size_t> &lastReader,
                                          std::size_t first, std::size_t end) {
    end = std::min({end, bytes.size(), lastReader.size()});
    if (first + 1 >= end) return {first, std::max(first, end)};
    double total = 0.0;
    for (std::size_t i = first; i < end; ++i)
        total += bytes[i];
    // k parts of about equal weight, each at least one step.
    const auto split = [&](std::size_t parts) {
        std::vector<std::size_t> cuts{first};
        double done = 0.0;
        for (std::size_t part = 1, from = first; from < end; ++part) {
            std::size_t to = from + 1;
            done += bytes[from];
            while (
                to < end && end - to > parts - part &&
                (part == parts || done + bytes[to] <= total * static_cast<double>(part) / static_cast<double>(parts)))
                done += bytes[to++];
            cuts.push_back(to);
            from = to;
        }
        return cuts;
    };
    // Parts filled in order: a part ends before the step that would take it over the budget.
    const auto fill = [&](double budget) {
        std::vector<std::size_t> cuts{first};
        double inside = 0.0;
        for (std::size_t i = first; i < end; ++i) {
            if (i > cuts.back() && inside + bytes[i] > budget) {
                cuts.push_back(i);
                inside = 0.0;
            }
            inside += bytes[i];
        }
        cuts.push_back(end);
        return cuts;
    };
    const auto peak = [&](const std::vector<std::size_t> &cuts) {
        double kept = 0.0, most = 0.0;
        for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
            double inside = 0.0, largest = 0.0;
            for (std::size_t i = cuts[c]; i < cuts[c + 1]; ++i) {
                inside += bytes[i];
                largest = std::max(largest, bytes[i]);
                if (lastReader[i] >= cuts[c + 1]) kept += bytes[i];
            }
            most = std::max(most, inside + 2.0 * largest);
        }
        return kept + most;
    };
    std::vector<std::size_t> best = split(1);
    double bestPeak = peak(best);
    const auto consider = [&](std::vector<std::size_t> cuts) {
        const double p = peak(cuts);
        if (p < bestPeak) {
            bestPeak = p;
            best = std::move(cuts);
        }
    };
    for (std::size_t parts = 2; parts <= std::min<std::size_t>(end - first, 256); ++parts)
        consider(split(parts));
    for (int share = 1; share < 128; ++share)
        consider(fill(total * share / 128.0));
    return best;
}

bool recomputes(const std::string &mode, const Node &node) {
    return mode == "all" || (mode == "marked" && node.recompute);
}

std::vector<std::string> recomputedNodeIds(const Spec &spec, const std::string &mode) {
    std::vector<std::string> ids;
    for (const Node &node : spec.nodes)
        if (recomputes(mode, node)) ids.push_back(node.id);
    return ids;
}

RecomputeChoice chooseRecomputed(const Analysis &analysis, const MemoryOptions &options, std::int64_t budgetBytes) {
    MemoryOptions o = options;
    std::vector<std::string> all;
    std::vector<std::int64_t> flops;
    for (const NodeInfo &n : analysis.nodes)
        if (n.type != "Input") {
            all.push_back(n.id);
            flops.push_back(n.flops);
        }
    auto estimate = [&](const std::vector<bool> &marked) {
        o.recomputed.clear();
        for (std::size_t i = 0; i < all.size(); ++i)
            if (marked[i]) o.recomputed.push_back(all[i]);
        return estimateMemory(analysis, o).activations;
    };
    RecomputeChoice choice;
    std::vector<bool> marked(all.size(), false);
    choice.activationBytes = estimate(marked);
    if (choice.activationBytes <= budgetBytes) {
        choice.fits = true;
        return choice;
    }
    marked.assign(all.size(), true);
    const std::int64_t least = estimate(marked);
    choice.nodes = all;
    for (const std::int64_t f : flops)
        choice.flops += f;
    choice.activationBytes = least;
    if (least > budgetBytes) return choice;
    struct Candidate {
        std::size_t index;
        double flopsPerByte;
    };
    std::vector<Candidate> candidates;
    for (std::size_t i = 0; i < all.size(); ++i) {
        marked[i] = false;
        const double added = double(std::max<std::int64_t>(1, estimate(marked) - least));
        marked[i] = true;
        candidates.push_back({i, double(flops[i] + 1) / added});
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate &a, const Candidate &b) { return a.flopsPerByte > b.flopsPerByte; });
    std::int64_t current = least;
    for (const Candidate &c : candidates) {
        marked[c.index] = false;
        const std::int64_t bytes = estimate(marked);
        if (bytes <= budgetBytes)
            current = bytes;
        else
            marked[c.index] = true;
    }
    choice.nodes.clear();
    choice.flops = 0;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (marked[i]) {
            choice.nodes.push_back(all[i]);
            choice.flops += flops[i];
        }
    choice.activationBytes = current;
    choice.fits = true;
    return choice;
}

} // namespace diamond::spec
