// Which device a rank computes on. One rule for the trainer, calibration and prediction: "cuda" means the GPU of
// the rank's local rank, so the ranks of one node never share a GPU by accident.
#pragma once

#include <string>

namespace diamond::engine {

/// What this engine build and this process can use.
struct DeviceSupport {
    bool cudaBuilt = false;   ///< the libtorch built against has CUDA (and this build compiled its CUDA code)
    int cudaDevices = 0;      ///< GPUs this process sees (after CUDA_VISIBLE_DEVICES / Slurm's binding)
    std::string torchVersion; ///< e.g. "1.13.0"
};

/// This build and machine.
DeviceSupport deviceSupport();

/// The concrete device for `requested` ("cpu", "cuda" or "cuda:N") on local rank `localRank`:
/// - "cpu" -> "cpu";
/// - "cuda" -> "cuda:<localRank>", or "cuda:0" when the process sees exactly one GPU (a scheduler that binds one GPU
///   per task, as Slurm's --gpus-per-task or --gpu-bind do);
/// - "cuda:N" -> itself.
/// Throws EngineError (field "device") naming the device asked for and what this build supports when the build has
/// no CUDA, no GPU is visible, or the index is not a visible GPU.
std::string chooseDevice(const std::string &requested, int localRank, const DeviceSupport &support);

/// One line for messages: "cpu only (libtorch 1.13.0 without CUDA)", "cpu and 2 CUDA GPUs (libtorch 2.5.1)".
std::string describeSupport(const DeviceSupport &support);

} // namespace diamond::engine
