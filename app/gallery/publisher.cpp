// GalleryStore::publishRun: a package from a finished run (docs/model-package.md, "Publishing").
#include "gallery_store.h"

#include "app/data/dataset_store.h"
#include "app/run/run_store.h"
#include "app/workspace/app_info.h"
#include "model_package.h"
#include "package_signature.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"
#include "remote/engine_command.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>
#include <QVariant>

namespace diamond::app::gallery {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::gallery", text); }

QByteArray readAll(const QString &path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonArray shapeJson(const spec::Shape &shape) {
    QJsonArray a;
    for (auto d : shape)
        a.append(d == spec::kBatch ? QJsonValue(QStringLiteral("N")) : QJsonValue(static_cast<qint64>(d)));
    return a;
}

QJsonArray axesJson(const std::vector<std::string> &axes, std::size_t rank) {
    QJsonArray a;
    for (std::size_t i = 0; i < rank; ++i)
        a.append(i < axes.size() ? QString::fromStdString(axes[i])
                                 : (i == 0 ? QStringLiteral("batch") : QStringLiteral("dim%1").arg(i)));
    return a;
}

/// Inputs and outputs of the spec with shapes ("N" = batch) and axis names.
void describeInterface(const QByteArray &specJson, QJsonArray *inputs, QJsonArray *outputs) {
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specJson.constData(), specJson.size()));
    if (!parsed.ok()) return;
    const spec::Analysis analysis = spec::analyze(parsed.spec);
    for (const auto &in : parsed.spec.inputs)
        inputs->append(QJsonObject{{QStringLiteral("name"), QString::fromStdString(in.name)},
                                   {QStringLiteral("dtype"), QString::fromStdString(spec::dtypeName(in.dtype))},
                                   {QStringLiteral("shape"), shapeJson(in.shape)},
                                   {QStringLiteral("axes"), axesJson(in.axes, in.shape.size())}});
    for (const auto &out : parsed.spec.outputs) {
        QJsonObject o{{QStringLiteral("name"), QString::fromStdString(out.name)},
                      {QStringLiteral("from"), QString::fromStdString(out.from.toString())}};
        if (const spec::TensorType *t = analysis.portType(out.from)) {
            o.insert(QStringLiteral("dtype"), QString::fromStdString(spec::dtypeName(t->dtype)));
            o.insert(QStringLiteral("shape"), shapeJson(t->shape));
            o.insert(QStringLiteral("axes"), axesJson(t->axes, t->shape.size()));
        }
        outputs->append(o);
    }
}

/// The run's `started` event (device, threads, engine version), empty when none was stored.
QJsonObject startedEvent(Workspace &ws, qint64 runId) {
    QSqlQuery q(ws.database());
    q.prepare(
        QStringLiteral("SELECT json FROM events WHERE run_id = ? AND kind = 'started' ORDER BY offset DESC LIMIT 1"));
    q.addBindValue(runId);
    return q.exec() && q.next() ? QJsonDocument::fromJson(q.value(0).toString().toUtf8()).object() : QJsonObject();
}

/// Preferred metric for ranking: validation accuracy, else accuracy, else validation loss, else loss.
QJsonObject keyMetric(const QJsonObject &metrics) {
    for (const char *name : {"val_accuracy", "accuracy", "val_loss", "loss"}) {
        const QJsonValue v = metrics.value(QLatin1String(name));
        if (v.isDouble())
            return {
                {QStringLiteral("name"), QLatin1String(name)},
                {QStringLiteral("value"), v},
                {QStringLiteral("higher_is_better"), QString::fromLatin1(name).contains(QLatin1String("accuracy"))}};
    }
    return {};
}

QString defaultCard(const Run &run, const QString &title, const QJsonObject &metrics, const QJsonObject &config,
                    const QJsonArray &inputs, const QJsonArray &outputs, const QString &projectName) {
    QString card = QStringLiteral("# %1\n\n").arg(title);
    card += tr("Trained in Diamond (project \"%1\", run %2 \"%3\"), finished %4.\n\n")
                .arg(projectName)
                .arg(run.id)
                .arg(run.name, run.finishedAt);
    auto heading = [](const QString &text) -> QString { return QStringLiteral("## ") + text + QStringLiteral("\n\n"); };
    auto port = [](const QString &kind, const QJsonValue &v) -> QString {
        const QJsonObject o = v.toObject();
        return QStringLiteral("- ") +
               tr("%1 `%2`: %3, shape %4")
                   .arg(kind, o.value(QStringLiteral("name")).toString(), o.value(QStringLiteral("dtype")).toString(),
                        QString::fromUtf8(
                            QJsonDocument(o.value(QStringLiteral("shape")).toArray()).toJson(QJsonDocument::Compact))) +
               QLatin1Char('\n');
    };
    card += heading(tr("Interface"));
    for (const QJsonValue &v : inputs)
        card += port(tr("Input"), v);
    for (const QJsonValue &v : outputs)
        card += port(tr("Output"), v);
    card += QLatin1Char('\n') + heading(tr("Metrics"));
    for (auto it = metrics.begin(); it != metrics.end(); ++it)
        card += QStringLiteral("- %1: %2\n").arg(it.key()).arg(it.value().toDouble(), 0, 'g', 6);
    card += QLatin1Char('\n') + heading(tr("Training")) +
            QStringLiteral("```json\n%1```\n").arg(QString::fromUtf8(QJsonDocument(config).toJson()));
    return card;
}

/// The data section with every file option (path, inputs, targets, images, labels) reduced to its file name.
QJsonObject withoutDataPaths(QJsonObject data) {
    for (const char *key : {"path", "inputs", "targets", "images", "labels"})
        if (data.value(QLatin1String(key)).isString())
            data.insert(QLatin1String(key), QFileInfo(data.value(QLatin1String(key)).toString()).fileName());
    return data;
}

/// A registered dataset of at most kShipDatasetBytes in at most kShipDatasetChunks one-chunk files travels in the
/// package: its chunks as "dataset-<sha256>" entries and its content manifest in dataset.registered.manifest.
void shipSmallDataset(Workspace &ws, const Run &run, QJsonObject *manifest, QMap<QString, QByteArray> *files) {
    QJsonObject dataset = manifest->value(QStringLiteral("dataset")).toObject();
    QJsonObject registered = dataset.value(QStringLiteral("registered")).toObject();
    if (registered.isEmpty() || run.datasetVersionId <= 0) return;
    DatasetStore datasets(ws);
    const auto v = datasets.versionById(run.datasetVersionId);
    if (!v || v->sizeBytes > kShipDatasetBytes || v->manifest.distinctChunks().size() > kShipDatasetChunks) return;
    QMap<QString, QByteArray> chunks;
    for (const auto &[sha, size] : v->manifest.distinctChunks()) {
        QString error;
        const QByteArray data = datasets.chunks().readChunk(sha, size, &error);
        if (data.size() != size) return; // damaged or missing: referenced only
        chunks.insert(QStringLiteral("dataset-") + QString::fromLatin1(sha), data);
    }
    for (const ManifestFile &f : v->manifest.files)
        if (f.chunks.size() != 1) return;
    files->insert(chunks);
    registered.insert(QStringLiteral("manifest"), v->manifest.toJson());
    registered.insert(QStringLiteral("shipped"), true);
    dataset.insert(QStringLiteral("registered"), registered);
    manifest->insert(QStringLiteral("dataset"), dataset);
}

/// The manifest of a package of `run` (see GalleryStore::previewManifest()). `exportManifest` is the engine's
/// export manifest (empty for a preview).
QJsonObject buildManifest(Workspace &ws, const Run &run, const PublishOptions &opt, const QByteArray &specJson,
                          const QJsonObject &exportManifest) {
    RunStore runs(ws);
    QJsonArray inputs, outputs;
    describeInterface(specJson, &inputs, &outputs);
    const QJsonObject specObject = QJsonDocument::fromJson(specJson).object();
    QString projectName;
    for (const auto &p : runs.projects())
        if (p.id == run.projectId) projectName = p.name;
    const QString specName = specObject.value(QStringLiteral("name")).toString();
    const QString name = !opt.name.isEmpty() ? opt.name : !specName.isEmpty() ? specName : run.name;
    const QString title = !opt.title.isEmpty() ? opt.title : name;
    const QJsonObject data = run.config.value(QStringLiteral("data")).toObject();
    // Private details (where the data lies on this computer, which computer) stay out unless asked for.
    QJsonObject training = run.config;
    const QJsonObject sharedData = opt.includePrivateDetails ? data : withoutDataPaths(data);
    if (training.contains(QStringLiteral("data"))) training.insert(QStringLiteral("data"), sharedData);
    const QJsonObject started = startedEvent(ws, run.id);
    const QDateTime t0 = QDateTime::fromString(run.startedAt, Qt::ISODateWithMs);
    const QDateTime t1 = QDateTime::fromString(run.finishedAt, Qt::ISODateWithMs);
    const double hours = t0.isValid() && t1.isValid() ? t0.msecsTo(t1) / 3.6e6 : 0.0;
    QJsonObject dataset{
        {QStringLiteral("reference"),
         sharedData.value(QStringLiteral("path")).toString(data.value(QStringLiteral("source")).toString())},
        {QStringLiteral("config"), sharedData}};
    const QString dataPath = data.value(QStringLiteral("path")).toString();
    const QString dataHash = dataPath.isEmpty() ? QString() : fileSha256(dataPath);
    dataset.insert(
        QStringLiteral("sha256"),
        !dataHash.isEmpty()
            ? dataHash
            : QString::fromLatin1(QCryptographicHash::hash(QJsonDocument(sharedData).toJson(QJsonDocument::Compact),
                                                           QCryptographicHash::Sha256)
                                      .toHex()));
    dataset.insert(QStringLiteral("sha256_of"), dataHash.isEmpty() ? QStringLiteral("config") : QStringLiteral("file"));
    // A registered dataset is named by its version and content hash (docs/datasets.md); small ones travel along.
    if (run.datasetVersionId > 0) {
        DatasetStore datasets(ws);
        if (const auto v = datasets.versionById(run.datasetVersionId)) {
            dataset.insert(QStringLiteral("reference"), v->ref());
            dataset.insert(QStringLiteral("sha256"), QString::fromLatin1(v->manifestHash));
            dataset.insert(QStringLiteral("sha256_of"), QStringLiteral("dataset_manifest"));
            dataset.insert(QStringLiteral("registered"),
                           QJsonObject{{QStringLiteral("name"), v->name},
                                       {QStringLiteral("version"), v->version},
                                       {QStringLiteral("manifest_sha256"), QString::fromLatin1(v->manifestHash)},
                                       {QStringLiteral("format"), v->format},
                                       {QStringLiteral("size_bytes"), v->sizeBytes},
                                       {QStringLiteral("files"), v->fileCount},
                                       {QStringLiteral("shipped"), false}});
        }
    }
    QJsonObject hardware{
        {QStringLiteral("device"), started.value(QStringLiteral("device")).toString(QStringLiteral("cpu"))},
        {QStringLiteral("threads"), started.value(QStringLiteral("threads"))}};
    if (opt.includePrivateDetails) {
        hardware.insert(QStringLiteral("cpu_arch"), QSysInfo::currentCpuArchitecture());
        hardware.insert(QStringLiteral("logical_cores"), QThread::idealThreadCount());
        hardware.insert(QStringLiteral("os"), QSysInfo::prettyProductName());
    }
    QStringList tags = opt.tags;
    if (tags.isEmpty()) tags << QStringLiteral("diamond");
    return {
        {QStringLiteral("name"), name},
        {QStringLiteral("version"), opt.version.isEmpty() ? QStringLiteral("1.0.0") : opt.version},
        {QStringLiteral("title"), title},
        {QStringLiteral("description"), specObject.value(QStringLiteral("description")).toString()},
        {QStringLiteral("authors"), QJsonArray::fromStringList(opt.authors)},
        {QStringLiteral("license"), opt.license.isEmpty() ? QStringLiteral("CC-BY-4.0") : opt.license},
        {QStringLiteral("citation"), opt.citation},
        {QStringLiteral("card"),
         !opt.card.isEmpty() ? opt.card
                             : defaultCard(run, title, run.finalMetrics, training, inputs, outputs, projectName)},
        {QStringLiteral("tags"), QJsonArray::fromStringList(tags)},
        {QStringLiteral("domain"), opt.domain},
        {QStringLiteral("task"), opt.task.isEmpty() ? QStringLiteral("classification") : opt.task},
        {QStringLiteral("inputs"), inputs},
        {QStringLiteral("outputs"), outputs},
        {QStringLiteral("metrics"), run.finalMetrics},
        {QStringLiteral("key_metric"), keyMetric(run.finalMetrics)},
        {QStringLiteral("training"), training},
        {QStringLiteral("dataset"), dataset},
        {QStringLiteral("engine_version"), exportManifest.value(QStringLiteral("engine_version"))},
        {QStringLiteral("libtorch_version"), exportManifest.value(QStringLiteral("libtorch_version"))},
        {QStringLiteral("weights_sha256"), exportManifest.value(QStringLiteral("weights_sha256"))},
        {QStringLiteral("spec_sha256"), exportManifest.value(QStringLiteral("spec_sha256"))},
        {QStringLiteral("step"), exportManifest.value(QStringLiteral("step"))},
        {QStringLiteral("test"),
         QJsonObject{{QStringLiteral("inputs"), QLatin1String(kTestInputsFile)},
                     {QStringLiteral("outputs"), QLatin1String(kTestOutputsFile)},
                     {QStringLiteral("samples"), exportManifest.value(QStringLiteral("samples"))},
                     {QStringLiteral("seed"), exportManifest.value(QStringLiteral("seed"))},
                     {QStringLiteral("tolerance"), QJsonObject{{QStringLiteral("abs"), kDefaultAbsTolerance},
                                                               {QStringLiteral("rel"), kDefaultRelTolerance}}}}},
        {QStringLiteral("provenance"),
         QJsonObject{{QStringLiteral("run_id"), run.id},
                     {QStringLiteral("run_name"), run.name},
                     {QStringLiteral("project"), projectName},
                     {QStringLiteral("started_at"), run.startedAt},
                     {QStringLiteral("finished_at"), run.finishedAt},
                     {QStringLiteral("compute_hours"), hours},
                     {QStringLiteral("hardware"), hardware},
                     {QStringLiteral("weights_sha256"), run.weightsHash},
                     {QStringLiteral("diamond_version"), QCoreApplication::applicationVersion()},
                     {QStringLiteral("published_at"), databaseTimestamp()}}},
    };
}

} // namespace

ImportResult GalleryStore::publishRun(qint64 runId, const PublishOptions &opt) {
    ImportResult none;
    code_.clear();
    error_.clear();
    RunStore runs(ws_);
    const auto run = runs.run(runId);
    if (!run) return fail(QStringLiteral("not_found"), runs.errorString()), none;
    if (run->state != RunState::Finished)
        return fail(QStringLiteral("run_not_finished"),
                    tr("run %1 is %2; only finished runs can be published").arg(runId).arg(runStateName(run->state))),
               none;
    const QString tmpRoot = QDir(ws_.path()).filePath(QStringLiteral("gallery/tmp"));
    QDir().mkpath(tmpRoot);
    QTemporaryDir work(QDir(tmpRoot).filePath(QStringLiteral("publish-XXXXXX")));
    if (!work.isValid()) return fail(QStringLiteral("io"), tr("cannot create a folder in %1").arg(tmpRoot)), none;
    const QString exportDir = work.filePath(QStringLiteral("export"));
    const QString runDir = ws_.runDirectory(runId);

    QProcess engine;
    remote::EngineCommand command;
    command.mode = remote::EngineCommand::Mode::Export;
    command.specPath = QDir(runDir).filePath(QStringLiteral("spec.json"));
    command.runDir = runDir;
    command.outDir = exportDir;
    command.samples = 4;
    engine.start(enginePath(), command.arguments());
    if (!engine.waitForStarted() || !engine.waitForFinished(300000) || engine.exitStatus() != QProcess::NormalExit ||
        engine.exitCode() != 0) {
        QString why = engine.errorString();
        for (const QByteArray &l : engine.readAllStandardOutput().split('\n')) {
            const QJsonObject ev = QJsonDocument::fromJson(l).object();
            if (ev.value(QStringLiteral("event")).toString() == QLatin1String("error"))
                why = ev.value(QStringLiteral("message")).toString();
        }
        return fail(QStringLiteral("export_failed"), tr("the engine could not export run %1: %2").arg(runId).arg(why)),
               none;
    }
    const QDir ex(exportDir);
    const QJsonObject exportManifest =
        QJsonDocument::fromJson(readAll(ex.filePath(QStringLiteral("manifest.json")))).object();
    QMap<QString, QByteArray> files;
    files.insert(QLatin1String(kSpecFile), readAll(ex.filePath(QStringLiteral("spec.json"))));
    files.insert(QLatin1String(kWeightsFile), readAll(ex.filePath(QStringLiteral("model.safetensors"))));
    files.insert(QLatin1String(kTestInputsFile), readAll(ex.filePath(QStringLiteral("test_inputs.safetensors"))));
    files.insert(QLatin1String(kTestOutputsFile), readAll(ex.filePath(QStringLiteral("test_outputs.safetensors"))));
    for (auto it = files.begin(); it != files.end(); ++it)
        if (it.value().isEmpty())
            return fail(QStringLiteral("export_failed"), tr("the engine's export has no %1").arg(it.key())), none;
    files.insert(QLatin1String(kThumbnailFile), renderThumbnail(files.value(QLatin1String(kSpecFile))));

    QJsonObject manifest = buildManifest(ws_, *run, opt, files.value(QLatin1String(kSpecFile)), exportManifest);
    shipSmallDataset(ws_, *run, &manifest, &files);
    ManifestSigner signer;
    if (opt.sign) {
        QString keyError;
        const auto key =
            loadOrCreatePublisherKey(opt.keyPath.isEmpty() ? defaultPublisherKeyPath() : opt.keyPath, &keyError);
        if (!key) return fail(QStringLiteral("io"), keyError), none;
        QString publisher = opt.publisher;
        if (publisher.isEmpty() && !opt.authors.isEmpty()) publisher = opt.authors.first();
        if (publisher.isEmpty()) publisher = qEnvironmentVariable("USER", qEnvironmentVariable("LOGNAME"));
        if (publisher.isEmpty()) publisher = QDir::home().dirName();
        signer = [key = *key, publisher](const QByteArray &bytes) {
            QString ignored;
            return signManifest(key, publisher, bytes, &ignored);
        };
        trust(key->publicKey, publisher); // one's own key is trusted in one's own gallery
    }
    const QString packagePath = work.filePath(QStringLiteral("package.diamond"));
    QString error;
    if (!writePackage(packagePath, manifest, files, &error, signer)) return fail(QStringLiteral("io"), error), none;
    return importPackage(packagePath, runId);
}

QJsonObject GalleryStore::previewManifest(qint64 runId, const PublishOptions &opt) {
    code_.clear();
    error_.clear();
    RunStore runs(ws_);
    const auto run = runs.run(runId);
    if (!run) return fail(QStringLiteral("not_found"), runs.errorString()), QJsonObject();
    return buildManifest(ws_, *run, opt, readAll(QDir(ws_.runDirectory(runId)).filePath(QStringLiteral("spec.json"))),
                         {});
}

} // namespace diamond::app::gallery
