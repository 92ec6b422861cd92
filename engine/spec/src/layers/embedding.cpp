// Embedding: a lookup table from integer ids to float32 vectors; appends embedding_dim.
#include "layers/layer_util.h"

namespace diamond::spec::layers {

namespace {

void embeddingRule(const LayerContext &ctx, LayerResult &res) {
    const TensorType &in = ctx.inputs[0];
    if (in.dtype != DType::Int64 && in.dtype != DType::Int32) {
        res.fail(ctx, "dtype.invalid",
                 who(ctx) + " looks up integer ids, but " + from(ctx) + " gives " + dtypeName(in.dtype) + " " +
                     formatShape(in.shape) + ".",
                 "Declare the token input with dtype int64.");
        return;
    }
    const std::int64_t num = intParam(ctx, "num_embeddings", 1);
    const std::int64_t dim = intParam(ctx, "embedding_dim", 1);
    if (!isNull(ctx, "padding_idx")) {
        const std::int64_t pad = intParam(ctx, "padding_idx");
        if (pad < -num || pad >= num) {
            res.fail(ctx, "param.invalid",
                     who(ctx) + ": padding_idx " + std::to_string(pad) + " is outside the table of " +
                         std::to_string(num) + " embeddings.",
                     "Use an id from 0 to " + std::to_string(num - 1) + " (or negative from the end).", "padding_idx");
            return;
        }
    }
    if (!setCounts(ctx, res, Count(num) * dim, 0, 0)) return;
    TensorType out;
    out.shape = in.shape;
    out.shape.push_back(dim);
    out.dtype = DType::Float32;
    res.outputs = {std::move(out)};
}

} // namespace

void registerEmbedding(Registry &r) {
    r.add(makeType(
        "Embedding", "Embedding", "Maps integer ids [N,*] to learned vectors [N,*,embedding_dim].",
        {
            P("num_embeddings", ParamKind::Int, nullptr, "Size of the vocabulary (number of ids)").min(1),
            P("embedding_dim", ParamKind::Int, nullptr, "Length of each embedding vector").min(1),
            P("padding_idx", ParamKind::Int, nullptr, "Id whose vector stays zero and gets no gradient").optional(),
        },
        embeddingRule));
}

} // namespace diamond::spec::layers
