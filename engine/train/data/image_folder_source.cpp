// image_folder: <path>/<class>/.../<image>, one sub-folder per class (sorted folder names = classes, hidden
// entries skipped). Images (PNG, JPEG, BMP, GIF, TGA, PNM) are decoded with stb_image, converted to RGB (or to
// luminance with grayscale=true; alpha is dropped), resized bilinearly (half-pixel centres, no antialiasing) to
// size=[H, W] when given (else all images must share one size), and stored as [S, C, H, W] float32 in [0, 1].
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#include <stb_image.h>

#include "data/data_internal.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>

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

struct Decoded {
    stbi_uc *pixels = nullptr;
    int width = 0, height = 0;
    ~Decoded() { stbi_image_free(pixels); }
};

void decode(const std::string &file, int channels, Decoded &out) {
    int c = 0;
    out.pixels = stbi_load(file.c_str(), &out.width, &out.height, &c, channels);
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
        std::vector<std::string> files;
        std::vector<std::int64_t> labels;
        for (const auto &entry : fs::directory_iterator(root, ec))
            if (!hidden(entry.path()) && entry.is_directory()) d.classNames.push_back(entry.path().filename().string());
        std::sort(d.classNames.begin(), d.classNames.end());
        if (d.classNames.empty())
            throw EngineError("'" + root + "' (data.path) has no sub-folders; each class needs one.", "data.path");
        for (std::size_t k = 0; k < d.classNames.size(); ++k) {
            std::vector<std::string> found;
            const fs::path folder = fs::path(root) / d.classNames[k];
            for (auto it =
                     fs::recursive_directory_iterator(folder, fs::directory_options::follow_directory_symlink, ec);
                 it != fs::recursive_directory_iterator(); it.increment(ec)) {
                if (hidden(it->path())) {
                    if (it->is_directory()) it.disable_recursion_pending();
                    continue;
                }
                if (it->is_regular_file() && isImage(it->path())) found.push_back(it->path().string());
            }
            if (found.empty())
                throw EngineError("The class folder '" + folder.string() + "' (data.path) has no images.", "data.path",
                                  {}, "Supported: .png .jpg .jpeg .bmp .gif .tga .pgm .ppm .pnm.");
            std::sort(found.begin(), found.end());
            files.insert(files.end(), found.begin(), found.end());
            labels.insert(labels.end(), found.size(), static_cast<std::int64_t>(k));
        }

        const int channels = grayscale ? 1 : 3;
        if (height == 0) { // no size: every image must have the size of the first one
            Decoded first;
            decode(files[0], channels, first);
            height = first.height;
            width = first.width;
        }
        const auto s = static_cast<std::int64_t>(files.size());
        d.inputs = torch::empty({s, channels, height, width}, torch::kFloat32);
        float *out = d.inputs.data_ptr<float>();
        const std::int64_t sampleSize = channels * height * width;
        const bool fixedSize = o.has("size");
        at::parallel_for(0, s, 8, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t i = begin; i < end; ++i) {
                Decoded img;
                decode(files[i], channels, img);
                if (!fixedSize && (img.height != height || img.width != width))
                    throw EngineError("The image '" + files[i] + "' is " + std::to_string(img.width) + "x" +
                                          std::to_string(img.height) + " but '" + files[0] + "' is " +
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
