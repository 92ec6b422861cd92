#include "app/run/engine_plan.h"

#include "remote/engine_command.h"

#include "app/run/executor.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>

namespace diamond::app {

namespace {

bool writeJson(const QString &path, const QJsonObject &doc) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(QJsonDocument(doc).toJson()) > 0;
}

} // namespace

QString describeEngineError(const QJsonObject &event) {
    QString text = event.value(QStringLiteral("message")).toString();
    const QString node = event.value(QStringLiteral("node")).toString();
    const QString field = event.value(QStringLiteral("field")).toString();
    if (!node.isEmpty()) text += EnginePlanJob::tr(" (node '%1')").arg(node);
    if (!field.isEmpty()) text += EnginePlanJob::tr(" (field '%1')").arg(field);
    const QString hint = event.value(QStringLiteral("hint")).toString();
    if (!hint.isEmpty()) text += QStringLiteral(" — ") + hint;
    return text;
}

EnginePlanJob::EnginePlanJob(QObject *parent) : QObject(parent), enginePath_(LocalExecutor::defaultEnginePath()) {}

EnginePlanJob::~EnginePlanJob() {
    if (process_) {
        process_->disconnect(this);
        process_->kill();
        process_->waitForFinished(2000);
    }
}

bool EnginePlanJob::isRunning() const { return process_ && process_->state() != QProcess::NotRunning; }

void EnginePlanJob::cancel() {
    if (!process_) return;
    process_->disconnect(this);
    process_->kill();
    process_->waitForFinished(2000);
    process_->deleteLater();
    process_ = nullptr;
}

void EnginePlanJob::start(const QJsonObject &spec, const QJsonObject &config, int threads, const QString &dataPath) {
    cancel();
    dir_ = std::make_unique<QTemporaryDir>();
    const QDir dir(dir_->path());
    // The dry run measures shapes, data and memory on this computer's CPU: a GPU run's fp16 (GPU only) becomes fp32
    // here, and --device cpu below.
    QJsonObject here = config;
    if (here.value(QStringLiteral("precision")).toString() == QLatin1String("fp16"))
        here.remove(QStringLiteral("precision"));
    if (!dir_->isValid() || !writeJson(dir.filePath(QStringLiteral("spec.json")), spec) ||
        !writeJson(dir.filePath(QStringLiteral("run.json")), here)) {
        Q_EMIT failed(tr("Cannot write the files for the dry run in %1.").arg(dir_->path()), {});
        return;
    }
    process_ = new QProcess(this);
    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::DryRun;
    command.specPath = dir.filePath(QStringLiteral("spec.json"));
    command.configPath = dir.filePath(QStringLiteral("run.json"));
    command.runDir = dir.filePath(QStringLiteral("run"));
    command.threads = threads;
    command.dataPath = dataPath;
    command.device = QStringLiteral("cpu");
    const QStringList args = command.arguments();
    connect(process_, &QProcess::finished, this, &EnginePlanJob::onFinished);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart) return;
        Q_EMIT failed(tr("Cannot start the engine %1: %2").arg(enginePath_, process_->errorString()), {});
    });
    process_->start(enginePath_, args);
}

void EnginePlanJob::onFinished() {
    const QByteArray out = process_->readAllStandardOutput();
    const QByteArray err = process_->readAllStandardError();
    QJsonObject plan, error;
    for (const QByteArray &line : out.split('\n')) {
        const QJsonObject e = QJsonDocument::fromJson(line).object();
        const QString kind = e.value(QStringLiteral("event")).toString();
        if (kind == QLatin1String("plan"))
            plan = e;
        else if (kind == QLatin1String("error"))
            error = e;
    }
    if (!plan.isEmpty() && process_->exitCode() == 0)
        Q_EMIT planReady(plan);
    else if (!error.isEmpty())
        Q_EMIT failed(describeEngineError(error), error);
    else
        Q_EMIT failed(tr("The engine's dry run ended with exit code %1: %2")
                          .arg(process_->exitCode())
                          .arg(QString::fromUtf8(err.right(400)).trimmed()),
                      {});
}

} // namespace diamond::app
