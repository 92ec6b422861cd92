// Gallery search and REST throughput (issue #10). Targets: full-text search over 10,000 gallery entries
// <= 50 ms (median, 50 results with the total count); >= 1,000 metric-read requests/s on loopback.
// The REST load comes from this process (8 keep-alive connections, 127.0.0.1 only) against a real
// `diamondctl serve` process. Prints the numbers; exit code 1 when a target is missed, 2 on setup errors.
//   bench_rest [--diamondctl PATH] [--seconds N] [--connections N] [--keep DIR]
#include "app/gallery/gallery_store.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>

using namespace diamond::app;

namespace {

const char *kWords[] = {"convolutional", "residual",  "transformer", "spirals", "classifier", "regression",
                        "segmentation",  "images",    "audio",       "text",    "tabular",    "graph",
                        "attention",     "recurrent", "embedding",   "physics", "climate",    "protein",
                        "medical",       "satellite", "robust",      "tiny",    "mobile",     "baseline",
                        "pretrained",    "finetuned", "student",     "teacher", "sparse",     "dense"};
constexpr int kWordCount = sizeof(kWords) / sizeof(kWords[0]);

/// CPU time of this thread in ms: the machine may be shared, so wall time alone can mislead.
double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    QString diamondctl = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../bin/diamondctl"));
    int seconds = 5, connections = 8;
    QString keep; // --keep DIR: build the workspace there and leave it
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); i += 2) {
        if (args[i] == QLatin1String("--diamondctl"))
            diamondctl = args[i + 1];
        else if (args[i] == QLatin1String("--seconds"))
            seconds = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--connections"))
            connections = args[i + 1].toInt();
        else if (args[i] == QLatin1String("--keep"))
            keep = args[i + 1];
    }
    QTemporaryDir dir;
    const QString wsPath = keep.isEmpty() ? dir.filePath(QStringLiteral("ws")) : keep;
    Workspace ws;
    if (!ws.create(wsPath))
        return std::fprintf(stderr, "cannot create workspace: %s\n", qPrintable(ws.errorString())), 2;

    // --- 10,000 gallery entries with varied cards and tags ---
    gallery::GalleryStore store(ws);
    QElapsedTimer timer;
    timer.start();
    quint32 seed = 12345;
    auto next = [&seed] { return seed = seed * 1664525u + 1013904223u; };
    const QStringList tasks{QStringLiteral("classification"), QStringLiteral("regression"),
                            QStringLiteral("segmentation")};
    const QStringList domains{QStringLiteral("vision"), QStringLiteral("audio"), QStringLiteral("text"),
                              QStringLiteral("science")};
    for (int i = 0; i < 10000; ++i) {
        gallery::GalleryEntry e;
        e.name = QStringLiteral("model-%1-%2").arg(QLatin1String(kWords[next() % kWordCount])).arg(i);
        e.version = QStringLiteral("1.%1.0").arg(i % 7);
        e.title = e.name;
        e.task = tasks[static_cast<int>(next() % 3)];
        e.domain = domains[static_cast<int>(next() % 4)];
        e.license = i % 2 ? QStringLiteral("MIT") : QStringLiteral("CC-BY-4.0");
        e.keyMetric = (next() % 10000) / 10000.0;
        QString card = QStringLiteral("# %1\n\n").arg(e.name);
        for (int w = 0; w < 60; ++w)
            card += QLatin1String(kWords[next() % kWordCount]) + QLatin1Char(' ');
        e.card = card;
        e.tags << QLatin1String(kWords[next() % kWordCount]) << QLatin1String(kWords[next() % kWordCount]);
        e.packagePath = QStringLiteral("gallery/packages/%1.diamond").arg(i);
        e.packageSha256 = QString::number(i);
        if (!store.insert(e)) return std::fprintf(stderr, "insert failed: %s\n", qPrintable(store.errorString())), 2;
    }
    std::printf("inserted 10,000 gallery entries in %.1f s\n", timer.elapsed() / 1000.0);

    struct Case {
        const char *label;
        gallery::GalleryQuery query;
    };
    std::vector<Case> cases;
    {
        gallery::GalleryQuery q;
        q.text = QStringLiteral("convolutional images");
        cases.push_back({"text 'convolutional images', relevance", q});
        q.sort = gallery::GalleryQuery::Sort::Metric;
        cases.push_back({"text 'convolutional images', by metric", q});
        gallery::GalleryQuery p;
        p.text = QStringLiteral("res");
        p.task = QStringLiteral("classification");
        p.domain = QStringLiteral("vision");
        cases.push_back({"prefix 'res' + task + domain, relevance", p});
        gallery::GalleryQuery all;
        all.sort = gallery::GalleryQuery::Sort::Metric;
        cases.push_back({"no text, all 10,000 by metric", all});
        gallery::GalleryQuery lic;
        lic.license = QStringLiteral("MIT");
        lic.sort = gallery::GalleryQuery::Sort::Date;
        cases.push_back({"license filter, by date", lic});
    }
    bool ok = true;
    std::printf(
        "\n| gallery query (50 results + total) | median | max of 20 | median CPU |\n| --- | --- | --- | --- |\n");
    for (const Case &c : cases) {
        std::vector<double> ms, cpu;
        int total = 0;
        for (int i = 0; i < 20; ++i) {
            QElapsedTimer t;
            t.start();
            const double c0 = threadCpuMs();
            const auto entries = store.search(c.query, &total);
            ms.push_back(t.nsecsElapsed() / 1e6);
            cpu.push_back(threadCpuMs() - c0);
            if (entries.isEmpty()) return std::fprintf(stderr, "query '%s' found nothing\n", c.label), 2;
        }
        const double med = median(ms);
        std::printf("| %s (%d hits) | %.2f ms | %.2f ms | %.2f ms |\n", c.label, total, med,
                    *std::max_element(ms.begin(), ms.end()), median(cpu));
        if (med > 50.0) ok = false;
    }

    // --- metric reads over HTTP ---
    RunStore runs(ws);
    const auto project = runs.createProject(QStringLiteral("bench"));
    const auto run = runs.createRun(project->id, 0, QStringLiteral("metrics"), QJsonObject());
    QList<MetricPoint> points;
    for (int s = 1; s <= 2000; ++s)
        points.append({s, QStringLiteral("loss"), MetricSplit::Train, 1.0 / s, 1.7e9 + s});
    runs.addMetricPoints(run->id, points);
    ws.close();

    QProcess server;
    server.start(diamondctl, {QStringLiteral("--workspace"), wsPath, QStringLiteral("serve"), QStringLiteral("--port"),
                              QStringLiteral("0")});
    QElapsedTimer wait;
    wait.start();
    while (!server.canReadLine() && wait.elapsed() < 20000)
        server.waitForReadyRead(500);
    const auto m = QRegularExpression(QStringLiteral(":(\\d+)/api/v1/")).match(QString::fromUtf8(server.readLine()));
    if (!m.hasMatch()) return std::fprintf(stderr, "diamondctl serve did not start (%s)\n", qPrintable(diamondctl)), 2;
    const quint16 port = static_cast<quint16>(m.captured(1).toUInt());
    QProcess tokenProcess;
    tokenProcess.start(
        diamondctl, {QStringLiteral("--workspace"), wsPath, QStringLiteral("serve"), QStringLiteral("--print-token")});
    tokenProcess.waitForFinished();
    const QByteArray token = tokenProcess.readAllStandardOutput().trimmed();
    const QByteArray request = "GET /api/v1/runs/" + QByteArray::number(run->id) +
                               "/metrics?since_step=1980 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " +
                               token + "\r\n\r\n";

    qint64 completed = 0, failed = 0;
    bool measuring = false;
    QEventLoop loop;
    std::vector<std::unique_ptr<QTcpSocket>> sockets;
    std::vector<QByteArray> buffers(static_cast<size_t>(connections));
    for (int c = 0; c < connections; ++c) {
        auto socket = std::make_unique<QTcpSocket>();
        QTcpSocket *s = socket.get();
        QByteArray *buffer = &buffers[static_cast<size_t>(c)];
        QObject::connect(s, &QTcpSocket::connected, s, [s, &request] { s->write(request); });
        QObject::connect(s, &QTcpSocket::readyRead, s, [&, s, buffer] {
            *buffer += s->readAll();
            for (;;) {
                const qsizetype end = buffer->indexOf("\r\n\r\n");
                if (end < 0) return;
                const auto len = QRegularExpression(QStringLiteral("Content-Length: (\\d+)"))
                                     .match(QString::fromLatin1(buffer->left(end)));
                const qsizetype total = end + 4 + (len.hasMatch() ? len.captured(1).toLongLong() : 0);
                if (buffer->size() < total) return;
                if (measuring) (buffer->startsWith("HTTP/1.1 200") ? completed : failed)++;
                buffer->remove(0, total);
                s->write(request);
            }
        });
        s->connectToHost(QHostAddress::LocalHost, port);
        sockets.push_back(std::move(socket));
    }
    QTimer::singleShot(500, &loop, [&] {
        measuring = true;
        timer.restart();
    }); // warm-up
    QTimer::singleShot(500 + seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    const double elapsed = timer.elapsed() / 1000.0;
    const double rate = completed / elapsed;
    std::printf("\nmetric reads (GET /api/v1/runs/{id}/metrics?since_step=1980, 20 points, %d keep-alive connections):"
                " %.0f requests/s over %.1f s (%lld failed)\n",
                connections, rate, elapsed, static_cast<long long>(failed));
    if (rate < 1000.0 || failed > 0) ok = false;
    for (auto &s : sockets)
        s->abort();
    server.terminate();
    server.waitForFinished(5000);
    std::printf("%s\n", ok ? "all targets met" : "TARGET MISSED");
    return ok ? 0 : 1;
}
