// The device rule (compute_device.h), the compatibility header's autocast switches (torch_compat.h, precision.h), the
// fp16 loss scaler, and collectives that refuse a tensor on another device than their process group's.
#include "compute_device.h"
#include "distributed.h"
#include "engine_error.h"
#include "precision.h"
#include "torch_compat.h"

#include <QTemporaryDir>
#include <QtTest>

#include <future>

using namespace diamond::engine;

namespace {
DeviceSupport gpus(int count) { return DeviceSupport{true, count, "2.5.1"}; }

/// The EngineError's message of `f`, or "" when it did not throw one.
template <typename F> QString errorOf(F &&f) {
    try {
        f();
    } catch (const EngineError &e) {
        return QString::fromStdString(e.field() + ": " + e.what());
    }
    return {};
}
} // namespace

class TestComputeDevice : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void eachLocalRankTakesItsOwnGpu() {
        QCOMPARE(chooseDevice("cpu", 3, DeviceSupport{}), std::string("cpu"));
        for (int localRank = 0; localRank < 4; ++localRank)
            QCOMPARE(chooseDevice("cuda", localRank, gpus(4)), "cuda:" + std::to_string(localRank));
        // A scheduler that binds one GPU per task: every rank sees its own GPU as cuda:0.
        QCOMPARE(chooseDevice("cuda", 3, gpus(1)), std::string("cuda:0"));
        // An explicit index is kept on every rank.
        QCOMPARE(chooseDevice("cuda:2", 0, gpus(4)), std::string("cuda:2"));
    }

    void impossibleDevicesNameWhatThisBuildSupports() {
        const QString noCuda = errorOf([] { chooseDevice("cuda", 0, DeviceSupport{false, 0, "1.13.0"}); });
        QVERIFY2(noCuda.startsWith(QStringLiteral("device: device 'cuda'")), qPrintable(noCuda));
        QVERIFY2(noCuda.contains(QStringLiteral("cpu only (libtorch 1.13.0 without CUDA)")), qPrintable(noCuda));
        const QString noGpu = errorOf([] { chooseDevice("cuda", 0, gpus(0)); });
        QVERIFY2(noGpu.contains(QStringLiteral("sees no GPU")), qPrintable(noGpu));
        const QString tooFew = errorOf([] { chooseDevice("cuda", 3, gpus(2)); });
        QVERIFY2(tooFew.contains(QStringLiteral("local rank 3 needs cuda:3")) &&
                     tooFew.contains(QStringLiteral("sees 2 GPUs")),
                 qPrintable(tooFew));
        QVERIFY(errorOf([] { chooseDevice("cuda:4", 0, gpus(4)); }).contains(QStringLiteral("cuda:4")));
        for (const char *bad : {"cuda:", "cuda:-1", "cuda:x", "gpu", "cuda:99999999999"})
            QVERIFY2(!errorOf([bad] { chooseDevice(bad, 0, gpus(2)); }).isEmpty(), bad);
    }

    void thisBuildReportsItself() {
        const DeviceSupport here = deviceSupport();
        QCOMPARE(here.torchVersion, std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) +
                                        "." + std::to_string(TORCH_VERSION_PATCH));
        QCOMPARE(here.cudaBuilt, compat::kCudaBuilt);
        if (!here.cudaBuilt) QCOMPARE(here.cudaDevices, 0);
    }

    void autocastScopeSwitchesOnAndRestores() {
        const torch::Device cpu(torch::kCPU);
        QVERIFY(!compat::autocastEnabled(c10::DeviceType::CPU));
        const torch::Tensor a = torch::randn({8, 16}), b = torch::randn({16, 4});
        {
            AutocastScope scope("bf16", cpu);
            QVERIFY(compat::autocastEnabled(c10::DeviceType::CPU));
            QCOMPARE(compat::autocastDtype(c10::DeviceType::CPU), at::kBFloat16);
            QCOMPARE(torch::mm(a, b).scalar_type(), at::kBFloat16); // a matmul runs in bfloat16
        }
        QVERIFY(!compat::autocastEnabled(c10::DeviceType::CPU));
        QCOMPARE(torch::mm(a, b).scalar_type(), at::kFloat);
        {
            AutocastScope scope("fp32", cpu);
            QVERIFY(!compat::autocastEnabled(c10::DeviceType::CPU));
        }
        QVERIFY(errorOf([&] { checkPrecision("fp16", cpu); }).startsWith(QStringLiteral("precision: ")));
        QVERIFY(errorOf([&] { checkPrecision("bf16", cpu); }).isEmpty());
    }

    void lossScalerSkipsOverflowsAndGrows() {
        LossScaler scaler(true, 1024.0, 3);
        QCOMPARE(scaler.scaled(torch::tensor(2.0)).item<double>(), 2048.0);
        torch::Tensor grads = torch::full({4}, 1024.0);
        QVERIFY(scaler.unscaleAndUpdate(grads));
        QCOMPARE(grads[0].item<double>(), 1.0); // unscaled in place
        grads = torch::tensor({1.0, std::numeric_limits<double>::infinity()});
        QVERIFY(!scaler.unscaleAndUpdate(grads));
        QCOMPARE(scaler.scale(), 512.0);
        QCOMPARE(scaler.skippedSteps(), std::int64_t(1));
        for (int i = 0; i < 3; ++i) {
            grads = torch::ones({2});
            QVERIFY(scaler.unscaleAndUpdate(grads));
        }
        QCOMPARE(scaler.scale(), 1024.0); // 3 good steps in a row double it
        // From a checkpoint: scale and good steps go on; values no scaler reaches are refused and change nothing.
        QVERIFY(scaler.restore(4096.0, 2));
        QCOMPARE(scaler.scale(), 4096.0);
        QCOMPARE(scaler.goodSteps(), std::int64_t(2));
        grads = torch::ones({2});
        QVERIFY(scaler.unscaleAndUpdate(grads));
        QCOMPARE(scaler.scale(), 8192.0); // the third good step in a row
        for (const double bad :
             {0.0, 0.5, -2.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(), 1e300})
            QVERIFY(!scaler.restore(bad, 0));
        QVERIFY(!scaler.restore(1024.0, -1));
        QCOMPARE(scaler.scale(), 8192.0);
        QVERIFY(scaler.restore(1024.0, 1000)); // more good steps than the interval: the next one doubles it
        grads = torch::ones({2});
        QVERIFY(scaler.unscaleAndUpdate(grads));
        QCOMPARE(scaler.scale(), 2048.0);
        LossScaler off(false);
        grads = torch::tensor({std::numeric_limits<double>::quiet_NaN()});
        QVERIFY(off.unscaleAndUpdate(grads)); // fp32 and bf16: nothing checked, nothing skipped
        QCOMPARE(off.scaled(torch::tensor(2.0)).item<double>(), 2.0);
    }

    void collectivesRefuseTensorsOnAnotherDevice() {
        // Two ranks in this process (threads), Gloo on the CPU, rendezvous through a file store.
        QTemporaryDir dir;
        const std::string store = dir.filePath(QStringLiteral("store")).toStdString();
        auto rank = [&](int r) -> QString {
            Rendezvous rv;
            rv.rank = r;
            rv.world = 2;
            rv.localRank = r;
            rv.fileStore = store;
            std::unique_ptr<Communicator> comm = diamond::engine::connect(rv, std::chrono::seconds(30), "cpu");
            if (comm->device() != torch::Device(torch::kCPU))
                return QStringLiteral("device %1").arg(QString::fromStdString(comm->device().str()));
            torch::Tensor elsewhere = torch::ones({4}, torch::TensorOptions().device(torch::kMeta));
            const QString refused = errorOf([&] { comm->allReduceSum(elsewhere); });
            const QString refusedBroadcast = errorOf([&] { comm->broadcast(elsewhere); });
            torch::Tensor here = torch::full({4}, double(r + 1));
            comm->allReduceSum(here);
            return refused + QStringLiteral(" | ") + refusedBroadcast +
                   QStringLiteral(" | sum %1").arg(here[0].item<double>());
        };
        auto one = std::async(std::launch::async, rank, 1);
        const QString zero = rank(0);
        const QString other = one.get();
        for (const QString &text : {zero, other}) {
            QVERIFY2(
                text.contains(QStringLiteral("a tensor on meta for an all-reduce, but its process group runs on cpu")),
                qPrintable(text));
            QVERIFY2(text.contains(QStringLiteral("for a broadcast")), qPrintable(text));
            QVERIFY2(text.endsWith(QStringLiteral("sum 3")), qPrintable(text)); // the group still works
        }
    }
};

QTEST_APPLESS_MAIN(TestComputeDevice)
#include "tst_compute_device.moc"
