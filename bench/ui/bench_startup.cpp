// Benchmark: cold start of `diamond` to a usable window. Launches the app with DIAMOND_STARTUP_PROBE=1 (it prints
// the milliseconds from process start to the first painted, exposed main window and quits) in a fresh HOME each
// time, so the first-start work (sample workspace creation) is measured too; then warm starts on that workspace.
// Target: at most 1500 ms. Runs under QT_QPA_PLATFORM=offscreen unless DISPLAY is set.
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    const QString diamond = QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../bin/diamond"));
    auto launch = [&](const QString &home, double *probeMs) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home + QStringLiteral("/data"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home + QStringLiteral("/config"));
        env.insert(QStringLiteral("DIAMOND_STARTUP_PROBE"), QStringLiteral("1"));
        if (!env.contains(QStringLiteral("DISPLAY")))
            env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        p.setProcessEnvironment(env);
        QElapsedTimer t;
        t.start();
        p.start(diamond, {});
        p.waitForFinished(60000);
        const double wall = t.nsecsElapsed() / 1e6;
        const QByteArray out = p.readAllStandardOutput();
        const int at = out.indexOf("startup_ms=");
        *probeMs = at >= 0 ? out.mid(at + 11).trimmed().toDouble() : -1;
        return wall;
    };
    std::vector<double> cold, warm;
    QTemporaryDir keep;
    for (int i = 0; i < 5; ++i) {
        QTemporaryDir home;
        double probe = 0;
        launch(home.path(), &probe);
        cold.push_back(probe);
    }
    for (int i = 0; i < 5; ++i) {
        double probe = 0;
        launch(keep.path(), &probe);
        if (i > 0) warm.push_back(probe); // the first start creates the workspace
    }
    std::sort(cold.begin(), cold.end());
    std::sort(warm.begin(), warm.end());
    std::printf("{\"benchmark\":\"startup\",\"first_start_ms_median\":%.0f,\"start_ms_median\":%.0f,"
                "\"target_ms\":1500}\n",
                cold[cold.size() / 2], warm[warm.size() / 2]);
    return cold[cold.size() / 2] > 0 && cold[cold.size() / 2] <= 1500 ? 0 : 1;
}
