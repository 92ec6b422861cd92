#include "app/workspace/sample_workspace.h"

#include "app/data/dataset_store.h"
#include "app/run/run_store.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

namespace diamond::app {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::app::SampleWorkspace", text); }

bool readObject(const QString &path, QJsonObject *out, QString *error) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = tr("Cannot read %1.").arg(path);
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &parseError);
    if (!doc.isObject()) {
        *error = tr("%1 is not a JSON object: %2").arg(path, parseError.errorString());
        return false;
    }
    *out = doc.object();
    return true;
}

} // namespace

QString sampleProjectName() { return QStringLiteral("Examples"); }

QStringList sampleExampleNames() {
    return QDir(QStringLiteral(":/examples")).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

QStringList sampleDatasetNames() {
    QJsonObject catalogue;
    QString ignored;
    QStringList names;
    if (!readObject(QStringLiteral(":/datasets/catalogue.json"), &catalogue, &ignored)) return names;
    for (const QJsonValue &v : catalogue.value(QLatin1String("datasets")).toArray())
        names << v.toObject().value(QLatin1String("name")).toString();
    return names;
}

bool registerSampleDatasets(Workspace &workspace, QString *error) {
    QString localError;
    QString &err = error ? *error : localError;
    QJsonObject catalogue;
    if (!readObject(QStringLiteral(":/datasets/catalogue.json"), &catalogue, &err)) return false;
    DatasetStore store(workspace);
    QStringList existing;
    for (const DatasetSummary &d : store.list())
        existing << d.name;
    QTemporaryDir scratch; // the importer reads files on disk, not resources
    if (!scratch.isValid()) {
        err = tr("Cannot create a temporary folder for the sample datasets: %1").arg(scratch.errorString());
        return false;
    }
    for (const QJsonValue &v : catalogue.value(QLatin1String("datasets")).toArray()) {
        const QJsonObject d = v.toObject();
        const QString name = d.value(QLatin1String("name")).toString();
        const QString file = d.value(QLatin1String("file")).toString();
        if (existing.contains(name)) continue;
        const QString copy = scratch.filePath(file);
        if (!QFile::copy(QStringLiteral(":/datasets/") + file, copy)) {
            err = tr("Cannot copy the sample dataset %1 to %2.").arg(file, copy);
            return false;
        }
        // Stored with the version: in English whatever the interface's language, like the catalogue itself.
        const QString provenance =
            QStringLiteral("%1. Origin: %2. Licence: %3")
                .arg(d.value(QLatin1String("title")).toString(), d.value(QLatin1String("origin")).toString(),
                     d.value(QLatin1String("licence")).toString());
        if (!store.addVersion(name, copy, {}, nullptr, provenance)) {
            err = tr("Cannot register the sample dataset %1: %2").arg(name, store.errorString());
            return false;
        }
    }
    return true;
}

bool populateSampleWorkspace(Workspace &workspace, QString *error) {
    QString localError;
    QString &err = error ? *error : localError;
    RunStore store(workspace);
    if (store.projectByName(sampleProjectName())) return true;
    const QStringList names = sampleExampleNames();
    if (names.isEmpty()) {
        err = tr("No examples are built into this Diamond (:/examples is empty).");
        return false;
    }
    const auto project =
        store.createProject(sampleProjectName(), tr("Small networks that train in seconds; press Train to try one."));
    if (!project) {
        // Another process may have created it in the meantime.
        if (store.projectByName(sampleProjectName())) return true;
        err = store.errorString();
        return false;
    }
    for (const QString &name : names) {
        const QString folder = QStringLiteral(":/examples/") + name;
        QJsonObject spec, config;
        if (!readObject(folder + QStringLiteral("/spec.json"), &spec, &err) ||
            !readObject(folder + QStringLiteral("/run.json"), &config, &err))
            return false;
        const QString archName = spec.value(QLatin1String("name")).toString(name);
        const auto archId = store.ensureArchitecture(project->id, archName);
        const auto version = archId ? store.addArchitectureVersion(*archId, spec) : std::nullopt;
        if (!version || !store.createRun(project->id, version->id, name, config)) {
            err = store.errorString();
            return false;
        }
    }
    return registerSampleDatasets(workspace, &err);
}

bool openWorkspaceWithExamples(Workspace &workspace, const QString &folder) {
    if (!workspace.create(folder.isEmpty() ? Workspace::defaultPath() : folder)) return false;
    if (!workspace.wasCreated()) return true;
    QString error;
    if (populateSampleWorkspace(workspace, &error)) return true;
    workspace.setErrorString(tr("Could not add the examples to the new workspace: %1").arg(error));
    return false;
}

} // namespace diamond::app
