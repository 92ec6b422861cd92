#include "export/safetensors.h"

#include "checked_math.h"
#include "engine_error.h"

#include "diamond/config/run_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include <sys/stat.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "safetensors.cpp assumes a little-endian host (tensor bytes are copied as they are)"
#endif

namespace diamond::engine {

namespace {

using ordered_json = nlohmann::ordered_json;

constexpr const char *kMetadataKey = "__metadata__";
/// A valid header nests 3 levels ({ "name": { "shape": [ ); anything deeper is refused before
/// parsing so a hostile header cannot exhaust the stack.
constexpr int kMaxHeaderDepth = 4;

[[noreturn]] void fail(const std::string &what, const std::string &message) {
    throw EngineError(what + ": " + message, "safetensors");
}

void putU64(std::string &out, std::uint64_t v) {
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t getU64(std::string_view bytes) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(bytes[static_cast<std::size_t>(i)]);
    return v;
}

/// Elements x element size, or false when it overflows (see checkedBytes in checked_math.h).
bool byteSize(const std::vector<std::int64_t> &shape, int elementSize, std::uint64_t &out) {
    return checkedBytes(shape, static_cast<std::uint64_t>(elementSize), out);
}

int maxNesting(std::string_view text) {
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

struct Entry {
    std::string name;
    std::uint64_t begin = 0, end = 0;
};

SafetensorsTensor parseEntry(const std::string &what, const std::string &name, const ordered_json &info,
                             std::uint64_t dataSize, Entry &entry) {
    const std::string where = "tensor '" + name + "'";
    if (!info.is_object()) fail(what, where + " is not a JSON object in the header.");
    const auto dtype = info.find("dtype");
    const auto shape = info.find("shape");
    const auto offsets = info.find("data_offsets");
    if (dtype == info.end() || shape == info.end() || offsets == info.end())
        fail(what, where + " lacks one of dtype, shape and data_offsets.");
    SafetensorsTensor t;
    t.name = name;
    if (!dtype->is_string() || safetensorsDtypeSize(dtype->get<std::string>()) == 0)
        fail(what, where + " has an unknown dtype " + dtype->dump() + ".");
    t.dtype = dtype->get<std::string>();
    if (!shape->is_array()) fail(what, where + " has a shape that is not a list.");
    for (const auto &d : *shape) {
        if (!d.is_number_unsigned() || d.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            fail(what, where + " has an invalid shape " + shape->dump() + " (dimensions must be whole numbers >= 0).");
        t.shape.push_back(d.get<std::int64_t>());
    }
    if (!offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
        !(*offsets)[1].is_number_unsigned())
        fail(what, where + " has invalid data_offsets " + offsets->dump() + " (expected [begin, end]).");
    entry.name = name;
    entry.begin = (*offsets)[0].get<std::uint64_t>();
    entry.end = (*offsets)[1].get<std::uint64_t>();
    if (entry.begin > entry.end)
        fail(what, where + " has data_offsets " + offsets->dump() + " whose begin is after its end.");
    if (entry.end > dataSize) {
        fail(what, where + " has data_offsets " + offsets->dump() + " out of range: the data section has only " +
                       std::to_string(dataSize) + " bytes.");
    }
    std::uint64_t expected = 0;
    if (!byteSize(t.shape, safetensorsDtypeSize(t.dtype), expected) || expected != entry.end - entry.begin) {
        fail(what, where + " has " + std::to_string(entry.end - entry.begin) + " bytes of data, but " + t.dtype + " " +
                       shape->dump() + " needs " + (expected ? std::to_string(expected) : "more") + ".");
    }
    return t;
}

} // namespace

int safetensorsDtypeSize(const std::string &dtype) {
    static const std::map<std::string, int> sizes = {
        {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8}, {"I32", 4},  {"I16", 2},
        {"I8", 1},  {"U64", 8}, {"U32", 4}, {"U16", 2},  {"U8", 1},  {"BOOL", 1},
    };
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

const SafetensorsTensor *SafetensorsFile::find(const std::string &name) const {
    for (const auto &t : tensors) {
        if (t.name == name) return &t;
    }
    return nullptr;
}

std::string serializeSafetensors(const SafetensorsFile &file) {
    const std::string what = "safetensors writer";
    ordered_json header = ordered_json::object();
    if (!file.metadata.empty()) {
        ordered_json meta = ordered_json::object();
        for (const auto &[key, value] : file.metadata)
            meta[key] = value;
        header[kMetadataKey] = std::move(meta);
    }
    std::uint64_t offset = 0;
    std::set<std::string> names;
    for (const auto &t : file.tensors) {
        if (t.name.empty() || t.name == kMetadataKey) fail(what, "invalid tensor name '" + t.name + "'.");
        if (!names.insert(t.name).second) fail(what, "the tensor name '" + t.name + "' appears twice.");
        const int elementSize = safetensorsDtypeSize(t.dtype);
        if (elementSize == 0) fail(what, "tensor '" + t.name + "' has an unknown dtype '" + t.dtype + "'.");
        std::uint64_t size = 0;
        if (!byteSize(t.shape, elementSize, size) || size != t.data.size())
            fail(what,
                 "tensor '" + t.name + "' has " + std::to_string(t.data.size()) + " bytes of data for its shape.");
        header[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + size}}};
        offset += size;
    }
    std::string text = header.dump(-1, ' ', /*ensure_ascii=*/true);
    text.append((8 - text.size() % 8) % 8, ' '); // the data section starts 8-byte aligned
    std::string out;
    out.reserve(8 + text.size() + offset);
    putU64(out, text.size());
    out += text;
    for (const auto &t : file.tensors)
        out += t.data;
    return out;
}

SafetensorsFile parseSafetensors(std::string_view bytes, const std::string &what) {
    if (bytes.size() < 8) fail(what, "too short for a safetensors file (" + std::to_string(bytes.size()) + " bytes).");
    const std::uint64_t headerSize = getU64(bytes);
    if (headerSize > kSafetensorsMaxHeaderBytes) {
        fail(what, "the header claims " + std::to_string(headerSize) + " bytes, more than the limit of " +
                       std::to_string(kSafetensorsMaxHeaderBytes) + ".");
    }
    if (headerSize > bytes.size() - 8) {
        fail(what, "truncated: the header claims " + std::to_string(headerSize) + " bytes but only " +
                       std::to_string(bytes.size() - 8) + " follow.");
    }
    const std::string_view text = bytes.substr(8, headerSize);
    if (maxNesting(text) > kMaxHeaderDepth) fail(what, "the header is nested too deeply to be a safetensors header.");

    // Duplicate tensor names would make the file ambiguous; JSON parsers keep only one of them.
    std::set<std::string> keys;
    std::string duplicate;
    const ordered_json::parser_callback_t noteKeys = [&](int depth, ordered_json::parse_event_t event,
                                                         ordered_json &parsed) {
        if (event == ordered_json::parse_event_t::key && depth == 1 && parsed.is_string() &&
            !keys.insert(parsed.get<std::string>()).second && duplicate.empty())
            duplicate = parsed.get<std::string>();
        return true;
    };
    ordered_json header;
    try {
        header = ordered_json::parse(text.begin(), text.end(), noteKeys);
    } catch (const nlohmann::json::exception &e) {
        fail(what, std::string("the header is not valid JSON (") + e.what() + ").");
    }
    if (!header.is_object()) fail(what, "the header is not a JSON object.");
    if (!duplicate.empty()) fail(what, "the header names '" + duplicate + "' more than once.");

    const std::uint64_t dataSize = bytes.size() - 8 - headerSize;
    const std::string_view data = bytes.substr(8 + headerSize);
    SafetensorsFile file;
    std::vector<Entry> entries;
    for (const auto &[name, info] : header.items()) {
        if (name == kMetadataKey) {
            if (info.is_null()) continue;
            if (!info.is_object()) fail(what, "__metadata__ is not a JSON object.");
            for (const auto &[key, value] : info.items()) {
                if (!value.is_string()) fail(what, "__metadata__ entry '" + key + "' is not a string.");
                file.metadata[key] = value.get<std::string>();
            }
            continue;
        }
        Entry entry;
        file.tensors.push_back(parseEntry(what, name, info, dataSize, entry));
        file.tensors.back().data.assign(data.substr(entry.begin, entry.end - entry.begin));
        entries.push_back(std::move(entry));
    }

    // The tensors must tile the data section: no overlap, no gap, nothing after the last one.
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    std::uint64_t covered = 0;
    const Entry *previous = nullptr;
    for (const auto &e : entries) {
        if (e.begin < covered) {
            fail(what, "tensor '" + e.name + "' (bytes " + std::to_string(e.begin) + "-" + std::to_string(e.end) +
                           ") overlaps tensor '" + previous->name + "' (ending at " + std::to_string(covered) + ").");
        }
        if (e.begin > covered) {
            fail(what, "bytes " + std::to_string(covered) + "-" + std::to_string(e.begin) +
                           " of the data section belong to no tensor (before '" + e.name + "').");
        }
        covered = e.end;
        previous = &e;
    }
    if (covered != dataSize) {
        fail(what, std::to_string(dataSize - covered) + " bytes after the last tensor belong to no tensor.");
    }
    return file;
}

std::string writeSafetensors(const std::string &path, const SafetensorsFile &file) {
    std::string bytes = serializeSafetensors(file);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::remove(tmp.c_str());
            throw EngineError("Could not write " + path + ".", "safetensors");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::filesystem::remove(tmp, ec);
        throw EngineError("Could not move " + path + " into place.", "safetensors");
    }
    return bytes;
}

SafetensorsFile readSafetensors(const std::string &path, std::int64_t maxBytes) {
    const std::uint64_t cap =
        static_cast<std::uint64_t>(maxBytes > 0 ? maxBytes : ::diamond::config::defaultDataMaxBytes());
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) throw EngineError("Could not open " + path + ".", "safetensors");
    if (!S_ISREG(st.st_mode)) throw EngineError(path + " is not a regular file.", "safetensors");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw EngineError("Could not open " + path + ".", "safetensors");
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::uint64_t>(in.tellg());
    in.seekg(0);
    if (size > cap)
        throw EngineError(path + " has " + std::to_string(size) + " bytes, more than the memory cap of " +
                              std::to_string(cap) + " bytes.",
                          "safetensors");
    std::string bytes(static_cast<std::size_t>(std::min<std::uint64_t>(size, 8)), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    // Refuse an oversized header before reading (possibly gigabytes of) data.
    if (bytes.size() == 8 && getU64(bytes) > kSafetensorsMaxHeaderBytes) return parseSafetensors(bytes, path);
    if (bytes.size() == 8 && getU64(bytes) > cap / 32)
        throw EngineError(path + ": the header claims " + std::to_string(getU64(bytes)) +
                              " bytes; parsing it would take more than the memory cap of " + std::to_string(cap) +
                              " bytes.",
                          "safetensors");
    bytes.resize(static_cast<std::size_t>(size));
    if (size > 8) in.read(bytes.data() + 8, static_cast<std::streamsize>(size - 8));
    if (!in) throw EngineError("Could not read " + path + ".", "safetensors");
    return parseSafetensors(bytes, path);
}

} // namespace diamond::engine
