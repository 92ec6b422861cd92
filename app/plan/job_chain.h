// The long-job planner: from a run's total steps, its predicted step time, the partition's time limit, the measured
// checkpoint cost and a failure rate, how the run is cut into chained scheduler jobs (docs/planning.md):
//   - checkpoint interval: Young/Daly's sqrt(2 * C * MTBF), lengthened where checkpoints would cost more than
//     `maxCheckpointOverhead` of the compute time, shortened to fit a job;
//   - signal lead (Slurm --signal=USR1@S): the time to finish the step in flight and write a checkpoint, plus a margin,
//     rounded up to whole minutes (Slurm may deliver the signal up to a minute early);
//   - time limit per job and number of jobs: each job starts (queue, engine start-up, resume), computes, checkpoints
//     on the signal and ends; the chain is submitted up front and every link resumes from the newest checkpoint.
// Pure arithmetic, no I/O: the planner's unit tests pin it.
#pragma once

#include <QJsonObject>
#include <QString>

namespace diamond::app {

struct JobChainInputs {
    qint64 totalSteps = 0;                ///< steps the run still has to do
    double stepSeconds = 0;               ///< predicted seconds per step
    double maxTimeLimitSeconds = 0;       ///< the partition's longest job; 0 = no limit (one job)
    double checkpointSeconds = 1;         ///< measured (or predicted) cost of writing one checkpoint
    double mtbfSeconds = 7 * 86400.0;     ///< mean time between failures of the job's nodes together
    double startupSeconds = 60;           ///< per job: engine start-up and reading the checkpoint back
    double signalMarginSeconds = 30;      ///< added to the signal lead on top of one step and one checkpoint
    double maxCheckpointOverhead = 0.035; ///< checkpoint time / compute time, at most (CheckFreq's 3.5 %)
    double predictionSlack = 1.25;        ///< a one-job run asks for this multiple of its predicted time
};

struct JobChainPlan {
    bool ok = false;
    QString error;                   ///< why no plan (e.g. the time limit leaves no room to compute)
    int jobs = 1;                    ///< scheduler jobs in the chain
    double timeLimitSeconds = 0;     ///< per job, whole minutes
    qint64 checkpointEverySteps = 0; ///< steps between checkpoints
    double checkpointIntervalSeconds = 0;
    double youngDalySeconds = 0;   ///< the unconstrained optimum sqrt(2 C MTBF)
    double checkpointOverhead = 0; ///< checkpoint time / compute time at the chosen interval
    double signalSeconds = 0;      ///< --signal=USR1@this, whole minutes
    qint64 stepsPerJob = 0;        ///< steps one full job computes
    double computeSeconds = 0;     ///< totalSteps * stepSeconds
    double predictedSeconds = 0;   ///< compute + checkpoints + per-job start-up, queue waits excluded
    double startupSeconds = 0;     ///< per job (the input)
    double checkpointSeconds = 0;  ///< one checkpoint (the input)
    QJsonObject toJson() const;
};

JobChainPlan planJobChain(const JobChainInputs &in);

} // namespace diamond::app
