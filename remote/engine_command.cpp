#include "remote/engine_command.h"

namespace diamond::remote {

QStringList EngineCommand::arguments() const {
    QStringList args;
    switch (mode) {
    case Mode::Pack: args << QStringLiteral("pack") << QStringLiteral("--trials") << trialsFile; break;
    case Mode::Export:
        args << QStringLiteral("export") << QStringLiteral("--spec") << specPath << QStringLiteral("--run-dir")
             << runDir;
        if (!outDir.isEmpty()) args << QStringLiteral("--out") << outDir;
        if (samples > 0) args << QStringLiteral("--samples") << QString::number(samples);
        break;
    case Mode::Predict:
        args << QStringLiteral("predict") << QStringLiteral("--spec") << specPath << QStringLiteral("--weights")
             << weightsFile << QStringLiteral("--inputs") << inputsFile << QStringLiteral("--output") << outputFile;
        break;
    case Mode::ListArrays: return {QStringLiteral("arrays"), inputsFile};
    case Mode::Calibrate: args << QStringLiteral("calibrate") << QStringLiteral("--dir") << runDir; break;
    case Mode::Train:
    case Mode::DryRun:
        args << QStringLiteral("--spec") << specPath << QStringLiteral("--config") << configPath
             << QStringLiteral("--run-dir") << runDir;
        if (mode == Mode::DryRun) args << QStringLiteral("--dry-run");
        if (resume && mode == Mode::Train) args << QStringLiteral("--resume");
        break;
    }
    if (threads > 0 && mode != Mode::Export) args << QStringLiteral("--threads") << QString::number(threads);
    if (!device.isEmpty() && mode != Mode::Export && mode != Mode::Predict)
        args << QStringLiteral("--device") << device;
    if (mode == Mode::Train && !initWeights.isEmpty()) args << QStringLiteral("--init-weights") << initWeights;
    if ((mode == Mode::Train || mode == Mode::DryRun) && !dataPath.isEmpty())
        args << QStringLiteral("--data-path") << dataPath;
    if ((mode == Mode::Train || mode == Mode::Calibrate) && nproc > 1)
        args << QStringLiteral("--nproc") << QString::number(nproc);
    args << extraArguments;
    return args;
}

QStringList EngineCommand::commandLine() const { return QStringList{enginePath} + arguments(); }

} // namespace diamond::remote
