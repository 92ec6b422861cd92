// Embedding: torch::nn::Embedding (weights ~ N(0, 1), the padding_idx row zero, as in PyTorch).
// Accepts int64 or int32 ids of any shape; appends embedding_dim.
#include "model/layer_support.h"

namespace diamond::engine::layers {

void addEmbeddingFactories(LayerFactoryMap &m) {
    m["Embedding"] = [](const LayerBuildContext &ctx) {
        auto options = torch::nn::EmbeddingOptions(intArg(ctx, "num_embeddings"), intArg(ctx, "embedding_dim"));
        if (hasArg(ctx, "padding_idx")) options.padding_idx(intArg(ctx, "padding_idx"));
        return wrapUnary(torch::nn::Embedding(options));
    };
}

} // namespace diamond::engine::layers
