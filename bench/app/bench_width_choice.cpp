// bench_width_choice: does Diamond pick the data-parallel width that measurement shows fastest (issue #18)? For a
// compute-bound network (the cnn28 template on 28x28 shapes, batch 1024) and a communication-bound one (an MLP with
// three 1024-wide layers, 2.1 M parameters, on spirals at batch 32), this runs the user's path, `diamondctl run plan
// --json` on a fresh workspace (which calibrates this computer first), and then trains each network for real at every
// width this computer offers (N ranks of cores/N threads: N = 1, 2, 4 … up to the physical cores), reading steps_per_s
// from the engine's `finished` event. A width counts as a tie when its measured step time is within 5 % of the fastest.
// Exits 1 when a --measure-width choice is not the fastest.
//
//   bench_width_choice [--steps N (200)] [--json FILE]
#include "bench_files.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

namespace {

using diamond::bench::binary;
using diamond::bench::die;
using diamond::bench::readJson;
using diamond::bench::writeJson;

QByteArray run(const QString &program, const QStringList &args) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(900000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0)
        die(program + QLatin1Char(' ') + args.join(QLatin1Char(' ')) + QStringLiteral(": ") +
            QString::fromUtf8(p.readAllStandardError()));
    return p.readAllStandardOutput();
}

QJsonObject linear(const char *id, const char *input, int out) {
    return {{QStringLiteral("id"), QLatin1String(id)},
            {QStringLiteral("type"), QStringLiteral("Linear")},
            {QStringLiteral("inputs"), QJsonArray{QLatin1String(input)}},
            {QStringLiteral("params"), QJsonObject{{QStringLiteral("out_features"), out}}}};
}
QJsonObject relu(const char *id, const char *input) {
    return {{QStringLiteral("id"), QLatin1String(id)},
            {QStringLiteral("type"), QStringLiteral("ReLU")},
            {QStringLiteral("inputs"), QJsonArray{QLatin1String(input)}}};
}

int physicalCores() {
    QFile f(QStringLiteral("/proc/cpuinfo"));
    QSet<QByteArray> cores;
    QByteArray physical = "0";
    if (f.open(QIODevice::ReadOnly))
        for (const QByteArray &line : f.readAll().split('\n')) {
            const QList<QByteArray> kv = line.split(':');
            if (kv.size() != 2) continue;
            if (kv[0].trimmed() == "physical id") physical = kv[1].trimmed();
            if (kv[0].trimmed() == "core id") cores.insert(physical + '/' + kv[1].trimmed());
        }
    return std::max<int>(1, cores.isEmpty() ? QThread::idealThreadCount() : int(cores.size()));
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption stepsOption(QStringLiteral("steps"), QStringLiteral("training steps per measurement"),
                                         QStringLiteral("N"), QStringLiteral("200"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("write the figures here"),
                                        QStringLiteral("FILE"));
    parser.addOptions({stepsOption, jsonOption});
    parser.process(app);
    const int steps = std::max(50, parser.value(stepsOption).toInt());
    const int cores = physicalCores();
    QTemporaryDir work;
    const QString workspace = work.filePath(QStringLiteral("workspace"));
    run(binary("diamondctl"), {QStringLiteral("--workspace"), workspace, QStringLiteral("init")});

    struct Case {
        QString name, kind;
        QJsonObject spec, data;
        int batch;
    };
    QJsonObject cnn = readJson(QStringLiteral(DIAMOND_SOURCE_DIR "/resources/templates/cnn28.json"));
    QJsonArray nodes = cnn.value(QStringLiteral("nodes")).toArray();
    QJsonObject last = nodes.last().toObject();
    QJsonObject params = last.value(QStringLiteral("params")).toObject();
    params.insert(QStringLiteral("out_features"), 4); // the synthetic shapes have 4 classes
    last.insert(QStringLiteral("params"), params);
    nodes[nodes.size() - 1] = last;
    cnn.insert(QStringLiteral("nodes"), nodes);
    const QJsonObject wide{
        {QStringLiteral("format"), QStringLiteral("diamond.spec/1")},
        {QStringLiteral("name"), QStringLiteral("wide-mlp")},
        {QStringLiteral("inputs"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("x")},
                                {QStringLiteral("shape"), QJsonArray{QStringLiteral("N"), 2}}}}},
        {QStringLiteral("nodes"),
         QJsonArray{linear("fc1", "x", 1024), relu("r1", "fc1"), linear("fc2", "r1", 1024), relu("r2", "fc2"),
                    linear("fc3", "r2", 1024), relu("r3", "fc3"), linear("fc4", "r3", 3)}},
        {QStringLiteral("outputs"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("logits")},
                                                           {QStringLiteral("from"), QStringLiteral("fc4")}}}}};
    const QList<Case> cases{
        {QStringLiteral("cnn28 template"), QStringLiteral("compute-bound"), cnn,
         QJsonObject{{QStringLiteral("source"), QStringLiteral("shapes")}, {QStringLiteral("size"), 28}}, 1024},
        {QStringLiteral("wide MLP (2.1 M parameters)"), QStringLiteral("communication-bound"), wide,
         QJsonObject{{QStringLiteral("source"), QStringLiteral("spirals")}}, 32}};

    QJsonArray rows;
    int right = 0, rightMeasured = 0;
    for (const Case &c : cases) {
        const QString dir = work.filePath(QString::number(rows.size()));
        QDir().mkpath(dir);
        QJsonObject data = c.data;
        data.insert(QStringLiteral("samples"), steps * c.batch + c.batch);
        data.insert(QStringLiteral("validation_split"), 0.0);
        const QJsonObject config{
            {QStringLiteral("format"), QStringLiteral("diamond.run/1")},
            {QStringLiteral("batch_size"), c.batch},
            {QStringLiteral("epochs"), 1},
            {QStringLiteral("seed"), 1},
            {QStringLiteral("optimizer"),
             QJsonObject{{QStringLiteral("name"), QStringLiteral("adam")}, {QStringLiteral("lr"), 0.001}}},
            {QStringLiteral("data"), data}};
        writeJson(dir + QStringLiteral("/spec.json"), c.spec);
        writeJson(dir + QStringLiteral("/run.json"), config);
        auto planned = [&](bool measureWidth) {
            QStringList args{QStringLiteral("--workspace"), workspace,
                             QStringLiteral("run"),         QStringLiteral("plan"),
                             QStringLiteral("--spec"),      dir + QStringLiteral("/spec.json"),
                             QStringLiteral("--config"),    dir + QStringLiteral("/run.json"),
                             QStringLiteral("--json")};
            if (measureWidth) args << QStringLiteral("--measure-width");
            const QJsonObject plan = QJsonDocument::fromJson(run(binary("diamondctl"), args)).object();
            if (plan.value(QStringLiteral("ranks")).toInt() < 1)
                die(c.name + QStringLiteral(": the plan chose no width"));
            return plan;
        };
        const QJsonObject plan = planned(false), measuredPlan = planned(true);
        const int chosen = plan.value(QStringLiteral("ranks")).toInt();
        const int chosenMeasured = measuredPlan.value(QStringLiteral("ranks")).toInt();
        QJsonArray widths;
        double fastest = 0;
        int fastestWidth = 0;
        QMap<int, double> measured;
        for (int ranks = 1; ranks <= cores; ranks *= 2) {
            const QString runDir = dir + QStringLiteral("/n%1").arg(ranks);
            QStringList args{QStringLiteral("--spec"),    dir + QStringLiteral("/spec.json"),
                             QStringLiteral("--config"),  dir + QStringLiteral("/run.json"),
                             QStringLiteral("--run-dir"), runDir,
                             QStringLiteral("--threads"), QString::number(std::max(1, cores / ranks))};
            if (ranks > 1) args << QStringLiteral("--nproc") << QString::number(ranks);
            double stepsPerSecond = 0;
            for (const QByteArray &line : run(binary("diamond-train"), args).split('\n')) {
                const QJsonObject e = QJsonDocument::fromJson(line).object();
                if (e.value(QStringLiteral("event")).toString() == QLatin1String("finished"))
                    stepsPerSecond = e.value(QStringLiteral("steps_per_s")).toDouble();
            }
            if (!(stepsPerSecond > 0)) die(c.name + QStringLiteral(": no steps_per_s"));
            const double seconds = 1.0 / stepsPerSecond;
            measured.insert(ranks, seconds);
            if (fastestWidth == 0 || seconds < fastest) fastest = seconds, fastestWidth = ranks;
        }
        QJsonArray predicted;
        for (const QJsonValue &o : plan.value(QStringLiteral("options")).toArray())
            predicted.append(o);
        for (auto it = measured.cbegin(); it != measured.cend(); ++it)
            widths.append(QJsonObject{
                {QStringLiteral("ranks"), it.key()},
                {QStringLiteral("threads_per_rank"), std::max(1, cores / it.key())},
                {QStringLiteral("measured_step_s"), it.value()},
                {QStringLiteral("scaling_efficiency"), measured.value(1) / (double(it.key()) * it.value())}});
        const bool ok = measured.contains(chosen) && measured.value(chosen) <= fastest * 1.05;
        const bool okMeasured = measured.contains(chosenMeasured) && measured.value(chosenMeasured) <= fastest * 1.05;
        right += ok ? 1 : 0;
        rightMeasured += okMeasured ? 1 : 0;
        std::printf("%-28s %-19s chose %d rank(s) from the model (%s), %d with --measure-width (%s); measured:",
                    qPrintable(c.name), qPrintable(c.kind), chosen, ok ? "right" : "WRONG", chosenMeasured,
                    okMeasured ? "right" : "WRONG");
        for (auto it = measured.cbegin(); it != measured.cend(); ++it)
            std::printf("  N=%d %.2f ms (E %.2f)", it.key(), it.value() * 1e3,
                        measured.value(1) / (double(it.key()) * it.value()));
        std::printf("  -> fastest N=%d\n", fastestWidth);
        rows.append(
            QJsonObject{{QStringLiteral("network"), c.name},
                        {QStringLiteral("kind"), c.kind},
                        {QStringLiteral("chosen_ranks"), chosen},
                        {QStringLiteral("fastest_ranks"), fastestWidth},
                        {QStringLiteral("right"), ok},
                        {QStringLiteral("chosen_ranks_measured"), chosenMeasured},
                        {QStringLiteral("right_measured"), okMeasured},
                        {QStringLiteral("measured_plan_options"), measuredPlan.value(QStringLiteral("options"))},
                        {QStringLiteral("measured"), widths},
                        {QStringLiteral("planned_options"), predicted}});
    }
    std::printf("width choices that match the fastest measured width (within 5 %%): %d of %lld from the model, %d of "
                "%lld with --measure-width\n",
                right, static_cast<long long>(rows.size()), rightMeasured, static_cast<long long>(rows.size()));
    if (parser.isSet(jsonOption))
        writeJson(parser.value(jsonOption), {{QStringLiteral("physical_cores"), cores},
                                             {QStringLiteral("right"), right},
                                             {QStringLiteral("right_measured"), rightMeasured},
                                             {QStringLiteral("cases"), rows}});
    return rightMeasured == rows.size() ? 0 : 1;
}
