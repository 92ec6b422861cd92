// The one place where the engine's source differs between the libtorch versions it builds against: Debian's
// libtorch 1.13 (CPU, what CI uses) and libtorch 2.x with CUDA (the libtorch inside a PyTorch 2.x installation,
// what clusters run). Everything else in engine/train is written against the API both share. c10d's process
// groups (1.13: c10d::ProcessGroup, 2.x: c10d::Backend) are handled by distributed.cpp's template instead.
#pragma once

#include <ATen/autocast_mode.h>
#include <torch/torch.h>
#include <torch/version.h>

#ifdef DIAMOND_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>

/// True when the libtorch built against is at least major.minor.
#define DIAMOND_TORCH_AT_LEAST(major, minor)                                                                           \
    (TORCH_VERSION_MAJOR > (major) || (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

namespace diamond::engine::compat {

/// "1.13.0", "2.5.1": the libtorch this engine was built against.
inline std::string torchVersion() {
    return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
           std::to_string(TORCH_VERSION_PATCH);
}

/// True when this build has CUDA (and NCCL) code.
inline constexpr bool kCudaBuilt =
#ifdef DIAMOND_WITH_CUDA
    true;
#else
    false;
#endif

/// Autocast for CPU or CUDA (1.13: per-device-type functions; 2.4+: functions taking the device type).
inline bool autocastEnabled(c10::DeviceType type) {
#if DIAMOND_TORCH_AT_LEAST(2, 4)
    return at::autocast::is_autocast_enabled(type);
#else
    return type == c10::DeviceType::CUDA ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
#endif
}
inline void setAutocastEnabled(c10::DeviceType type, bool on) {
#if DIAMOND_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_enabled(type, on);
#else
    if (type == c10::DeviceType::CUDA)
        at::autocast::set_enabled(on);
    else
        at::autocast::set_cpu_enabled(on);
#endif
}
inline at::ScalarType autocastDtype(c10::DeviceType type) {
#if DIAMOND_TORCH_AT_LEAST(2, 4)
    return at::autocast::get_autocast_dtype(type);
#else
    return type == c10::DeviceType::CUDA ? at::autocast::get_autocast_gpu_dtype()
                                         : at::autocast::get_autocast_cpu_dtype();
#endif
}
inline void setAutocastDtype(c10::DeviceType type, at::ScalarType dtype) {
#if DIAMOND_TORCH_AT_LEAST(2, 4)
    at::autocast::set_autocast_dtype(type, dtype);
#else
    if (type == c10::DeviceType::CUDA)
        at::autocast::set_autocast_gpu_dtype(dtype);
    else
        at::autocast::set_autocast_cpu_dtype(dtype);
#endif
}

/// Number of CUDA devices this process sees (0 without a CUDA build).
inline int cudaDeviceCount() {
#ifdef DIAMOND_WITH_CUDA
    return static_cast<int>(torch::cuda::device_count());
#else
    return 0;
#endif
}

/// Makes `index` the current CUDA device of the calling thread (no-op without CUDA).
inline void setCurrentCudaDevice([[maybe_unused]] int index) {
#ifdef DIAMOND_WITH_CUDA
    c10::cuda::set_device(static_cast<c10::DeviceIndex>(index));
#endif
}

/// The key of `parameter`'s entry in an Optimizer's state() map, which holds the address of the parameter's TensorImpl:
/// as text in 1.13 (c10::guts::to_string of the pointer, which 2.2 removed), as the pointer itself in 2.2+. Chosen by
/// the map's key type, so it needs no version number.
template <typename Optimizer = torch::optim::Optimizer>
typename std::decay_t<decltype(std::declval<const Optimizer &>().state())>::key_type
optimizerStateKey(const at::Tensor &parameter) {
    using Key = typename std::decay_t<decltype(std::declval<const Optimizer &>().state())>::key_type;
    if constexpr (std::is_same_v<Key, std::string>) {
        std::ostringstream text;
        text << parameter.unsafeGetTensorImpl();
        return text.str();
    } else {
        return parameter.unsafeGetTensorImpl();
    }
}

struct GpuMemory {
    std::int64_t allocated = 0, reserved = 0, peakAllocated = 0, peakReserved = 0;
};

/// The caching allocator's figures for CUDA device `index` (zeros without CUDA). Index 0 of the statistics arrays is
/// the aggregate over the small and large pools in every version.
inline GpuMemory gpuMemory([[maybe_unused]] int index) {
    GpuMemory m;
#ifdef DIAMOND_WITH_CUDA
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(static_cast<c10::DeviceIndex>(index));
    m.allocated = stats.allocated_bytes[0].current;
    m.reserved = stats.reserved_bytes[0].current;
    m.peakAllocated = stats.allocated_bytes[0].peak;
    m.peakReserved = stats.reserved_bytes[0].peak;
#endif
    return m;
}

struct GpuDevice {
    std::string name;
    std::int64_t totalBytes = 0;
    /// What this process can still allocate: free memory plus what the caching allocator holds (the CUDA context
    /// and other processes' memory excluded).
    std::int64_t usableBytes = 0;
};

/// CUDA device `index` (made the current device); empty without CUDA.
inline GpuDevice gpuDevice([[maybe_unused]] int index) {
    GpuDevice d;
#ifdef DIAMOND_WITH_CUDA
    cudaDeviceProp properties{};
    std::size_t freeBytes = 0, totalBytes = 0;
    if (cudaSetDevice(index) != cudaSuccess || cudaGetDeviceProperties(&properties, index) != cudaSuccess ||
        cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess)
        return d;
    d.name = properties.name;
    d.totalBytes = static_cast<std::int64_t>(totalBytes);
    d.usableBytes = static_cast<std::int64_t>(freeBytes) + gpuMemory(index).reserved;
#endif
    return d;
}

inline void resetGpuPeakMemory([[maybe_unused]] int index) {
#ifdef DIAMOND_WITH_CUDA
    c10::cuda::CUDACachingAllocator::resetPeakStats(static_cast<c10::DeviceIndex>(index));
#endif
}

} // namespace diamond::engine::compat
