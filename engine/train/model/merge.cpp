// Add and Multiply (broadcasting, left to right), Concat along `dim`, Identity: stateless.
#include "model/layer_support.h"

namespace diamond::engine::layers {

void addMergeFactories(LayerFactoryMap &m) {
    m["Add"] = [](const LayerBuildContext &) -> std::shared_ptr<Layer> {
        return std::make_shared<FunctionLayer>([](const Tensors &in) {
            torch::Tensor sum = in.at(0);
            for (std::size_t i = 1; i < in.size(); ++i)
                sum = sum + in[i];
            return Tensors{sum};
        });
    };
    m["Multiply"] = [](const LayerBuildContext &) -> std::shared_ptr<Layer> {
        return std::make_shared<FunctionLayer>([](const Tensors &in) {
            torch::Tensor product = in.at(0);
            for (std::size_t i = 1; i < in.size(); ++i)
                product = product * in[i];
            return Tensors{product};
        });
    };
    m["Concat"] = [](const LayerBuildContext &ctx) -> std::shared_ptr<Layer> {
        const std::int64_t dim = intArg(ctx, "dim");
        return std::make_shared<FunctionLayer>([dim](const Tensors &in) { return Tensors{torch::cat(in, dim)}; });
    };
    m["Identity"] = [](const LayerBuildContext &) { return unary([](const torch::Tensor &x) { return x; }); };
}

} // namespace diamond::engine::layers
