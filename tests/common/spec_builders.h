// Specs shared by the test suites: the shipped templates, and chains of Linear layers of given widths.
#pragma once

#include "common/test_paths.h"

#include "diamond/spec/spec.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>

#include <cstdio>
#include <cstdlib>

namespace diamond::test {

/// resources/templates/<file>, parsed; aborts the test binary when it does not load.
inline spec::Spec loadTemplateSpec(const char *file) {
    const spec::ParseResult r =
        spec::loadSpecFile(sourcePath(QStringLiteral("resources/templates/") + QLatin1String(file)).toStdString());
    if (!r.ok()) {
        std::fprintf(stderr, "template %s does not load\n", file);
        std::abort();
    }
    return r.spec;
}

/// x [N, 2] -> Linear fc0 .. fcK of `widths`, with a ReLU relu<i> after every Linear but the last when `relus`; the
/// last layer is the output "y".
inline QJsonObject linearChainSpec(const QList<int> &widths, bool relus) {
    QJsonArray nodes;
    QString previous = QStringLiteral("x");
    for (int i = 0; i < widths.size(); ++i) {
        const QString fc = QStringLiteral("fc%1").arg(i);
        nodes.append(QJsonObject{{QStringLiteral("id"), fc},
                                 {QStringLiteral("type"), QStringLiteral("Linear")},
                                 {QStringLiteral("inputs"), QJsonArray{previous}},
                                 {QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), widths[i]}}}});
        previous = fc;
        if (relus && i + 1 < widths.size()) {
            const QString relu = QStringLiteral("relu%1").arg(i);
            nodes.append(QJsonObject{{QStringLiteral("id"), relu},
                                     {QStringLiteral("type"), QStringLiteral("ReLU")},
                                     {QStringLiteral("inputs"), QJsonArray{previous}}});
            previous = relu;
        }
    }
    return {{QStringLiteral("format"), QStringLiteral("diamond.spec/1")},
            {QStringLiteral("inputs"),
             QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                                    {QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 2}}}}},
            {QStringLiteral("nodes"), nodes},
            {QStringLiteral("outputs"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("y")},
                                                               {QStringLiteral("from"), previous}}}}};
}

} // namespace diamond::test
