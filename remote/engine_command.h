// The diamond-train command line, built in one place for every launcher: the local executor, trial packs,
// cluster job scripts (inside or outside a container), dry-run plans, exports, the gallery's re-runs and calibration.
// docs/events-protocol.md lists the engine's options; this is their only writer.
#pragma once

#include <QString>
#include <QStringList>

namespace diamond::remote {

struct EngineCommand {
    enum class Mode {
        Train,      ///< diamond-train --spec S --config C --run-dir D [--resume] ...
        DryRun,     ///< the same with --dry-run: check everything, time a few steps, print the plan
        Pack,       ///< diamond-train pack --trials FILE (trial packing, docs/trial-packing.md)
        Export,     ///< diamond-train export --spec S --run-dir D [--out DIR] [--samples N]
        Predict,    ///< diamond-train predict --spec S --weights W --inputs I --output O
        ListArrays, ///< diamond-train arrays FILE (inputsFile): the arrays of an HDF5 or NPZ file as JSON
        Calibrate,  ///< diamond-train calibrate --dir D (runDir) [--nproc N]: a device profile (docs/planning.md)
    };
    Mode mode = Mode::Train;
    QString enginePath;  ///< the program; arguments() leaves it out, commandLine() puts it first
    QString specPath;    ///< Train, DryRun, Export, Predict
    QString configPath;  ///< Train, DryRun
    QString runDir;      ///< Train, DryRun, Export; Calibrate: --dir (where the checkpoint-write probe writes)
    QString trialsFile;  ///< Pack
    QString outDir;      ///< Export: --out when set
    int samples = 0;     ///< Export: --samples (test inputs written with the export) when > 0
    QString weightsFile; ///< Predict
    QString inputsFile;  ///< Predict; ListArrays: the HDF5 or NPZ file
    QString outputFile;  ///< Predict
    bool resume = false; ///< Train: continue from the newest checkpoint
    int threads = 0;     ///< --threads when > 0
    int nproc = 1;       ///< Train, Calibrate: local data-parallel ranks (--nproc when > 1)
    QString device;      ///< --device when set ("cpu", "cuda", "cuda:1")
    QString initWeights; ///< Train: --init-weights (a safetensors file to start from)
    QString dataPath;    ///< Train, DryRun: --data-path (where the run's registered dataset is on the host)
    QStringList extraArguments;

    /// The arguments after the program, in a fixed order.
    QStringList arguments() const;
    /// enginePath followed by arguments().
    QStringList commandLine() const;
};

} // namespace diamond::remote
