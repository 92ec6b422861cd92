#include "ui/run/run_recommendation_view.h"

#include "ui/run/job_chain_chart.h"

#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace diamond::ui {

namespace {

QString duration(double seconds) {
    if (seconds < 90) return RunRecommendationView::tr("%n second(s)", "", int(std::ceil(seconds)));
    if (seconds < 5400) return RunRecommendationView::tr("%n minute(s)", "", int(std::lround(seconds / 60)));
    if (seconds < 172800) return RunRecommendationView::tr("%1 hours").arg(seconds / 3600, 0, 'f', 1);
    return RunRecommendationView::tr("%1 days").arg(seconds / 86400, 0, 'f', 1);
}

QString stepTime(double seconds) {
    return seconds < 1 ? RunRecommendationView::tr("%1 ms").arg(seconds * 1000, 0, 'f', seconds < 0.01 ? 2 : 1)
                       : RunRecommendationView::tr("%1 s").arg(seconds, 0, 'f', 2);
}

} // namespace

RunRecommendationView::RunRecommendationView(QWidget *parent) : QWidget(parent) {
    setObjectName(QStringLiteral("runRecommendation"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    label_ = new QLabel(this);
    label_->setObjectName(QStringLiteral("recommendationLabel"));
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label_);
    chart_ = new JobChainChart(this);
    layout->addWidget(chart_);
    apply_ = new QPushButton(tr("&Use these settings"), this);
    apply_->setObjectName(QStringLiteral("useRecommendation"));
    apply_->setToolTip(tr("Copy the recommended processes, time limit, chain and checkpoint interval into the form"));
    measure_ = new QPushButton(tr("&Measure processes"), this);
    measure_->setObjectName(QStringLiteral("measureWidth"));
    measure_->setToolTip(tr("Train a few seconds with 1, 2, 4 … processes on this computer and recommend from the "
                            "measured times instead of the predicted ones"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(apply_);
    buttons->addWidget(measure_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(apply_, &QPushButton::clicked, this, [this] {
        if (!advice_.plan.isEmpty()) Q_EMIT applyRequested(advice_.plan);
    });
    connect(measure_, &QPushButton::clicked, this, [this] {
        setMeasuring(true);
        Q_EMIT measureRequested();
    });
    clear();
}

void RunRecommendationView::clear(const QString &message) { setAdvice(RunAdvice{{}, message, false}); }

void RunRecommendationView::setAdvice(const RunAdvice &advice) {
    advice_ = advice;
    label_->setText(text());
    chart_->setPlan(advice.plan);
    // One job on this computer has no time limit to draw against: the chart is for cluster chains.
    chart_->setVisible(!advice.plan.isEmpty() &&
                       advice.plan.value(QStringLiteral("target")).toString() != QLatin1String("local"));
    apply_->setVisible(!advice.plan.isEmpty());
    measure_->setVisible(!advice.plan.isEmpty() &&
                         advice.plan.value(QStringLiteral("target")).toString() == QLatin1String("local"));
}

void RunRecommendationView::setMeasuring(bool measuring) {
    measure_->setEnabled(!measuring);
    measure_->setText(measuring ? tr("Measuring processes…") : tr("&Measure processes"));
}

QString RunRecommendationView::text() const {
    const QJsonObject &plan = advice_.plan;
    if (plan.isEmpty())
        return advice_.message.isEmpty() ? QString()
                                         : QStringLiteral("<p><i>%1</i></p>").arg(advice_.message.toHtmlEscaped());
    const QLocale locale;
    const QString partition = plan.value(QStringLiteral("partition")).toString();
    const bool cluster = plan.value(QStringLiteral("target")).toString() != QLatin1String("local");
    const int ranks = plan.value(QStringLiteral("ranks")).toInt(1);
    const int jobs = plan.value(QStringLiteral("jobs")).toInt(1);
    const QString where =
        !cluster ? tr("this computer")
        : partition.isEmpty()
            ? plan.value(QStringLiteral("target")).toString().toHtmlEscaped()
            : tr("%1, partition %2")
                  .arg(plan.value(QStringLiteral("target")).toString().toHtmlEscaped(), partition.toHtmlEscaped());
    QString jobsText;
    if (cluster)
        jobsText = tr("%n job(s) of %1", "", jobs).arg(duration(plan.value(QStringLiteral("time_limit_s")).toDouble()));
    else
        jobsText = tr("one run on this computer, no time limit");
    const QJsonArray measuredWidths = plan.value(QStringLiteral("measured_widths")).toArray();
    QString measuredText;
    for (const QJsonValue &w : measuredWidths)
        measuredText += tr("<br><small>Measured: %n process(es)", "", w[QStringLiteral("ranks")].toInt()) +
                        tr(" of %n thread(s): %1 per step</small>", "", w[QStringLiteral("threads_per_rank")].toInt())
                            .arg(stepTime(w[QStringLiteral("measured_step_s")].toDouble()));
    QString others;
    int unfit = 0;
    for (const QJsonValue &v : plan.value(QStringLiteral("options")).toArray())
        if (!v.toObject().value(QStringLiteral("fits_memory")).toBool(true)) ++unfit;
    if (unfit > 0) others = tr("<br><small>%n option(s) do not fit in memory.</small>", "", unfit);
    const QString threads = measuredWidths.isEmpty()
                                ? QString()
                                : tr(" of %n thread(s)", "", plan.value(QStringLiteral("threads_per_rank")).toInt(1));
    // The finish includes the queue wait once the scheduler estimated it (asked in the background).
    QString finish;
    if (plan.contains(QStringLiteral("queue_wait_s")))
        finish = tr("<b>%1</b>, of which %2 waiting in the queue (the scheduler's estimate)")
                     .arg(duration(plan.value(QStringLiteral("predicted_finish_s")).toDouble()),
                          duration(plan.value(QStringLiteral("queue_wait_s")).toDouble()));
    else if (cluster)
        finish = tr("<b>%1</b>, queue waits not included")
                     .arg(duration(plan.value(QStringLiteral("predicted_total_s")).toDouble()));
    else
        finish = tr("<b>%1</b>").arg(duration(plan.value(QStringLiteral("predicted_total_s")).toDouble()));
    QString memory = tr("%1 MiB per process")
                         .arg(locale.toString(
                             plan.value(QStringLiteral("predicted_peak_memory_bytes")).toDouble() / 1048576.0, 'f', 1));
    const QString sharding = plan.value(QStringLiteral("sharding")).toString();
    if (sharding == QLatin1String("optimizer"))
        memory += tr(", with the optimizer state split over the processes");
    else if (sharding == QLatin1String("gradients"))
        memory += tr(", with the optimizer state and the gradients split over the processes");
    if (const QJsonObject stages = plan.value(QStringLiteral("pipeline")).toObject(); !stages.isEmpty()) {
        QStringList cut;
        for (const QJsonValue &id : stages.value(QStringLiteral("cut")).toArray())
            cut << id.toString();
        memory += tr(", each process holding one of %1 pipeline stages (cut after %2; %3 micro-batches)")
                      .arg(stages.value(QStringLiteral("stages")).toInt())
                      .arg(cut.join(QStringLiteral(", ")))
                      .arg(stages.value(QStringLiteral("micro_batches")).toInt());
    }
    if (plan.value(QStringLiteral("recompute")).toString() == QLatin1String("all"))
        memory += tr(", recomputing every layer's activations in backward");
    else if (plan.value(QStringLiteral("recompute")).toString() == QLatin1String("auto"))
        memory += tr(", recomputing in backward the layers that keep the activations within %1 MiB")
                      .arg(locale.toString(plan.value(QStringLiteral("activation_budget_mb")).toDouble(), 'f', 0));
    return tr("<b>Recommended:</b> %1, <b>%n process(es)</b>", "", ranks).arg(where) + threads +
           tr("<table>"
              "<tr><td>Per step</td><td><b>%1</b> (%8; %2 measured here in the dry run)</td></tr>"
              "<tr><td>To finish</td><td>%3</td></tr>"
              "<tr><td>Memory</td><td>%4</td></tr>"
              "<tr><td>Jobs</td><td>%5; checkpoint every %6 steps</td></tr>"
              "<tr><td>Confidence</td><td>%7</td></tr></table>")
               .arg(stepTime(plan.value(QStringLiteral("predicted_step_s")).toDouble()),
                    stepTime(plan.value(QStringLiteral("measured_step_s_here")).toDouble()), finish, memory, jobsText,
                    locale.toString(plan.value(QStringLiteral("checkpoint_every_steps")).toDouble(), 'f', 0),
                    plan.value(QStringLiteral("confidence")).toString().toHtmlEscaped(),
                    measuredWidths.isEmpty() ? tr("predicted") : tr("measured")) +
           measuredText + others;
}

} // namespace diamond::ui
