// image_folder: <path>/<class>/.../<image>, one sub-folder per class (sorted folder names = classes, hidden
// entries skipped). Images (PNG, JPEG, BMP, GIF, TGA, PNM) are decoded with stb_image, converted to RGB (or to
// luminance with grayscale=true; alpha is dropped), resized bilinearly (half-pixel centres, no antialiasing) to
// size=[H, W] when given (else all images must share one size), and stored as [S, C, H, W] float32 in [0, 1].
// Memory: each image's header is read first (stbi_info) and its decoding, up to 8 bytes per pixel inside
// stb_image, is checked against data.max_bytes before it is decoded; the [S, C, H, W] tensor is charged before
// it is allocated. Only regular files are read; decoding polls the stop request between images.
// Packed images (a dataset staged to a cluster, app/data/dataset_stager.h): <path>/.diamond-packed lists images kept
// inside packs instead of as files, one per line after the header "diamond-packed 1 PACKDIR" (PACKDIR relative
// to <path>): "PACKSHA OFFSET SIZE CLASS/.../IMAGE", the image being SIZE bytes at OFFSET of PACKDIR/PACKSHA.pack.
// They join the files found in the class folders; a line that does not parse, a path with "..", or a range past
// the end of its pack is an error naming the index and its line.
// Hostile images: stb_image is compiled with the documented formats only (no PSD, HDR, PIC decoders), sides of at
// most 65536 pixels; JPEG Huffman tables that stb 2.27 would overflow (more than 256 codes, CVE-2021-28021) and
// 16-bit PNM images (whose conversion to 8 bits overflows its buffer in stb 2.27) and PNG chunks longer than the
// file (stb allocates a chunk's declared length before reading it) are refused before stb decodes.
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_GIF
#define STBI_ONLY_TGA
#define STBI_ONLY_PNM
#define STBI_MAX_DIMENSIONS (1 << 16)
#include <stb_image.h>

#include "data/data_internal.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <filesystem>

#include <unistd.h>

namespace diamond::engine::data {

namespace {

namespace fs = std::filesystem;

bool isImage(const fs::path &p) {
    std::string ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    static const char *const kExt[] = {".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tga", ".pgm", ".ppm", ".pnm"};
    return std::find(std::begin(kExt), std::end(kExt), ext) != std::end(kExt);
}

bool hidden(const fs::path &p) { return !p.filename().empty() && p.filename().string()[0] == '.'; }

/// One image: a file, or `size` bytes at `offset` of a pack file. `name` is what messages call it.
struct ImageEntry {
    std::string name;
    std::string file;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
    bool packed = false;
};

struct Decoded {
    stbi_uc *pixels = nullptr;
    int width = 0, height = 0;
    ~Decoded() { stbi_image_free(pixels); }
};

/// The most bytes stb_image holds per pixel while decoding (16-bit RGBA before conversion to 8 bits).
constexpr std::uint64_t kDecodeBytesPerPixel = 8;

/// Whether every Huffman table of a JPEG's DHT segments declares at most 256 codes (true for other files). Walks
/// the markers as stb_image reads them; bytes past the end count as 0, as stb reads them.
bool jpegHuffmanTablesFit(const std::vector<stbi_uc> &bytes) {
    const std::size_t n = bytes.size();
    const auto at = [&](std::size_t i) -> std::size_t { return i < n ? bytes[i] : 0; };
    // stb takes any number of 0xFF fill bytes before a marker, SOI included (found by fuzz_image_folder).
    std::size_t start = 0;
    while (start < n && bytes[start] == 0xFF)
        ++start;
    if (start == 0 || start >= n || bytes[start] != 0xD8) return true;
    for (std::size_t i = start + 1; i + 1 < n;) {
        const std::size_t m = bytes[i + 1];
        if (bytes[i] != 0xFF || m == 0xFF) { // entropy-coded data, or a fill byte before a marker
            ++i;
            continue;
        }
        if (m == 0x00 || m == 0x01 || m == 0xD8 || (m >= 0xD0 && m <= 0xD7)) { // stuffed 0xFF, TEM, SOI, RSTn
            i += 2;
            continue;
        }
        if (m == 0xD9) return true; // EOI
        const std::size_t length = at(i + 2) << 8 | at(i + 3);
        if (m == 0xC4) {
            std::ptrdiff_t left = static_cast<std::ptrdiff_t>(length) - 2;
            for (std::size_t table = i + 4; left > 0;) {
                std::size_t codes = 0;
                for (std::size_t k = 1; k <= 16; ++k)
                    codes += at(table + k);
                if (codes > 256) return false;
                table += 17 + codes;
                left -= static_cast<std::ptrdiff_t>(17 + codes);
            }
        }
        i += 2 + length;
    }
    return true;
}

/// Whether the width, height and maximum value of a binary PNM header (P5/P6) are at most 2^24, read as stb_image
/// reads them (whitespace and # comments between); true for other files. stb 2.27 accumulates them in an int
/// without a bound (signed overflow, found by fuzz_image_folder).
bool pnmHeaderFits(const std::vector<stbi_uc> &bytes) {
    const std::size_t n = bytes.size();
    if (n < 2 || bytes[0] != 'P' || (bytes[1] != '5' && bytes[1] != '6')) return true;
    const auto space = [](stbi_uc c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    std::size_t i = 2;
    for (int field = 0; field < 3; ++field) {
        for (;;) {
            while (i < n && space(bytes[i]))
                ++i;
            if (i >= n || bytes[i] != '#') break;
            while (i < n && bytes[i] != '\n' && bytes[i] != '\r')
                ++i;
        }
        std::uint64_t value = 0;
        for (; i < n && bytes[i] >= '0' && bytes[i] <= '9'; ++i) {
            value = value * 10 + static_cast<std::uint64_t>(bytes[i] - '0');
            if (value > (std::uint64_t(1) << 24)) return false;
        }
    }
    return true;
}

/// Whether every chunk of a PNG file, up to IEND, fits inside the file (true for other files). stb 2.27 grows its
/// IDAT buffer to a chunk's declared length before it reads the chunk, so a 1 GiB length in a 100-byte file was a
/// 1 GiB allocation (found by fuzz_image_folder).
bool pngChunksFit(const std::vector<stbi_uc> &bytes) {
    static const stbi_uc kSignature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
    const std::size_t n = bytes.size();
    if (n < 8 || !std::equal(std::begin(kSignature), std::end(kSignature), bytes.begin())) return true;
    for (std::size_t i = 8; i + 8 <= n;) {
        const std::uint64_t length = std::uint64_t(bytes[i]) << 24 | std::uint64_t(bytes[i + 1]) << 16 |
                                     std::uint64_t(bytes[i + 2]) << 8 | std::uint64_t(bytes[i + 3]);
        if (length + 12 > n - i) return false; // length, type, data, CRC
        if (bytes[i + 4] == 'I' && bytes[i + 5] == 'E' && bytes[i + 6] == 'N' && bytes[i + 7] == 'D') return true;
        i += 12 + static_cast<std::size_t>(length);
    }
    return true; // stb reads a missing chunk header as zeros: a zero-length chunk it refuses
}

/// The bytes of the image `image` (a regular file, or a range of one), after checking that they fit `budget`.
std::vector<stbi_uc> readImage(const ImageEntry &image, const ByteBudget &budget) {
    std::uint64_t size = 0;
    const int fd = openRegularFile(image.file, "data.path", size);
    std::uint64_t offset = 0;
    if (image.packed) {
        if (image.offset > size || image.size > size - image.offset) {
            ::close(fd);
            throw EngineError("The packed image '" + image.name + "' (data.path) lies at bytes " +
                                  std::to_string(image.offset) + " … " + std::to_string(image.offset + image.size) +
                                  " of '" + image.file + "', which has " + std::to_string(size) +
                                  " bytes (a truncated pack).",
                              "data.path", {}, "Stage the dataset again.");
        }
        offset = image.offset;
        size = image.size;
    }
    std::vector<stbi_uc> bytes;
    if (size > budget.remaining() || size > (std::uint64_t(1) << 31)) {
        ::close(fd);
        throw EngineError("The image '" + image.name + "' (data.path) has " + std::to_string(size) +
                              " bytes, more than data.max_bytes allows (" + std::to_string(budget.cap()) + " bytes, " +
                              std::to_string(budget.used()) + " in use).",
                          "data.path");
    }
    bytes.resize(static_cast<std::size_t>(size));
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t got = ::pread(fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(offset + done));
        if (got <= 0) break;
        done += static_cast<std::size_t>(got);
    }
    ::close(fd);
    bytes.resize(done);
    return bytes;
}

/// Decodes `image` into `out` (`channels` interleaved 8-bit channels), after checking its declared size against
/// `budget` (decoding memory is temporary: checked, not charged) and its JPEG tables. Throws naming the image.
void decode(const ImageEntry &image, int channels, const ByteBudget &budget, Decoded &out) {
    throwIfStopRequested();
    const std::vector<stbi_uc> bytes = readImage(image, budget);
    const std::string &file = image.name;
    const int length = static_cast<int>(bytes.size());
    if (!jpegHuffmanTablesFit(bytes)) // before stb reads anything: its header parser builds the tables too
        throw EngineError("Cannot decode the image '" + file +
                              "' (data.path): a JPEG Huffman table declares more than 256 codes (corrupt file).",
                          "data.path");
    if (!pngChunksFit(bytes))
        throw EngineError("Cannot decode the image '" + file +
                              "' (data.path): a PNG chunk declares more bytes than the file holds (truncated or "
                              "corrupt file).",
                          "data.path");
    if (!pnmHeaderFits(bytes))
        throw EngineError("Cannot decode the image '" + file +
                              "' (data.path): its PNM header declares a size or maximum value above 16777216 "
                              "(corrupt file).",
                          "data.path");
    if (length >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '6' &&
        stbi_is_16_bit_from_memory(bytes.data(), length))
        throw EngineError("Cannot decode the image '" + file +
                              "' (data.path): 16-bit PNM images (maximum value above 255) are not supported.",
                          "data.path", {}, "Convert it to 8 bits per channel, or to PNG.");
    int width = 0, height = 0, c = 0;
    if (!stbi_info_from_memory(bytes.data(), length, &width, &height, &c))
        throw EngineError("Cannot decode the image '" + file + "' (data.path): " + stbi_failure_reason() + ".",
                          "data.path");
    const std::uint64_t decoding = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) *
                                   kDecodeBytesPerPixel; // sides < 2^31: no overflow
    if (width <= 0 || height <= 0 || decoding > budget.remaining())
        throw EngineError("The image '" + file + "' (data.path) declares " + std::to_string(width) + "x" +
                              std::to_string(height) + " pixels; decoding it needs up to " + std::to_string(decoding) +
                              " bytes, more than data.max_bytes allows (" + std::to_string(budget.cap()) + " bytes, " +
                              std::to_string(budget.used()) + " in use).",
                          "data.path", {}, "Use smaller images, or raise data.max_bytes.");
    out.pixels = stbi_load_from_memory(bytes.data(), length, &out.width, &out.height, &c, channels);
    if (!out.pixels)
        throw EngineError("Cannot decode the image '" + file + "' (data.path): " + stbi_failure_reason() + ".",
                          "data.path");
}

/// Writes `in` (h x w x channels, interleaved uint8) into out[C, H, W] in [0, 1], bilinearly resized.
void resizeInto(const Decoded &in, int channels, std::int64_t outH, std::int64_t outW, float *out) {
    const double sy = static_cast<double>(in.height) / static_cast<double>(outH);
    const double sx = static_cast<double>(in.width) / static_cast<double>(outW);
    for (std::int64_t y = 0; y < outH; ++y) {
        const double fy = std::clamp((static_cast<double>(y) + 0.5) * sy - 0.5, 0.0, in.height - 1.0);
        const int y0 = static_cast<int>(fy);
        const int y1 = std::min(y0 + 1, in.height - 1);
        const double wy = fy - y0;
        for (std::int64_t x = 0; x < outW; ++x) {
            const double fx = std::clamp((static_cast<double>(x) + 0.5) * sx - 0.5, 0.0, in.width - 1.0);
            const int x0 = static_cast<int>(fx);
            const int x1 = std::min(x0 + 1, in.width - 1);
            const double wx = fx - x0;
            for (int c = 0; c < channels; ++c) {
                auto px = [&](int yy, int xx) {
                    return static_cast<double>(
                        in.pixels[(static_cast<std::size_t>(yy) * in.width + xx) * channels + c]);
                };
                const double v = (1 - wy) * ((1 - wx) * px(y0, x0) + wx * px(y0, x1)) +
                                 wy * ((1 - wx) * px(y1, x0) + wx * px(y1, x1));
                out[(c * outH + y) * outW + x] = static_cast<float>(v / 255.0);
            }
        }
    }
}

/// The images listed in the .diamond-packed index of `root` or of the nearest of its 8 parent folders that has one
/// (then the entries under `root` only), with their class folder names, in index order; none without an index.
/// Throws EngineError naming the index and line for a line that does not parse.
std::vector<std::pair<std::string, ImageEntry>> packedImages(const std::string &root, const ByteBudget &budget) {
    std::error_code ec;
    fs::path indexDir = fs::path(root).lexically_normal();
    if (indexDir.filename().empty()) indexDir = indexDir.parent_path();
    std::string prefix; // root relative to indexDir, ending in '/' (empty: the index is root's own)
    for (int up = 0; !fs::exists(indexDir / ".diamond-packed", ec); ++up) {
        if (up == 8 || indexDir.filename().empty() || indexDir.parent_path() == indexDir) return {};
        prefix = indexDir.filename().string() + "/" + prefix;
        indexDir = indexDir.parent_path();
    }
    const std::string index = (indexDir / ".diamond-packed").string();
    std::uint64_t size = 0;
    const int fd = openRegularFile(index, "data.path", size);
    if (size > budget.remaining()) {
        ::close(fd);
        throw EngineError("The pack index '" + index + "' (data.path) has " + std::to_string(size) +
                              " bytes, more than data.max_bytes allows (" + std::to_string(budget.cap()) + " bytes).",
                          "data.path");
    }
    std::string text(static_cast<std::size_t>(size), '\0');
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t got = ::read(fd, text.data() + done, text.size() - done);
        if (got <= 0) break;
        done += static_cast<std::size_t>(got);
    }
    ::close(fd);
    text.resize(done);
    std::vector<std::pair<std::string, ImageEntry>> images;
    fs::path packDir;
    std::size_t lineNumber = 0;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        ++lineNumber;
        const auto bad = [&](const std::string &why) {
            return EngineError("The pack index '" + index + "' (data.path), line " + std::to_string(lineNumber) + ": " +
                                   why + ".",
                               "data.path", {}, "Stage the dataset again.");
        };
        if (lineNumber == 1) {
            const std::string header = "diamond-packed 1 ";
            if (line.compare(0, header.size(), header) != 0 || line.size() == header.size())
                throw bad("expected the header 'diamond-packed 1 PACKDIR'");
            packDir = indexDir / line.substr(header.size());
            continue;
        }
        if (line.empty()) continue;
        // PACKSHA OFFSET SIZE PATH (the path may hold spaces)
        const std::size_t a = line.find(' '), b = line.find(' ', a + 1), c = line.find(' ', b + 1);
        if (a != 64 || b == std::string::npos || c == std::string::npos)
            throw bad("expected 'PACKSHA OFFSET SIZE PATH'");
        const std::string sha = line.substr(0, 64);
        if (!std::all_of(sha.begin(), sha.end(),
                         [](char ch) { return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'); }))
            throw bad("the pack name is not a SHA-256");
        const auto number = [&](const std::string &digits) {
            if (digits.empty() || digits.size() > 15 ||
                !std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
                throw bad("'" + digits + "' is not a byte count");
            return static_cast<std::uint64_t>(std::stoull(digits));
        };
        ImageEntry e;
        e.packed = true;
        e.offset = number(line.substr(a + 1, b - a - 1));
        e.size = number(line.substr(b + 1, c - b - 1));
        const std::string full = line.substr(c + 1);
        if (full.compare(0, prefix.size(), prefix) != 0) continue; // outside root
        const fs::path rel(full.substr(prefix.size()));
        std::vector<std::string> parts;
        for (const fs::path &part : rel)
            parts.push_back(part.string());
        if (rel.is_absolute() || parts.size() < 2 ||
            std::any_of(parts.begin(), parts.end(), [](const std::string &x) { return x.empty() || x == ".."; }))
            throw bad("'" + rel.string() + "' is not CLASS/.../IMAGE inside the folder");
        if (std::any_of(parts.begin(), parts.end(), [](const std::string &x) { return x[0] == '.'; }) || !isImage(rel))
            continue; // hidden entries and other files, as in the class folders
        e.file = (packDir / (sha + ".pack")).string();
        e.name = (fs::path(root) / rel).string();
        images.emplace_back(parts[0], std::move(e));
    }
    return images;
}

class ImageFolderSource : public DataSource {
public:
    Dataset load(const DataConfig &config, std::uint64_t) override {
        Options o(config, "image_folder");
        const std::string root = o.path("path");
        const bool grayscale = o.boolean("grayscale", false);
        std::int64_t height = 0, width = 0;
        if (const nlohmann::json *size = o.raw("size")) {
            auto dim = [](const nlohmann::json &v) {
                return v.is_number_integer() && v.get<std::int64_t>() >= 1 && v.get<std::int64_t>() <= 4096
                           ? v.get<std::int64_t>()
                           : 0;
            };
            if (size->is_array() && size->size() == 2) {
                height = dim((*size)[0]);
                width = dim((*size)[1]);
            } else if (!size->is_array()) {
                height = width = dim(*size);
            }
            if (height == 0 || width == 0)
                throw EngineError("'data.size' must be [height, width] (or one number) with sides 1..4096 (got " +
                                      size->dump() + ").",
                                  "data.size");
        }
        o.checkUnknown();

        std::error_code ec;
        if (!fs::is_directory(root, ec))
            throw EngineError("'" + root + "' (data.path) is not a folder.", "data.path", {},
                              "Point data.path at a folder with one sub-folder of images per class.");
        Dataset d;
        ByteBudget &budget = o.budget();
        const std::vector<std::pair<std::string, ImageEntry>> packed = packedImages(root, budget);
        for (const auto &entry : fs::directory_iterator(root, ec))
            if (!hidden(entry.path()) && entry.is_directory()) d.classNames.push_back(entry.path().filename().string());
        for (const auto &[className, image] : packed)
            d.classNames.push_back(className);
        std::sort(d.classNames.begin(), d.classNames.end());
        d.classNames.erase(std::unique(d.classNames.begin(), d.classNames.end()), d.classNames.end());
        if (d.classNames.empty())
            throw EngineError("'" + root + "' (data.path) has no sub-folders; each class needs one.", "data.path");
        std::vector<ImageEntry> files;
        std::vector<std::int64_t> labels;
        for (std::size_t k = 0; k < d.classNames.size(); ++k) {
            std::vector<ImageEntry> found;
            const fs::path folder = fs::path(root) / d.classNames[k];
            for (auto it =
                     fs::recursive_directory_iterator(folder, fs::directory_options::follow_directory_symlink, ec);
                 it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (hidden(it->path())) {
                    if (it->is_directory()) it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file() && isImage(it->path()))
                    found.push_back({it->path().string(), it->path().string()});
            }
            for (const auto &[className, image] : packed)
                if (className == d.classNames[k]) found.push_back(image);
            if (found.empty())
                throw EngineError("The class folder '" + folder.string() + "' (data.path) has no images.", "data.path",
                                  {}, "Supported: .png .jpg .jpeg .bmp .gif .tga .pgm .ppm .pnm.");
            std::sort(found.begin(), found.end(),
                      [](const ImageEntry &x, const ImageEntry &y) { return x.name < y.name; });
            files.insert(files.end(), found.begin(), found.end());
            labels.insert(labels.end(), found.size(), static_cast<std::int64_t>(k));
        }

        const int channels = grayscale ? 1 : 3;
        if (height == 0) { // no size: every image must have the size of the first one
            Decoded first;
            decode(files[0], channels, budget, first);
            height = first.height;
            width = first.width;
        }
        const auto s = static_cast<std::int64_t>(files.size());
        std::uint64_t bytes = 0;
        if (!checkedBytes({s, channels, height, width}, sizeof(float), bytes)) bytes = ~std::uint64_t(0);
        budget.charge(bytes,
                      "'" + root + "' (data.path): " + std::to_string(s) + " images of " + std::to_string(channels) +
                          "x" + std::to_string(height) + "x" + std::to_string(width) + " float32",
                      "data.path");
        d.inputs = torch::empty({s, channels, height, width}, torch::kFloat32);
        float *out = d.inputs.data_ptr<float>();
        const std::int64_t sampleSize = channels * height * width;
        const bool fixedSize = o.has("size");
        at::parallel_for(0, s, 8, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                Decoded img;
                decode(files[i], channels, budget, img);
                if (!fixedSize && (img.height != height || img.width != width))
                    throw EngineError("The image '" + files[i].name + "' is " + std::to_string(img.width) + "x" +
                                          std::to_string(img.height) + " but '" + files[0].name + "' is " +
                                          std::to_string(width) + "x" + std::to_string(height) + ".",
                                      "data.size", {}, "Set data.size to [height, width] to resize all images.");
                resizeInto(img, channels, height, width, out + i * sampleSize);
            }
        });
        d.targets = torch::from_blob(labels.data(), {s}, torch::kInt64).clone();
        d.numClasses = static_cast<std::int64_t>(d.classNames.size());
        const fs::path name =
            fs::path(root).filename().empty() ? fs::path(root).parent_path().filename() : fs::path(root).filename();
        d.description = describe("image_folder " + name.string(), d);
        return d;
    }
};

} // namespace

std::unique_ptr<DataSource> makeImageFolderSource() { return std::make_unique<ImageFolderSource>(); }

} // namespace diamond::engine::data
