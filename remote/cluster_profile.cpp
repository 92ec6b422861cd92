#include "remote/cluster_profile.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace diamond::remote {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("diamond::remote::ClusterProfile", text); }

struct Name {
    int value;
    const char *name;
};
constexpr Name kSchedulers[] = {
    {int(SchedulerKind::Slurm), "slurm"}, {int(SchedulerKind::Pbs), "pbs"}, {int(SchedulerKind::None), "none"}};
constexpr Name kRuntimes[] = {{int(ContainerRuntime::None), "none"},
                              {int(ContainerRuntime::Apptainer), "apptainer"},
                              {int(ContainerRuntime::Singularity), "singularity"},
                              {int(ContainerRuntime::Podman), "podman"},
                              {int(ContainerRuntime::Docker), "docker"}};

template <size_t N> QString nameOf(const Name (&table)[N], int value) {
    for (const Name &n : table)
        if (n.value == value) return QString::fromLatin1(n.name);
    return {};
}
template <size_t N> std::optional<int> valueOf(const Name (&table)[N], const QString &name) {
    for (const Name &n : table)
        if (name == QLatin1String(n.name)) return n.value;
    return std::nullopt;
}
template <size_t N> QString namesOf(const Name (&table)[N]) {
    QStringList names;
    for (const Name &n : table)
        names << QString::fromLatin1(n.name);
    return names.join(QStringLiteral(", "));
}

/// Reads typed fields of one JSON object; the first error wins and names the field by its path.
class Reader {
public:
    Reader(const QJsonObject &object, QString prefix, QString *error)
        : o_(object), prefix_(std::move(prefix)), error_(error) {}

    bool ok() const { return error_->isEmpty(); }
    QString path(const QString &key) const { return prefix_.isEmpty() ? key : prefix_ + QLatin1Char('.') + key; }
    void fail(const QString &key, const QString &message) {
        if (ok()) *error_ = QStringLiteral("%1: %2").arg(path(key), message);
    }
    void allowOnly(const QStringList &keys) {
        for (auto it = o_.begin(); it != o_.end(); ++it)
            if (!keys.contains(it.key())) {
                fail(it.key(), tr("unknown field (known: %1)").arg(keys.join(QStringLiteral(", "))));
                return;
            }
    }
    QString string(const QString &key, bool required = false) {
        const QJsonValue v = o_.value(key);
        if (v.isUndefined() || v.isNull()) {
            if (required) fail(key, tr("is required"));
            return {};
        }
        if (!v.isString()) {
            fail(key, tr("expected a string"));
            return {};
        }
        if (required && v.toString().trimmed().isEmpty()) fail(key, tr("must not be empty"));
        return v.toString();
    }
    qint64 integer(const QString &key, qint64 fallback, qint64 minimum, qint64 maximum) {
        const QJsonValue v = o_.value(key);
        if (v.isUndefined() || v.isNull()) return fallback;
        const double d = v.toDouble(-1e300);
        if (!v.isDouble() || d != double(qint64(d)) || d < double(minimum) || d > double(maximum)) {
            fail(key, tr("expected a whole number from %1 to %2").arg(minimum).arg(maximum));
            return fallback;
        }
        return qint64(d);
    }
    bool boolean(const QString &key) {
        const QJsonValue v = o_.value(key);
        if (v.isUndefined() || v.isNull()) return false;
        if (!v.isBool()) fail(key, tr("expected true or false"));
        return v.toBool();
    }
    QStringList strings(const QString &key) {
        const QJsonValue v = o_.value(key);
        QStringList out;
        if (v.isUndefined() || v.isNull()) return out;
        if (!v.isArray()) {
            fail(key, tr("expected a list of strings"));
            return out;
        }
        const QJsonArray a = v.toArray();
        for (int i = 0; i < a.size(); ++i) {
            if (!a[i].isString()) {
                fail(QStringLiteral("%1[%2]").arg(key).arg(i), tr("expected a string"));
                return {};
            }
            out << a[i].toString();
        }
        return out;
    }
    QJsonValue value(const QString &key) const { return o_.value(key); }

private:
    QJsonObject o_;
    QString prefix_;
    QString *error_;
};

QJsonArray toArray(const QStringList &list) {
    QJsonArray a;
    for (const QString &s : list)
        a.append(s);
    return a;
}

} // namespace

QString schedulerKindName(SchedulerKind kind) { return nameOf(kSchedulers, int(kind)); }
std::optional<SchedulerKind> schedulerKindFromName(const QString &name) {
    const auto v = valueOf(kSchedulers, name);
    return v ? std::optional<SchedulerKind>(SchedulerKind(*v)) : std::nullopt;
}
QString containerRuntimeName(ContainerRuntime runtime) { return nameOf(kRuntimes, int(runtime)); }
std::optional<ContainerRuntime> containerRuntimeFromName(const QString &name) {
    const auto v = valueOf(kRuntimes, name);
    return v ? std::optional<ContainerRuntime>(ContainerRuntime(*v)) : std::nullopt;
}

bool PartitionInfo::operator==(const PartitionInfo &o) const {
    return name == o.name && gpuType == o.gpuType && gpusPerNode == o.gpusPerNode && cpusPerNode == o.cpusPerNode &&
           memoryMb == o.memoryMb && maxWalltimeMinutes == o.maxWalltimeMinutes && nodes == o.nodes &&
           isDefault == o.isDefault;
}

QJsonObject PartitionInfo::toJson() const {
    QJsonObject o{{QStringLiteral("name"), name}};
    if (!gpuType.isEmpty()) o.insert(QStringLiteral("gpu_type"), gpuType);
    if (gpusPerNode) o.insert(QStringLiteral("gpus_per_node"), gpusPerNode);
    if (cpusPerNode) o.insert(QStringLiteral("cpus_per_node"), cpusPerNode);
    if (memoryMb) o.insert(QStringLiteral("memory_mb"), memoryMb);
    if (maxWalltimeMinutes) o.insert(QStringLiteral("max_walltime_minutes"), maxWalltimeMinutes);
    if (nodes) o.insert(QStringLiteral("nodes"), nodes);
    if (isDefault) o.insert(QStringLiteral("default"), true);
    return o;
}

QString ContainerSettings::program() const { return command.isEmpty() ? containerRuntimeName(runtime) : command; }

bool ClusterProfile::operator==(const ClusterProfile &o) const { return toJson() == o.toJson(); }

QString ClusterProfile::validate() const {
    static const QRegularExpression nameRe(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    static const QRegularExpression hostRe(QStringLiteral("^[A-Za-z0-9._:\\[\\]-]+$"));
    static const QRegularExpression userRe(QStringLiteral("^[A-Za-z0-9._][A-Za-z0-9._-]*\\$?$"));
    static const QRegularExpression envRe(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    static const QRegularExpression moduleRe(QStringLiteral("^[A-Za-z0-9._/+@:-]+$"));
    if (!nameRe.match(name).hasMatch())
        return tr("name: '%1' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit")
            .arg(name);
    if (host.isEmpty()) return tr("host: is required");
    if (!hostRe.match(host).hasMatch()) return tr("host: '%1' is not a host name or address").arg(host);
    if (port < 1 || port > 65535) return tr("port: %1 is not from 1 to 65535").arg(port);
    if (!user.isEmpty() && !userRe.match(user).hasMatch()) return tr("user: '%1' is not a user name").arg(user);
    if (scratchDir.isEmpty()) return tr("scratch_dir: is required (the run folders on the cluster go there)");
    if (!scratchDir.isEmpty() && !scratchDir.startsWith(QLatin1Char('/')) && !scratchDir.startsWith(QLatin1Char('~')))
        return tr("scratch_dir: '%1' must be an absolute path").arg(scratchDir);
    if (enginePath.isEmpty()) return tr("engine_path: is required (diamond-train on the cluster)");
    if (account.contains(QLatin1Char('\n')) || account.contains(QLatin1Char(' ')))
        return tr("account: '%1' must not contain spaces").arg(account);
    QSet<QString> seen;
    int defaults = 0;
    for (int i = 0; i < partitions.size(); ++i) {
        const PartitionInfo &p = partitions[i];
        if (!nameRe.match(p.name).hasMatch())
            return tr("partitions[%1].name: '%2' is not a partition name").arg(i).arg(p.name);
        if (seen.contains(p.name)) return tr("partitions[%1].name: '%2' is listed twice").arg(i).arg(p.name);
        seen.insert(p.name);
        if (p.gpusPerNode < 0) return tr("partitions[%1].gpus_per_node: must not be negative").arg(i);
        if (p.cpusPerNode < 0) return tr("partitions[%1].cpus_per_node: must not be negative").arg(i);
        if (p.memoryMb < 0) return tr("partitions[%1].memory_mb: must not be negative").arg(i);
        if (p.maxWalltimeMinutes < 0) return tr("partitions[%1].max_walltime_minutes: must not be negative").arg(i);
        defaults += p.isDefault ? 1 : 0;
    }
    if (defaults > 1) return tr("partitions: more than one partition is marked default");
    for (int i = 0; i < modules.size(); ++i)
        if (!moduleRe.match(modules[i]).hasMatch())
            return tr("modules[%1]: '%2' is not a module name").arg(i).arg(modules[i]);
    static const QRegularExpression programRe(QStringLiteral("^(/[A-Za-z0-9._/+@-]+|[A-Za-z0-9._+-]+)$"));
    if (!container.command.isEmpty() && !programRe.match(container.command).hasMatch())
        return tr("container.command: '%1' is not a program name or an absolute path").arg(container.command);
    if (gpuDirective != QLatin1String("gpus-per-node") && gpuDirective != QLatin1String("gres"))
        return tr("gpu_directive: '%1' is not gpus-per-node or gres").arg(gpuDirective);
    if (container.runtime != ContainerRuntime::None && container.image.trimmed().isEmpty())
        return tr("container.image: is required when container.runtime is %1")
            .arg(containerRuntimeName(container.runtime));
    for (auto it = environment.begin(); it != environment.end(); ++it)
        if (!envRe.match(it.key()).hasMatch()) return tr("environment.%1: is not a valid variable name").arg(it.key());
    return {};
}

QJsonObject ClusterProfile::configJson() const {
    QJsonObject o;
    if (!account.isEmpty()) o.insert(QStringLiteral("account"), account);
    if (!partitions.isEmpty()) {
        QJsonArray a;
        for (const PartitionInfo &p : partitions)
            a.append(p.toJson());
        o.insert(QStringLiteral("partitions"), a);
    }
    if (!modules.isEmpty()) o.insert(QStringLiteral("modules"), toArray(modules));
    if (container.runtime != ContainerRuntime::None || !container.image.isEmpty() || !container.command.isEmpty()) {
        QJsonObject c{{QStringLiteral("runtime"), containerRuntimeName(container.runtime)},
                      {QStringLiteral("image"), container.image}};
        if (!container.options.isEmpty()) c.insert(QStringLiteral("options"), toArray(container.options));
        if (!container.command.isEmpty()) c.insert(QStringLiteral("command"), container.command);
        o.insert(QStringLiteral("container"), c);
    }
    if (gpuDirective != QLatin1String("gpus-per-node")) o.insert(QStringLiteral("gpu_directive"), gpuDirective);
    if (!scratchDir.isEmpty()) o.insert(QStringLiteral("scratch_dir"), scratchDir);
    o.insert(QStringLiteral("engine_path"), enginePath);
    if (!identityFile.isEmpty()) o.insert(QStringLiteral("identity_file"), identityFile);
    if (!knownHostsFile.isEmpty()) o.insert(QStringLiteral("known_hosts_file"), knownHostsFile);
    if (!environment.isEmpty()) {
        QJsonObject env;
        for (auto it = environment.begin(); it != environment.end(); ++it)
            env.insert(it.key(), it.value());
        o.insert(QStringLiteral("environment"), env);
    }
    return o;
}

QJsonObject ClusterProfile::toJson() const {
    QJsonObject o = configJson();
    o.insert(QStringLiteral("name"), name);
    o.insert(QStringLiteral("host"), host);
    o.insert(QStringLiteral("port"), port);
    if (!user.isEmpty()) o.insert(QStringLiteral("user"), user);
    o.insert(QStringLiteral("scheduler"), schedulerKindName(scheduler));
    return o;
}

std::optional<ClusterProfile> ClusterProfile::fromJson(const QJsonObject &json, QString *error) {
    error->clear();
    ClusterProfile p;
    Reader r(json, {}, error);
    r.allowOnly({QStringLiteral("name"), QStringLiteral("host"), QStringLiteral("port"), QStringLiteral("user"),
                 QStringLiteral("scheduler"), QStringLiteral("account"), QStringLiteral("partitions"),
                 QStringLiteral("modules"), QStringLiteral("container"), QStringLiteral("scratch_dir"),
                 QStringLiteral("engine_path"), QStringLiteral("identity_file"), QStringLiteral("known_hosts_file"),
                 QStringLiteral("environment"), QStringLiteral("gpu_directive")});
    p.name = r.string(QStringLiteral("name"), true);
    p.host = r.string(QStringLiteral("host"), true);
    p.port = int(r.integer(QStringLiteral("port"), 22, 1, 65535));
    p.user = r.string(QStringLiteral("user"));
    const QString scheduler = r.string(QStringLiteral("scheduler"));
    if (!scheduler.isEmpty()) {
        if (const auto kind = schedulerKindFromName(scheduler))
            p.scheduler = *kind;
        else
            r.fail(QStringLiteral("scheduler"), tr("'%1' is not one of %2").arg(scheduler, namesOf(kSchedulers)));
    }
    p.account = r.string(QStringLiteral("account"));
    p.modules = r.strings(QStringLiteral("modules"));
    p.scratchDir = r.string(QStringLiteral("scratch_dir"));
    p.enginePath = r.string(QStringLiteral("engine_path"));
    if (const QString directive = r.string(QStringLiteral("gpu_directive")); !directive.isEmpty())
        p.gpuDirective = directive;
    p.identityFile = r.string(QStringLiteral("identity_file"));
    p.knownHostsFile = r.string(QStringLiteral("known_hosts_file"));
    const QJsonValue parts = r.value(QStringLiteral("partitions"));
    if (!parts.isUndefined() && !parts.isNull() && !parts.isArray())
        r.fail(QStringLiteral("partitions"), tr("expected a list of objects"));
    const QJsonArray partArray = parts.toArray();
    for (int i = 0; i < partArray.size() && r.ok(); ++i) {
        const QString prefix = QStringLiteral("partitions[%1]").arg(i);
        if (!partArray[i].isObject()) {
            *error = QStringLiteral("%1: %2").arg(prefix, tr("expected an object"));
            break;
        }
        Reader pr(partArray[i].toObject(), prefix, error);
        pr.allowOnly({QStringLiteral("name"), QStringLiteral("gpu_type"), QStringLiteral("gpus_per_node"),
                      QStringLiteral("cpus_per_node"), QStringLiteral("memory_mb"),
                      QStringLiteral("max_walltime_minutes"), QStringLiteral("nodes"), QStringLiteral("default")});
        PartitionInfo info;
        info.name = pr.string(QStringLiteral("name"), true);
        info.gpuType = pr.string(QStringLiteral("gpu_type"));
        info.gpusPerNode = int(pr.integer(QStringLiteral("gpus_per_node"), 0, 0, 1024));
        info.cpusPerNode = int(pr.integer(QStringLiteral("cpus_per_node"), 0, 0, 1 << 20));
        info.memoryMb = pr.integer(QStringLiteral("memory_mb"), 0, 0, qint64(1) << 40);
        info.maxWalltimeMinutes = int(pr.integer(QStringLiteral("max_walltime_minutes"), 0, 0, 1 << 30));
        info.nodes = int(pr.integer(QStringLiteral("nodes"), 0, 0, 1 << 24));
        info.isDefault = pr.boolean(QStringLiteral("default"));
        p.partitions << info;
    }
    const QJsonValue container = r.value(QStringLiteral("container"));
    if (r.ok() && !container.isUndefined() && !container.isNull()) {
        if (!container.isObject()) {
            r.fail(QStringLiteral("container"), tr("expected an object"));
        } else {
            Reader cr(container.toObject(), QStringLiteral("container"), error);
            cr.allowOnly({QStringLiteral("runtime"), QStringLiteral("image"), QStringLiteral("options"),
                          QStringLiteral("command")});
            const QString runtime = cr.string(QStringLiteral("runtime"));
            if (!runtime.isEmpty()) {
                if (const auto rt = containerRuntimeFromName(runtime))
                    p.container.runtime = *rt;
                else
                    cr.fail(QStringLiteral("runtime"), tr("'%1' is not one of %2").arg(runtime, namesOf(kRuntimes)));
            }
            p.container.image = cr.string(QStringLiteral("image"));
            p.container.options = cr.strings(QStringLiteral("options"));
            p.container.command = cr.string(QStringLiteral("command"));
        }
    }
    const QJsonValue env = r.value(QStringLiteral("environment"));
    if (r.ok() && !env.isUndefined() && !env.isNull()) {
        if (!env.isObject()) r.fail(QStringLiteral("environment"), tr("expected an object of strings"));
        const QJsonObject envObject = env.toObject();
        for (auto it = envObject.begin(); it != envObject.end() && r.ok(); ++it) {
            if (!it.value().isString()) r.fail(QStringLiteral("environment.%1").arg(it.key()), tr("expected a string"));
            p.environment.insert(it.key(), it.value().toString());
        }
    }
    if (!r.ok()) return std::nullopt;
    if (const QString problem = p.validate(); !problem.isEmpty()) {
        *error = problem;
        return std::nullopt;
    }
    return p;
}

const PartitionInfo *ClusterProfile::partition(const QString &wanted) const {
    for (const PartitionInfo &p : partitions)
        if (wanted.isEmpty() ? p.isDefault : p.name == wanted) return &p;
    if (wanted.isEmpty() && !partitions.isEmpty()) return &partitions.first();
    return nullptr;
}

QString ClusterProfile::remoteRunDir(const QString &runKey) const {
    QString base = scratchDir;
    while (base.size() > 1 && base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base + QStringLiteral("/runs/") + runKey;
}

} // namespace diamond::remote
