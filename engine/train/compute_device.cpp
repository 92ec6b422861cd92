#include "compute_device.h"

#include "engine_error.h"
#include "torch_compat.h"

namespace diamond::engine {

DeviceSupport deviceSupport() {
    DeviceSupport s;
    s.cudaBuilt = compat::kCudaBuilt;
    s.cudaDevices = compat::cudaDeviceCount();
    s.torchVersion = compat::torchVersion();
    return s;
}

std::string describeSupport(const DeviceSupport &support) {
    if (!support.cudaBuilt) return "cpu only (libtorch " + support.torchVersion + " without CUDA)";
    return "cpu and " + std::to_string(support.cudaDevices) + " CUDA GPU" + (support.cudaDevices == 1 ? "" : "s") +
           " (libtorch " + support.torchVersion + " with CUDA)";
}

std::string chooseDevice(const std::string &requested, int localRank, const DeviceSupport &support) {
    if (requested == "cpu") return requested;
    int index = -1;
    if (requested == "cuda") {
        index = support.cudaDevices == 1 ? 0 : localRank;
    } else if (requested.rfind("cuda:", 0) == 0 && requested.size() > 5 && requested.size() <= 9 &&
               requested.find_first_not_of("0123456789", 5) == std::string::npos) {
        index = std::stoi(requested.substr(5));
    } else {
        throw EngineError("device '" + requested + "' is not cpu, cuda or cuda:N.", "device");
    }
    const std::string has = "; this engine supports " + describeSupport(support) + ".";
    if (!support.cudaBuilt)
        throw EngineError("device '" + requested + "' was requested, but this engine cannot use CUDA" + has, "device",
                          {}, "Use \"device\": \"cpu\", or a CUDA build of diamond-train (a GPU cluster's container).");
    if (support.cudaDevices == 0)
        throw EngineError("device '" + requested + "' was requested, but this process sees no GPU" + has, "device", {},
                          "Run on a GPU node (ask the scheduler for GPUs), or use \"device\": \"cpu\".");
    if (index < 0 || index >= support.cudaDevices)
        throw EngineError("device '" + requested + "' on local rank " + std::to_string(localRank) + " needs cuda:" +
                              std::to_string(index) + ", but this process sees " + std::to_string(support.cudaDevices) +
                              " GPU" + (support.cudaDevices == 1 ? "" : "s") + has,
                          "device", {}, "Start at most one process per GPU on each node.");
    return "cuda:" + std::to_string(index);
}

} // namespace diamond::engine
