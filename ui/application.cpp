#include "ui/application.h"
#include "ui/catalogue_translator.h"

#include "app/workspace/app_info.h"
#include "ui/main_window.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFile>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <cstring>

#include <unistd.h>

namespace diamond::ui {

namespace {

const char *kHelp = "Usage: diamond [options]\n"
                    "\n"
                    "Diamond: draw a neural network, press Train, watch the loss fall.\n"
                    "\n"
                    "Options:\n"
                    "  --help         print this help\n"
                    "  --version      print the versions of Diamond and its libraries\n"
                    "  --lang CODE    user-interface language for this start (en, zh_CN)\n"
                    "\n"
                    "Standard Qt options such as -platform offscreen are accepted too.\n";

/// Installs Diamond's and Qt's translations for `language` ("" = saved preference or system).
void installTranslations(QApplication &app, QString language) {
    if (language.isEmpty()) language = QSettings().value(QStringLiteral("ui/language")).toString();
    const QLocale locale = language.isEmpty() ? QLocale::system() : QLocale(language);
    auto *own = new CatalogueTranslator(&app);
    if (own->loadCatalogue(locale)) {
        QCoreApplication::installTranslator(own);
        QLocale::setDefault(locale); // lesson texts (ui/learn) follow the user-interface language
    }
    auto *qt = new QTranslator(&app);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

/// Milliseconds since this process was started (from /proc; -1 when unavailable).
double millisecondsSinceProcessStart() {
    QFile stat(QStringLiteral("/proc/self/stat")), uptime(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !uptime.open(QIODevice::ReadOnly)) return -1;
    const QByteArray text = stat.readAll();
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 20) return -1;
    const double startTicks = fields[19].toDouble(); // field 22 of the file
    const double now = uptime.readAll().split(' ').value(0).toDouble();
    return (now - startTicks / double(sysconf(_SC_CLK_TCK))) * 1000.0;
}

} // namespace

int runApplication(int argc, char **argv) {
    QString language;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::fputs(kHelp, stdout);
            return 0;
        }
        if (std::strcmp(argv[i], "--version") == 0) {
            std::fputs(app::versionReport(QStringLiteral("diamond")).toLocal8Bit().constData(), stdout);
            return 0;
        }
        if (std::strcmp(argv[i], "--lang") == 0 && i + 1 < argc) language = QString::fromLocal8Bit(argv[i + 1]);
    }
    QApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication application(argc, argv);
    app::setApplicationIdentity();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/diamond.svg")));
    QApplication::setDesktopFileName(QStringLiteral("org.diamond.Diamond"));
    installTranslations(application, language);
    MainWindow window;
    window.show();
    if (qEnvironmentVariableIsSet("DIAMOND_STARTUP_PROBE")) {
        // For bench/ui/bench_startup: once the first frame is painted, print the time since the process started.
        QTimer::singleShot(0, &window, [&window] {
            window.repaint();
            std::printf("startup_ms=%.0f\n", millisecondsSinceProcessStart());
            std::fflush(stdout);
            QCoreApplication::quit();
        });
    }
    return QApplication::exec();
}

} // namespace diamond::ui
