#include "ui/sweep/sweep_analysis.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace diamond::ui::sweep {

QList<ParameterImportance> parameterImportance(const app::sweep::SearchSpace &space, const QList<QJsonObject> &values,
                                               const QList<double> &objectives) {
    QList<ParameterImportance> out;
    const int n = int(std::min(values.size(), objectives.size()));
    double mean = 0;
    for (int i = 0; i < n; ++i)
        mean += objectives.at(i);
    mean = n > 0 ? mean / n : 0;
    double total = 0;
    for (int i = 0; i < n; ++i)
        total += (objectives.at(i) - mean) * (objectives.at(i) - mean);
    for (const app::sweep::SearchParameter &p : space.parameters()) {
        ParameterImportance imp;
        imp.name = p.name;
        if (n < 4 || total <= 1e-300) {
            out.append(imp);
            continue;
        }
        // bin[i] = group of trial i
        QList<int> bin(n, 0);
        if (p.kind == app::sweep::ParamKind::Choice) {
            QList<QJsonValue> seen;
            for (int i = 0; i < n; ++i) {
                const QJsonValue v = values.at(i).value(p.name);
                int k = int(seen.indexOf(v));
                if (k < 0) {
                    k = int(seen.size());
                    seen.append(v);
                }
                bin[i] = k;
            }
            imp.bins = int(seen.size());
        } else {
            const int bins = std::clamp(n / 8, 2, 5);
            QList<int> order(n);
            std::iota(order.begin(), order.end(), 0);
            QList<double> x(n);
            for (int i = 0; i < n; ++i)
                x[i] = p.toModel(values.at(i).value(p.name));
            std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return x.at(a) < x.at(b); });
            for (int r = 0; r < n; ++r)
                bin[order.at(r)] = r * bins / n;
            // Equal values share a bin (the bin of their first occurrence in sorted order).
            for (int r = 1; r < n; ++r)
                if (x.at(order.at(r)) == x.at(order.at(r - 1))) bin[order.at(r)] = bin.at(order.at(r - 1));
            imp.bins = bins;
        }
        QHash<int, QPair<double, int>> sums;
        for (int i = 0; i < n; ++i) {
            auto &s = sums[bin.at(i)];
            s.first += objectives.at(i);
            s.second += 1;
        }
        double between = 0;
        for (auto it = sums.cbegin(); it != sums.cend(); ++it) {
            const double m = it->first / it->second;
            between += it->second * (m - mean) * (m - mean);
        }
        imp.importance = std::clamp(between / total, 0.0, 1.0);
        out.append(imp);
    }
    return out;
}

int reachedRung(const app::sweep::TrialRow &trial) {
    const QJsonObject values = trial.info.value(QStringLiteral("values")).toObject();
    int rung = -1;
    for (auto it = values.begin(); it != values.end(); ++it)
        rung = std::max(rung, it.key().toInt());
    return rung < 0 && trial.objective ? trial.rung : rung;
}

std::optional<int> bestTrialRow(const QList<app::sweep::TrialRow> &trials, bool maximize) {
    int top = -1;
    for (const app::sweep::TrialRow &t : trials)
        if (t.objective && std::isfinite(*t.objective)) top = std::max(top, reachedRung(t));
    std::optional<int> best;
    for (int i = 0; i < trials.size(); ++i) {
        const app::sweep::TrialRow &t = trials.at(i);
        if (!t.objective || !std::isfinite(*t.objective) || reachedRung(t) != top) continue;
        if (!best ||
            (maximize ? *t.objective > *trials.at(*best).objective : *t.objective < *trials.at(*best).objective))
            best = i;
    }
    return best;
}

} // namespace diamond::ui::sweep
