// csv: a delimited text file with one sample per record. Options: path, skip_rows (0: lines above the table, e.g.
// scikit-learn's line of counts), header (true, false or "auto"), delimiter (","),
// target (column name, or index when header is false; a list of columns for multi-output regression),
// features (default: every other column), task ("auto"|"classification"|"regression").
// Parsing follows RFC 4180 (quoted fields, "" inside quotes, quoted line breaks); blank lines are skipped,
// unquoted fields are trimmed, CRLF and a UTF-8 BOM are accepted. Numbers are parsed locale-independently.
// Memory: the (decompressed) text, the parsed values and labels and the tensors built from them are charged to
// data.max_bytes as they grow (a 1 MB file can hold millions of one-character labels); parsing polls the stop
// request.
#include "data/data_internal.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_set>

namespace diamond::engine::data {

namespace {

/// Heap bytes a std::string of `size` characters takes beyond the object itself (libstdc++: 15 fit inline).
std::uint64_t heapBytes(std::size_t size) { return size > 15 ? size + 1 : 0; }

/// Grows `v`'s capacity for `extra` more elements (doubling), charging `budget` for the capacity added.
template <typename T>
void reserveCharged(std::vector<T> &v, std::size_t extra, ByteBudget &budget, const std::string &what) {
    if (v.size() + extra <= v.capacity()) return;
    const std::size_t wanted = std::max(v.capacity() * 2, v.size() + extra);
    budget.charge((wanted - v.capacity()) * sizeof(T), what, "data.path");
    v.reserve(wanted);
}

/// Parses `text` record by record; `onRecord(fields, line)` gets the fields and the 1-based line the record
/// starts on. Quoted fields are unescaped; unquoted ones trimmed of blanks (other than the delimiter). The
/// field list of a record is charged to `budget` as it grows. The first `skipLines` lines are not parsed (line
/// numbers still count them).
template <typename OnRecord>
void parseRecords(std::string_view text, char delimiter, const std::string &file, ByteBudget &budget,
                  std::int64_t skipLines, OnRecord onRecord) {
    const std::string what = "'" + file + "' (data.path)";
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;     // inside quotes
    bool wasQuoted = false;  // current field started with a quote
    bool afterQuote = false; // closing quote seen; only blanks or a delimiter may follow
    std::int64_t line = 1, recordLine = 1;
    std::size_t i = 0;
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) i = 3;
    for (; line <= skipLines && i < text.size(); ++i) {
        if (text[i] == '\n') ++line;
    }
    recordLine = line;
    auto isBlank = [delimiter](char c) { return (c == ' ' || c == '\t') && c != delimiter; };
    auto endField = [&]() {
        if (!wasQuoted) {
            std::size_t a = 0, b = field.size();
            while (a < b && isBlank(field[a]))
                ++a;
            while (b > a && isBlank(field[b - 1]))
                --b;
            field = field.substr(a, b - a);
        }
        reserveCharged(fields, 1, budget, what);
        fields.push_back(std::move(field));
        field.clear();
        wasQuoted = afterQuote = false;
    };
    auto endRecord = [&]() {
        endField();
        const bool blank = fields.size() == 1 && fields[0].empty();
        if (!blank) onRecord(fields, recordLine);
        fields.clear();
    };
    for (; i < text.size(); ++i) {
        if ((i & 0xFFFF) == 0) throwIfStopRequested();
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                    afterQuote = true;
                }
            } else {
                if (c == '\n') ++line;
                field += c;
            }
            continue;
        }
        if (c == delimiter) {
            endField();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            endRecord();
            ++line;
            recordLine = line;
        } else if (afterQuote) {
            if (!isBlank(c))
                throw EngineError(file + ":" + std::to_string(line) + ": unexpected text after a closing quote.",
                                  "data.path");
        } else if (c == '"' && std::all_of(field.begin(), field.end(), isBlank)) {
            field.clear();
            quoted = wasQuoted = true;
        } else {
            field += c;
        }
    }
    if (quoted)
        throw EngineError(file + ":" + std::to_string(recordLine) + ": a quoted field is never closed.", "data.path");
    if (!fields.empty() || !field.empty() || wasQuoted) endRecord();
}

/// Thrown by a record callback to end parseRecords() early.
struct StopParsing {};

/// Locale-independent full-field number parse (accepts a leading '+'); false for empty/partial/non-finite.
bool parseNumber(const std::string &s, double &out) {
    const char *b = s.data();
    const char *e = b + s.size();
    if (b != e && *b == '+') ++b;
    if (b == e) return false;
    const auto r = std::from_chars(b, e, out);
    return r.ec == std::errc() && r.ptr == e && std::isfinite(out);
}

/// A tensor over `values`' memory (no copy; the tensor owns the vector).
template <typename T> torch::Tensor tensorOf(std::vector<T> values, at::IntArrayRef shape, torch::ScalarType type) {
    auto owner = std::make_shared<std::vector<T>>(std::move(values));
    return torch::from_blob(
        owner->data(), shape, [owner](void *) mutable { owner.reset(); }, torch::TensorOptions().dtype(type));
}

std::string numberName(double v) {
    if (std::floor(v) == v && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

class CsvSource : public DataSource {
public:
    Dataset load(const DataConfig &config, std::uint64_t) override {
        Options o(config, "csv");
        const std::string path = o.path("path");
        const std::int64_t skipRows = o.integer("skip_rows", 0, 0, 1000000);
        const nlohmann::json *headerOpt = o.raw("header");
        if (headerOpt && !headerOpt->is_boolean() && *headerOpt != "auto")
            throw EngineError("'data.header' must be true, false or \"auto\" (got " + headerOpt->dump() + ").",
                              "data.header");
        std::string delim = o.string("delimiter", ",");
        if (delim == "tab" || delim == "\\t") delim = "\t";
        if (delim.size() != 1 || delim == "\"" || delim == "\n" || delim == "\r")
            throw EngineError("'data.delimiter' must be one character (got \"" + delim + "\").", "data.delimiter", {},
                              "Use e.g. \",\", \";\" or \"\\t\".");
        const std::string task = o.string("task", "auto", {"auto", "classification", "regression"});
        const nlohmann::json *targetOpt = o.raw("target");
        const nlohmann::json *featuresOpt = o.raw("features");
        o.checkUnknown();
        if (!targetOpt)
            throw EngineError("The data source 'csv' needs 'data.target', the column to predict.", "data.target");

        ByteBudget &budget = o.budget();
        const std::string what = "'" + path + "' (data.path)";
        ByteBuffer bytes = readFileMaybeGz(path, "data.path", budget);
        const std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
        const bool header = headerOpt && headerOpt->is_boolean() ? headerOpt->get<bool>()
                            : headerOpt ? looksLikeHeader(text, delim[0], path, budget, skipRows)
                                        : true;

        // An upper bound of the records (lines that are not empty), so the per-row vectors are reserved once
        // instead of being copied while they double.
        std::size_t recordBound = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            if ((i & 0xFFFFF) == 0) throwIfStopRequested();
            const char c = text[i];
            recordBound += c != '\n' && c != '\r' && (i == 0 || text[i - 1] == '\n' || text[i - 1] == '\r');
        }
        std::vector<std::string> names;
        std::vector<std::int64_t> featureCols, targetCols;
        std::vector<float> values;       // features, row-major
        std::vector<std::string> labels; // single-target text
        std::vector<std::int64_t> lines; // record line per sample
        std::size_t columns = 0;
        bool first = true;

        std::int64_t firstLine = 0;
        parseRecords(
            text, delim[0], path, budget, skipRows, [&](const std::vector<std::string> &fields, std::int64_t line) {
                if (first) {
                    first = false;
                    firstLine = line;
                    columns = fields.size();
                    budget.charge(columns * (sizeof(std::string) + 24), what + " header", "data.path");
                    for (std::size_t c = 0; c < columns; ++c)
                        names.push_back(header ? fields[c] : std::to_string(c));
                    resolveColumns(names, targetOpt, featuresOpt, header, path, targetCols, featureCols);
                    reserveCharged(values, recordBound * featureCols.size(), budget, what);
                    reserveCharged(labels, recordBound * targetCols.size(), budget, what);
                    reserveCharged(lines, recordBound, budget, what);
                    if (header) return;
                }
                if (fields.size() != columns) {
                    const std::string message = path + ":" + std::to_string(line) + ": " +
                                                std::to_string(fields.size()) + " fields, but " +
                                                (header ? "the header" : "the first row") + " (line " +
                                                std::to_string(firstLine) + ") has " + std::to_string(columns) + ".";
                    // A first line of another width than the table is likely a metadata line (scikit-learn's
                    // files start with "569,30,malignant,benign"): say how to skip it.
                    if (lines.empty())
                        throw EngineError(message, "data.path", {},
                                          "If line " + std::to_string(firstLine) +
                                              " is not part of the table, skip it with \"skip_rows\": " +
                                              std::to_string(firstLine) + ".");
                    throw EngineError(message, "data.path", {}, "Every row needs the same number of fields.");
                }
                reserveCharged(values, featureCols.size(), budget, what);
                reserveCharged(labels, targetCols.size(), budget, what);
                reserveCharged(lines, 1, budget, what);
                for (const std::int64_t c : featureCols) {
                    double v = 0;
                    if (!parseNumber(fields[c], v))
                        throw EngineError(
                            path + ":" + std::to_string(line) + ": column '" + names[c] + "' has " +
                                (fields[c].empty() ? std::string("no value")
                                                   : "the non-numeric value '" + fields[c] + "'") +
                                ".",
                            "data.features", {},
                            "Features must be numbers; fix the value or leave the column out of data.features.");
                    if (std::fabs(v) > std::numeric_limits<float>::max())
                        throw EngineError(path + ":" + std::to_string(line) + ": column '" + names[c] +
                                              "' has the value '" + fields[c] + "', beyond the range of float32.",
                                          "data.features");
                    values.push_back(static_cast<float>(v));
                }
                for (const std::int64_t c : targetCols) {
                    if (fields[c].empty())
                        throw EngineError(path + ":" + std::to_string(line) + ": the target column '" + names[c] +
                                              "' has no value.",
                                          "data.target");
                    budget.charge(heapBytes(fields[c].size()), what, "data.path");
                    labels.push_back(fields[c]);
                }
                lines.push_back(line);
            });
        if (first) throw EngineError("'" + path + "' (data.path) is empty.", "data.path");
        const auto s = static_cast<std::int64_t>(lines.size());
        if (s == 0) throw EngineError("'" + path + "' (data.path) has a header but no rows.", "data.path");
        budget.release(bytes.size());
        bytes = ByteBuffer(); // the text is parsed: free it before the tensors are built

        Dataset d;
        d.inputs = tensorOf(std::move(values), {s, static_cast<std::int64_t>(featureCols.size())}, torch::kFloat32);
        fillTargets(d, labels, lines, targetCols, names, task, path, budget);
        d.description = describe("csv " + std::filesystem::path(path).filename().string(), d);
        return d;
    }

private:
    /// header "auto": the first record is a header when some column holds text there and a number in the
    /// second record (a file of one record: when it holds any text).
    static bool looksLikeHeader(std::string_view text, char delimiter, const std::string &path, ByteBudget &budget,
                                std::int64_t skipRows) {
        std::vector<std::vector<std::string>> records;
        try {
            parseRecords(text, delimiter, path, budget, skipRows,
                         [&](const std::vector<std::string> &fields, std::int64_t) {
                             records.push_back(fields);
                             if (records.size() == 2) throw StopParsing{};
                         });
        } catch (const StopParsing &) {
        }
        if (records.empty()) return true;
        double v = 0;
        const auto &head = records[0];
        for (std::size_t c = 0; c < head.size(); ++c) {
            const bool text0 = !head[c].empty() && !parseNumber(head[c], v);
            if (!text0) continue;
            if (records.size() == 1) return true;
            if (c < records[1].size() && parseNumber(records[1][c], v)) return true;
        }
        return false;
    }

    static std::int64_t columnIndex(const nlohmann::json &v, const std::vector<std::string> &names,
                                    const std::string &key, const std::string &path) {
        std::string available;
        for (const std::string &n : names)
            available += (available.empty() ? "'" : ", '") + n + "'";
        if (v.is_number_integer()) {
            const auto c = v.get<std::int64_t>();
            if (c < 0 || c >= static_cast<std::int64_t>(names.size()))
                throw EngineError("'data." + key + "': column index " + std::to_string(c) + " is out of range; '" +
                                      path + "' has " + std::to_string(names.size()) + " columns.",
                                  "data." + key);
            return c;
        }
        if (!v.is_string())
            throw EngineError("'data." + key + "' must name columns (got " + v.dump() + ").", "data." + key);
        const auto it = std::find(names.begin(), names.end(), v.get<std::string>());
        if (it == names.end())
            throw EngineError("'data." + key + "': '" + path + "' has no column '" + v.get<std::string>() + "'.",
                              "data." + key, {}, "Available columns: " + available + ".");
        return it - names.begin();
    }

    static void resolveColumns(const std::vector<std::string> &names, const nlohmann::json *targetOpt,
                               const nlohmann::json *featuresOpt, bool, const std::string &path,
                               std::vector<std::int64_t> &targetCols, std::vector<std::int64_t> &featureCols) {
        if (targetOpt->is_array()) {
            if (targetOpt->empty()) throw EngineError("'data.target' lists no columns.", "data.target");
            for (const auto &v : *targetOpt)
                targetCols.push_back(columnIndex(v, names, "target", path));
        } else {
            targetCols.push_back(columnIndex(*targetOpt, names, "target", path));
        }
        if (featuresOpt) {
            if (!featuresOpt->is_array() || featuresOpt->empty())
                throw EngineError("'data.features' must be a non-empty list of column names.", "data.features");
            for (const auto &v : *featuresOpt) {
                const std::int64_t c = columnIndex(v, names, "features", path);
                if (std::find(targetCols.begin(), targetCols.end(), c) != targetCols.end())
                    throw EngineError("'data.features' lists the target column '" + names[c] + "'.", "data.features");
                featureCols.push_back(c);
            }
        } else {
            for (std::int64_t c = 0; c < static_cast<std::int64_t>(names.size()); ++c)
                if (std::find(targetCols.begin(), targetCols.end(), c) == targetCols.end()) featureCols.push_back(c);
            if (featureCols.empty())
                throw EngineError("'" + path + "' has no columns besides the target.", "data.features");
        }
    }

    static void checkClassCount(std::size_t classes, const std::string &path) {
        if (classes > static_cast<std::size_t>(kMaxClassIndex) + 1)
            throw EngineError("'" + path + "' (data.target) has " + std::to_string(classes) +
                                  " distinct labels; a classification dataset may have at most " +
                                  std::to_string(kMaxClassIndex + 1) + " classes.",
                              "data.target", {}, "Set \"task\": \"regression\" for numeric targets.");
    }

    /// Targets: numeric columns become regression values or class indices; text becomes classes in sorted
    /// order. Classes of numeric labels are sorted numerically ("2" before "10").
    static void fillTargets(Dataset &d, const std::vector<std::string> &labels, const std::vector<std::int64_t> &lines,
                            const std::vector<std::int64_t> &targetCols, const std::vector<std::string> &names,
                            const std::string &task, const std::string &path, ByteBudget &budget) {
        const std::string what = "'" + path + "' (data.path) targets";
        const auto s = static_cast<std::int64_t>(lines.size());
        const auto k = static_cast<std::int64_t>(targetCols.size());
        budget.charge(labels.size() * sizeof(double), what, "data.path");
        std::vector<double> numbers(labels.size());
        std::int64_t firstText = -1;
        bool integral = true;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            if ((i & 0xFFFF) == 0) throwIfStopRequested();
            if (!parseNumber(labels[i], numbers[i])) {
                if (firstText < 0) firstText = static_cast<std::int64_t>(i);
            } else if (std::floor(numbers[i]) != numbers[i]) {
                integral = false;
            }
        }
        const bool numeric = firstText < 0;
        d.task = task != "auto" ? task : (numeric && !integral ? "regression" : "classification");
        if (k > 1 && d.task == "classification") {
            if (task == "classification")
                throw EngineError("Classification takes one target column; 'data.target' lists " + std::to_string(k) +
                                      ".",
                                  "data.target");
            d.task = "regression";
        }
        if (d.task == "regression") {
            if (!numeric) {
                const std::int64_t row = firstText / k;
                throw EngineError(path + ":" + std::to_string(lines[row]) + ": the target column '" +
                                      names[targetCols[firstText % k]] + "' has the non-numeric value '" +
                                      labels[firstText] + "', but the task is regression.",
                                  "data.target", {}, "Set \"task\": \"classification\" for class labels.");
            }
            for (std::size_t i = 0; i < numbers.size(); ++i)
                if (std::fabs(numbers[i]) > std::numeric_limits<float>::max())
                    throw EngineError(path + ":" + std::to_string(lines[i / k]) + ": the target column '" +
                                          names[targetCols[i % k]] + "' has the value '" + labels[i] +
                                          "', beyond the range of float32.",
                                      "data.target");
            budget.charge(numbers.size() * sizeof(float), what, "data.path");
            d.targets = tensorOf(std::vector<float>(numbers.begin(), numbers.end()), {s, k}, torch::kFloat32);
            return;
        }
        // Classes: the distinct labels (hashed while polling the stop request, then sorted: usually few), then
        // one index per sample.
        budget.charge(static_cast<std::uint64_t>(s) * sizeof(std::int64_t), what, "data.path");
        std::vector<std::int64_t> index(s);
        constexpr std::size_t kDistinctBytes = 64; // per hashed label, roughly
        if (numeric) {
            std::unordered_set<double> distinct;
            for (std::size_t i = 0; i < numbers.size(); ++i) {
                if ((i & 0xFFFF) == 0) throwIfStopRequested();
                if (distinct.insert(numbers[i]).second) {
                    budget.charge(kDistinctBytes, what, "data.path");
                    checkClassCount(distinct.size(), path);
                }
            }
            std::vector<double> sorted(distinct.begin(), distinct.end());
            std::sort(sorted.begin(), sorted.end());
            for (std::int64_t i = 0; i < s; ++i) {
                if ((i & 0xFFFF) == 0) throwIfStopRequested();
                index[i] = std::lower_bound(sorted.begin(), sorted.end(), numbers[i]) - sorted.begin();
            }
            budget.charge(sorted.size() * (sizeof(std::string) + 24), what, "data.path");
            for (const double v : sorted)
                d.classNames.push_back(numberName(v));
        } else {
            std::unordered_set<std::string_view> distinct;
            for (std::size_t i = 0; i < labels.size(); ++i) {
                if ((i & 0xFFFF) == 0) throwIfStopRequested();
                if (distinct.insert(labels[i]).second) {
                    budget.charge(kDistinctBytes + sizeof(std::string) + heapBytes(labels[i].size()), what,
                                  "data.path");
                    checkClassCount(distinct.size(), path);
                }
            }
            d.classNames.assign(distinct.begin(), distinct.end());
            std::sort(d.classNames.begin(), d.classNames.end());
            for (std::int64_t i = 0; i < s; ++i) {
                if ((i & 0xFFFF) == 0) throwIfStopRequested();
                index[i] = std::lower_bound(d.classNames.begin(), d.classNames.end(), labels[i]) - d.classNames.begin();
            }
        }
        d.targets = tensorOf(std::move(index), {s}, torch::kInt64);
        d.numClasses = static_cast<std::int64_t>(d.classNames.size());
    }
};

} // namespace

std::unique_ptr<DataSource> makeCsvSource() { return std::make_unique<CsvSource>(); }

} // namespace diamond::engine::data
