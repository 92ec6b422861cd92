// CHECK_ENGINE_ERROR for QtTest engine tests: an expression must throw EngineError with a given field and a
// message (or hint) containing given strings.
#pragma once

#include "engine_error.h"

#include <QtTest>

#include <optional>
#include <string>
#include <vector>

/// Runs `expr`, which must throw EngineError with field `expectedField` and a message (or hint) containing each of
/// the following strings (const char * or std::string).
#define CHECK_ENGINE_ERROR(expr, expectedField, ...)                                                                   \
    do {                                                                                                               \
        std::optional<EngineError> error_;                                                                             \
        try {                                                                                                          \
            (void)(expr);                                                                                              \
        } catch (const EngineError &e) {                                                                               \
            error_ = e;                                                                                                \
        }                                                                                                              \
        QVERIFY2(error_.has_value(), "no EngineError from " #expr);                                                    \
        const std::string text_ = std::string(error_->what()) + " | " + error_->hint();                                \
        QVERIFY2(error_->field() == (expectedField),                                                                   \
                 qPrintable(QStringLiteral("field '%1' (expected '%2') in: %3")                                        \
                                .arg(QString::fromStdString(error_->field()), QStringLiteral(expectedField),           \
                                     QString::fromStdString(text_))));                                                 \
        for (const std::string &part_ : std::vector<std::string>{__VA_ARGS__}) {                                       \
            QVERIFY2(text_.find(part_) != std::string::npos,                                                           \
                     qPrintable(QStringLiteral("'%1' not in: %2")                                                      \
                                    .arg(QString::fromStdString(part_), QString::fromStdString(text_))));              \
        }                                                                                                              \
    } while (0)
