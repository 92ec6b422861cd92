// diamondctl: thin entry point; commands live in cli_*.cpp.
#include "cli.h"

#include <QCoreApplication>

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    return diamond::cli::run(QCoreApplication::arguments());
}
