// The flat-buffer optimizers follow torch.optim's update rules (checked against libtorch's own
// torch::optim implementations), gradients accumulate into the flat views, and the learning
// rate schedules follow their definitions. Channels-last parameters keep their layout in the flat
// buffer, and the canonical (row-major) order that checkpoints store converts both ways.
#include "model/network.h"
#include "optimizer.h"
#include "torch_compat.h"

#include "diamond/spec/spec.h"

#include <QtTest>

using namespace diamond;
using namespace diamond::engine;

namespace {

std::vector<torch::Tensor> makeParams() {
    torch::manual_seed(3);
    return {torch::randn({4, 3}, torch::requires_grad()), torch::randn({3}, torch::requires_grad()),
            torch::randn({2, 2, 2}, torch::requires_grad())};
}

std::vector<torch::Tensor> cloneParams(const std::vector<torch::Tensor> &ps) {
    std::vector<torch::Tensor> out;
    for (const auto &p : ps)
        out.push_back(p.detach().clone().requires_grad_(true));
    return out;
}

torch::Tensor lossOf(const std::vector<torch::Tensor> &ps, int step) {
    torch::Tensor l = torch::zeros({});
    for (std::size_t i = 0; i < ps.size(); ++i)
        l = l + (ps[i] * (1.0 + 0.1 * step + i)).sin().sum() + ps[i].pow(2).sum();
    return l;
}

/// Runs 6 steps with ours and with torch::optim; returns the max abs difference of the params.
double compare(const OptimizerConfig &config, std::unique_ptr<torch::optim::Optimizer> reference,
               std::vector<torch::Tensor> refParams, std::vector<torch::Tensor> ours) {
    FlatParameters flat(ours);
    auto optimizer = makeOptimizer(config, flat.numel(), flat.values().options());
    for (int step = 0; step < 6; ++step) {
        reference->zero_grad();
        lossOf(refParams, step).backward();
        reference->step();
        flat.zeroGrad();
        lossOf(ours, step).backward();
        optimizer->step(flat, config.lr);
    }
    double diff = 0;
    for (std::size_t i = 0; i < ours.size(); ++i)
        diff = std::max(diff, (ours[i] - refParams[i]).abs().max().item<double>());
    return diff;
}

/// Linear(6,16) -> ReLU -> LayerNorm -> Linear(16,3): Linear parameters and others.
std::unique_ptr<Network> fusionNetwork() {
    const nlohmann::json doc = {
        {"format", "diamond.spec/1"},
        {"inputs", {{{"name", "x"}, {"shape", {"N", 6}}}}},
        {"nodes",
         {{{"id", "fc1"}, {"type", "Linear"}, {"params", {{"out_features", 16}}}, {"inputs", {"x"}}},
          {{"id", "act"}, {"type", "ReLU"}, {"inputs", {"fc1"}}},
          {{"id", "norm"}, {"type", "LayerNorm"}, {"inputs", {"act"}}},
          {{"id", "fc2"}, {"type", "Linear"}, {"params", {{"out_features", 3}}}, {"inputs", {"norm"}}}}},
        {"outputs", {{{"name", "y"}, {"from", "fc2"}}}}};
    torch::manual_seed(11);
    return Network::build(spec::parseSpecJson(doc).spec);
}

} // namespace

class TestOptimizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void gradientsAccumulateIntoFlatViews() {
        auto ps = makeParams();
        FlatParameters flat(ps);
        QCOMPARE(flat.numel(), std::int64_t(12 + 3 + 8));
        lossOf(ps, 0).backward();
        lossOf(ps, 0).backward(); // accumulates
        QVERIFY(flat.grads().abs().sum().item<double>() > 0);
        QCOMPARE(ps[1].grad().data_ptr<float>(), flat.grads().data_ptr<float>() + 12);
        auto single = makeParams();
        lossOf(single, 0).backward();
        QVERIFY(torch::allclose(ps[2].grad(), 2 * single[2].grad()));
        // Parameters are views into the flat values.
        flat.values().zero_();
        QCOMPARE(ps[0].abs().sum().item<double>(), 0.0);
    }

    void channelsLastParametersKeepTheirLayout() {
        torch::manual_seed(5);
        const auto cl = torch::MemoryFormat::ChannelsLast;
        std::vector<torch::Tensor> ps{
            torch::randn({6, 3, 3, 3}).contiguous(cl).requires_grad_(true),
            torch::randn({4, 1, 3, 3}).contiguous(cl).requires_grad_(true), // also "contiguous"
            torch::randn({6}, torch::requires_grad())};
        std::vector<torch::Tensor> before;
        for (const auto &p : ps)
            before.push_back(p.detach().clone());
        FlatParameters flat(ps);
        QVERIFY(ps[0].is_contiguous(cl) && !ps[0].is_contiguous());
        QCOMPARE(ps[1].strides().vec(), before[1].strides().vec());
        for (std::size_t i = 0; i < ps.size(); ++i)
            QVERIFY(torch::equal(ps[i], before[i]));

        const torch::Tensor rowMajor =
            torch::cat({before[0].contiguous().view(-1), before[1].contiguous().view(-1), before[2].view(-1)});
        QVERIFY(!torch::equal(flat.values(), rowMajor)); // the buffer holds the physical order
        QVERIFY(torch::equal(flat.toCanonical(flat.values()), rowMajor));
        QVERIFY(torch::equal(flat.fromCanonical(rowMajor), flat.values()));

        ((ps[0] * ps[0]).sum() + (3 * ps[1]).sum() + ps[2].sum()).backward();
        QCOMPARE(ps[0].grad().data_ptr<float>(), flat.grads().data_ptr<float>()); // still a view of the buffer
        const torch::Tensor expected =
            torch::cat({(2 * before[0]).contiguous().view(-1), torch::full({36}, 3.0F), torch::ones({6})});
        QVERIFY(torch::allclose(flat.toCanonical(flat.grads()), expected));
    }

    void sgdMatchesTorch() {
        OptimizerConfig c;
        c.name = "sgd";
        c.lr = 0.05;
        auto ref = makeParams();
        QVERIFY(compare(c, std::make_unique<torch::optim::SGD>(ref, torch::optim::SGDOptions(c.lr)), ref,
                        cloneParams(ref)) < 1e-6);
        c.momentum = 0.9;
        c.weightDecay = 0.01;
        ref = makeParams();
        QVERIFY(compare(c,
                        std::make_unique<torch::optim::SGD>(
                            ref, torch::optim::SGDOptions(c.lr).momentum(0.9).weight_decay(0.01)),
                        ref, cloneParams(ref)) < 1e-6);
        c.nesterov = true;
        ref = makeParams();
        QVERIFY(compare(c,
                        std::make_unique<torch::optim::SGD>(
                            ref, torch::optim::SGDOptions(c.lr).momentum(0.9).weight_decay(0.01).nesterov(true)),
                        ref, cloneParams(ref)) < 1e-6);
    }

    void sgdMomentumFusedIntoLinearProductsMatchesTorch_data() {
        QTest::addColumn<bool>("finishInBackward");
        QTest::newRow("step finishes") << false;
        QTest::newRow("product finishes") << true;
    }

    /// Momentum fusion: the Linear products write `momentum * buffer + gradient` into SGD's buffer,
    /// and the step (or, right after each product, finishPart) completes the update; the result
    /// must equal torch::optim::SGD's (with weight decay).
    void sgdMomentumFusedIntoLinearProductsMatchesTorch() {
        QFETCH(bool, finishInBackward);
        if (!layers::linearWeightGradsInPlaceAvailable()) QSKIP("built without oneDNN");
        OptimizerConfig c;
        c.name = "sgd";
        c.lr = 0.05;
        c.momentum = 0.9;
        c.weightDecay = 0.01;
        auto reference = fusionNetwork();
        auto fused = fusionNetwork();
        std::vector<torch::Tensor> refParams = reference->parameters();
        torch::optim::SGD refOptimizer(refParams, torch::optim::SGDOptions(c.lr).momentum(0.9).weight_decay(0.01));

        FlatParameters flat(fused->parameters());
        auto optimizer = makeOptimizer(c, flat.numel(), flat.values().options());
        const torch::Tensor momentum = optimizer->fusableMomentum();
        QVERIFY(momentum.defined());
        const std::vector<torch::Tensor> params = fused->parameters();
        const std::vector<bool> isLinear = fused->parametersOfNodeType("Linear");
        QCOMPARE(std::count(isLinear.begin(), isLinear.end(), true), 4L);
        layers::setLinearWeightGradsInPlace(true);
        std::unordered_map<const void *, torch::Tensor> targets;
        std::map<const void *, std::size_t> index;
        for (std::size_t i = 0; i < params.size(); ++i) {
            if (!isLinear[i]) continue;
            targets[params[i].data_ptr()] = flat.viewOf(momentum, i);
            index[flat.viewOf(momentum, i).data_ptr()] = i;
        }
        layers::redirectLinearGradients(targets);
        std::vector<bool> finished(params.size(), false);
        const double lr = c.lr;
        if (finishInBackward) {
            layers::setLinearGradientFinisher([&](const torch::Tensor &buffer) {
                const std::size_t i = index.at(buffer.data_ptr());
                QVERIFY(!finished[i]);
                optimizer->finishPart(flat, lr, i);
                finished[i] = true;
            });
        }

        for (int step = 0; step < 8; ++step) {
            const torch::Tensor x = torch::randn({10, 6});
            const torch::Tensor y = torch::randint(0, 3, {10});
            refOptimizer.zero_grad();
            torch::nn::functional::cross_entropy(reference->forward({x}).front(), y).backward();
            refOptimizer.step();

            QCOMPARE(optimizer->fusableMomentumBeta(), step == 0 ? 0.0F : 0.9F);
            const std::uint64_t id = layers::beginLinearGradientStep(optimizer->fusableMomentumBeta());
            flat.zeroGrad(isLinear);
            torch::nn::functional::cross_entropy(fused->forward({x}).front(), y).backward();
            std::vector<Optimizer::Part> parts(params.size(), Optimizer::Part::Gradient);
            for (std::size_t i = 0; i < params.size(); ++i) {
                if (!isLinear[i]) continue;
                QVERIFY(layers::linearGradientWritten(flat.viewOf(momentum, i), id));
                QVERIFY(!layers::linearGradientWritten(params[i].grad(), id)); // .grad untouched
                QCOMPARE(bool(finished[i]), finishInBackward);
                parts[i] = finished[i] ? Optimizer::Part::Updated : Optimizer::Part::MomentumUpdated;
                finished[i] = false;
            }
            optimizer->stepFused(flat, c.lr, parts);
        }
        layers::setLinearWeightGradsInPlace(false);
        for (std::size_t i = 0; i < params.size(); ++i)
            QVERIFY2(torch::allclose(params[i], refParams[i], 1e-5, 1e-6), std::to_string(i).c_str());
        // The state checkpoints store is torch.optim's momentum_buffer.
        for (std::size_t i = 0; i < params.size(); ++i) {
            const auto &state = static_cast<const torch::optim::SGDParamState &>(
                *refOptimizer.state().at(compat::optimizerStateKey(refParams[i])));
            QVERIFY(torch::allclose(flat.viewOf(momentum, i), state.momentum_buffer(), 1e-5, 1e-6));
        }
    }

    void nesterovMomentumIsNotFusable() {
        OptimizerConfig c;
        c.name = "sgd";
        c.momentum = 0.9;
        c.nesterov = true;
        auto ps = makeParams();
        FlatParameters flat(ps);
        auto optimizer = makeOptimizer(c, flat.numel(), flat.values().options());
        QVERIFY(!optimizer->fusableMomentum().defined());
        c.nesterov = false;
        QVERIFY(makeOptimizer(c, flat.numel(), flat.values().options())->fusableMomentum().defined());
        c.name = "adam";
        auto adam = makeOptimizer(c, flat.numel(), flat.values().options());
        QVERIFY(!adam->fusableMomentum().defined());
        QVERIFY_THROWS_EXCEPTION(
            std::exception,
            adam->stepFused(flat, 0.1,
                            {Optimizer::Part::MomentumUpdated, Optimizer::Part::Gradient, Optimizer::Part::Gradient}));
        QVERIFY_THROWS_EXCEPTION(std::exception, adam->finishPart(flat, 0.1, 0));
    }

    void adamMatchesTorch() {
        OptimizerConfig c;
        c.name = "adam";
        c.lr = 0.01;
        c.weightDecay = 0.001;
        auto ref = makeParams();
        const double d = compare(
            c, std::make_unique<torch::optim::Adam>(ref, torch::optim::AdamOptions(c.lr).weight_decay(c.weightDecay)),
            ref, cloneParams(ref));
        qInfo("adam max |diff| %.3g", d);
        QVERIFY(d < 1e-6);
    }

    void adamwMatchesTorch() {
        OptimizerConfig c;
        c.name = "adamw";
        c.lr = 0.01;
        c.weightDecay = 0.05;
        auto ref = makeParams();
        QVERIFY(compare(c,
                        std::make_unique<torch::optim::AdamW>(ref, torch::optim::AdamWOptions(c.lr).weight_decay(0.05)),
                        ref, cloneParams(ref)) < 1e-6);
    }

    void rmspropMatchesTorch() {
        OptimizerConfig c;
        c.name = "rmsprop";
        c.lr = 0.01;
        auto ref = makeParams();
        QVERIFY(compare(c, std::make_unique<torch::optim::RMSprop>(ref, torch::optim::RMSpropOptions(c.lr)), ref,
                        cloneParams(ref)) < 1e-6);
        c.momentum = 0.5;
        ref = makeParams();
        QVERIFY(compare(c,
                        std::make_unique<torch::optim::RMSprop>(ref, torch::optim::RMSpropOptions(c.lr).momentum(0.5)),
                        ref, cloneParams(ref)) < 1e-6);
    }

    void stateRoundTrips() {
        OptimizerConfig c;
        c.name = "adam";
        auto ps = makeParams();
        FlatParameters flat(ps);
        auto a = makeOptimizer(c, flat.numel(), flat.values().options());
        lossOf(ps, 0).backward();
        a->step(flat, 0.01);
        auto b = makeOptimizer(c, flat.numel(), flat.values().options());
        b->loadState(a->state());
        QCOMPARE(b->state().at("step").item<std::int64_t>(), std::int64_t(1));
        QVERIFY(torch::equal(b->state().at("exp_avg_sq"), a->state().at("exp_avg_sq")));
    }

    void schedules() {
        ScheduleConfig s;
        QCOMPARE(scheduledLearningRate(s, 0.1, 50, 100), 0.1);
        s.name = "step";
        s.stepSize = 10;
        s.gamma = 0.5;
        QCOMPARE(scheduledLearningRate(s, 0.1, 25, 100), 0.025);
        s.name = "cosine";
        s.minLr = 0.0;
        QCOMPARE(scheduledLearningRate(s, 0.1, 0, 100), 0.1);
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 50, 100) - 0.05) < 1e-12);
        QVERIFY(scheduledLearningRate(s, 0.1, 100, 100) < 1e-12);
        s.name = "warmup";
        s.warmupSteps = 10;
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 0, 100) - 0.01) < 1e-12);
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 4, 100) - 0.05) < 1e-12);
        QCOMPARE(scheduledLearningRate(s, 0.1, 10, 100), 0.1);
        s = ScheduleConfig();
        s.name = "one_cycle";
        // torch.optim.lr_scheduler.OneCycleLR(max_lr=0.1, total_steps=100) in torch 1.13: lrs at steps 0, 29, 50, 99.
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 0, 100) - 0.004) < 1e-9);
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 29, 100) - 0.1) < 1e-9);
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 50, 100) - 0.0793893450575732) < 1e-6);
        QVERIFY(std::abs(scheduledLearningRate(s, 0.1, 99, 100) - 4e-7) < 1e-9);
    }
};

QTEST_APPLESS_MAIN(TestOptimizer)
#include "tst_optimizer.moc"
