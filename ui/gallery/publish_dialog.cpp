#include "ui/gallery/publish_dialog.h"

#include "app/background.h"
#include "app/gallery/package_signature.h"
#include "app/run/run_store.h"
#include "app/workspace/workspace.h"

#include "diamond/spec/analysis.h"
#include "diamond/spec/spec.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {

struct Prefill {
    QString error;
    QString name, card;
    QJsonObject sharedManifest, privateManifest;
    QString signingNote;
};

struct PublishResult {
    qint64 entryId = 0;
    bool consistent = false;
    QString message, code;
};

QStringList splitList(const QString &text) {
    QStringList out;
    for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty()) out << part.trimmed();
    return out;
}

QString shapeText(const diamond::spec::Shape &shape) {
    QStringList dims;
    for (auto d : shape)
        dims << (d == diamond::spec::kBatch ? QStringLiteral("N") : QString::number(d));
    return QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", ")));
}

} // namespace

QString PublishDialog::draftCard(const QString &title, const QString &projectName, const app::Run &run,
                                 const QByteArray &specJson, const QJsonObject &training) {
    QString card = QStringLiteral("# %1\n\n").arg(title);
    const QJsonObject specObject = QJsonDocument::fromJson(specJson).object();
    const QString description = specObject.value(QStringLiteral("description")).toString();
    if (!description.isEmpty()) card += description + QStringLiteral("\n\n");
    card += tr("Trained in Diamond (project \"%1\", run %2 \"%3\"), finished %4.")
                .arg(projectName)
                .arg(run.id)
                .arg(run.name, run.finishedAt) +
            QStringLiteral("\n\n");
    card += QStringLiteral("## ") + tr("Interface") + QStringLiteral("\n\n");
    const spec::ParseResult parsed = spec::parseSpec(std::string_view(specJson.constData(), size_t(specJson.size())));
    if (parsed.ok()) {
        const spec::Analysis analysis = spec::analyze(parsed.spec);
        for (const auto &in : parsed.spec.inputs)
            card += tr("- Input `%1`: %2 %3")
                        .arg(QString::fromStdString(in.name), QString::fromStdString(spec::dtypeName(in.dtype)),
                             shapeText(in.shape)) +
                    QLatin1Char('\n');
        for (const auto &out : parsed.spec.outputs) {
            const spec::TensorType *t = analysis.portType(out.from);
            card += tr("- Output `%1`: %2 %3")
                        .arg(QString::fromStdString(out.name),
                             t ? QString::fromStdString(spec::dtypeName(t->dtype)) : QString(),
                             t ? shapeText(t->shape) : QString()) +
                    QLatin1Char('\n');
        }
    }
    card += QLatin1Char('\n') + QStringLiteral("## ") + tr("Metrics") + QStringLiteral("\n\n");
    for (auto it = run.finalMetrics.begin(); it != run.finalMetrics.end(); ++it)
        card += QStringLiteral("- %1: %2\n").arg(it.key()).arg(it.value().toDouble(), 0, 'g', 6);
    card += QLatin1Char('\n') + QStringLiteral("## ") + tr("Intended use and limitations") + QStringLiteral("\n\n") +
            tr("*Describe what the model is for, the data it was trained on and where it should not be used.*") +
            QStringLiteral("\n\n");
    card += QStringLiteral("## ") + tr("Training") + QStringLiteral("\n\n```json\n") +
            QString::fromUtf8(QJsonDocument(training).toJson()) + QStringLiteral("```\n");
    return card;
}

PublishDialog::PublishDialog(const QString &workspaceFolder, qint64 runId, QWidget *parent)
    : QDialog(parent), folder_(workspaceFolder), runId_(runId) {
    setWindowTitle(tr("Publish run %1 to the gallery").arg(runId));
    resize(820, 760);
    auto *layout = new QVBoxLayout(this);
    intro_ = new QLabel(tr("Reading run %1…").arg(runId), this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto *form = new QFormLayout;
    name_ = new QLineEdit(this);
    name_->setObjectName(QStringLiteral("publishName"));
    version_ = new QLineEdit(QStringLiteral("1.0.0"), this);
    version_->setObjectName(QStringLiteral("publishVersion"));
    authors_ = new QLineEdit(this);
    authors_->setObjectName(QStringLiteral("publishAuthors"));
    authors_->setPlaceholderText(tr("Ada Lovelace, Alan Turing"));
    license_ = new QComboBox(this);
    license_->setObjectName(QStringLiteral("publishLicense"));
    license_->setEditable(true);
    license_->addItems({QStringLiteral("CC-BY-4.0"), QStringLiteral("CC0-1.0"), QStringLiteral("MIT"),
                        QStringLiteral("Apache-2.0"), QStringLiteral("BSD-3-Clause"), QStringLiteral("GPL-3.0-only")});
    license_->setToolTip(tr("An SPDX license identifier"));
    tags_ = new QLineEdit(this);
    tags_->setObjectName(QStringLiteral("publishTags"));
    tags_->setPlaceholderText(tr("spirals, mlp, teaching"));
    domain_ = new QLineEdit(this);
    domain_->setObjectName(QStringLiteral("publishDomain"));
    domain_->setPlaceholderText(tr("e.g. vision, audio, toy"));
    task_ = new QComboBox(this);
    task_->setObjectName(QStringLiteral("publishTask"));
    task_->setEditable(true);
    task_->addItems({QStringLiteral("classification"), QStringLiteral("regression"), QStringLiteral("segmentation"),
                     QStringLiteral("detection"), QStringLiteral("generation")});
    form->addRow(tr("&Name:"), name_);
    form->addRow(tr("&Version:"), version_);
    form->addRow(tr("&Authors:"), authors_);
    form->addRow(tr("&License:"), license_);
    form->addRow(tr("Ta&gs:"), tags_);
    form->addRow(tr("&Domain:"), domain_);
    form->addRow(tr("&Task:"), task_);
    layout->addLayout(form);

    cardTabs_ = new QTabWidget(this);
    card_ = new QPlainTextEdit(cardTabs_);
    card_->setObjectName(QStringLiteral("publishCard"));
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    card_->setFont(mono);
    preview_ = new QTextBrowser(cardTabs_);
    preview_->setObjectName(QStringLiteral("publishPreview"));
    auto *sharedPage = new QWidget(cardTabs_);
    auto *sharedLayout = new QVBoxLayout(sharedPage);
    sharedLayout->setContentsMargins(0, 4, 0, 0);
    privateDetails_ = new QCheckBox(tr("Include this computer's &details (data file paths, operating system, core "
                                       "count)"),
                                    sharedPage);
    privateDetails_->setObjectName(QStringLiteral("publishPrivateDetails"));
    privateDetails_->setToolTip(tr("Off: the package names data files by their file name only and says nothing "
                                   "about this computer."));
    shared_ = new QTextBrowser(sharedPage);
    shared_->setObjectName(QStringLiteral("publishShared"));
    sharedLayout->addWidget(privateDetails_);
    sharedLayout->addWidget(shared_, 1);
    connect(privateDetails_, &QCheckBox::toggled, this, &PublishDialog::updateShared);
    cardTabs_->addTab(card_, tr("Model card (Markdown)"));
    cardTabs_->addTab(preview_, tr("Preview"));
    cardTabs_->addTab(sharedPage, tr("What is &shared"));
    connect(cardTabs_, &QTabWidget::currentChanged, this, [this](int i) {
        if (i == 1) preview_->setMarkdown(card_->toPlainText());
        if (i == 2) updateShared();
    });
    layout->addWidget(cardTabs_, 1);

    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("publishProgress"));
    progress_->setRange(0, 0); // busy: the engine gives no progress for export and verification
    progress_->setVisible(false);
    layout->addWidget(progress_);
    status_ = new QLabel(this);
    status_->setObjectName(QStringLiteral("publishStatus"));
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(status_);
    buttons_ = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *publishButton = buttons_->addButton(tr("&Publish"), QDialogButtonBox::AcceptRole);
    publishButton->setObjectName(QStringLiteral("publishButton"));
    publishButton->setEnabled(false);
    connect(buttons_, &QDialogButtonBox::accepted, this, &PublishDialog::publish);
    connect(buttons_, &QDialogButtonBox::rejected, this, &PublishDialog::reject);
    layout->addWidget(buttons_);

    QSettings settings;
    authors_->setText(settings.value(QStringLiteral("gallery/authors")).toString());
    license_->setCurrentText(settings.value(QStringLiteral("gallery/license"), QStringLiteral("CC-BY-4.0")).toString());

    app::runInBackground(
        this,
        [folder = folder_, runId] {
            Prefill p;
            app::Workspace ws;
            if (!ws.open(folder)) return p.error = ws.errorString(), p;
            app::RunStore runs(ws);
            const auto run = runs.run(runId);
            if (!run) return p.error = runs.errorString(), p;
            if (run->state != app::RunState::Finished)
                return p.error = tr("Run %1 is %2: only finished runs can be published.")
                                     .arg(runId)
                                     .arg(app::runStateName(run->state)),
                       p;
            QFile f(QDir(ws.runDirectory(runId)).filePath(QStringLiteral("spec.json")));
            const QByteArray specJson = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
            const QString specName =
                QJsonDocument::fromJson(specJson).object().value(QStringLiteral("name")).toString();
            p.name = specName.isEmpty() ? run->name : specName;
            QString project;
            for (const app::Project &pr : runs.projects())
                if (pr.id == run->projectId) project = pr.name;
            app::gallery::GalleryStore gallery(ws);
            app::gallery::PublishOptions shared;
            p.sharedManifest = gallery.previewManifest(runId, shared);
            shared.includePrivateDetails = true;
            p.privateManifest = gallery.previewManifest(runId, shared);
            p.card = draftCard(p.name, project, *run, specJson,
                               p.sharedManifest.value(QStringLiteral("training")).toObject());
            const QString keyPath = app::gallery::defaultPublisherKeyPath();
            QString keyError;
            const auto key =
                QFileInfo::exists(keyPath) ? app::gallery::loadOrCreatePublisherKey(keyPath, &keyError) : std::nullopt;
            p.signingNote = key ? tr("Signed with your publisher key %1 (%2).")
                                      .arg(app::gallery::keyFingerprint(key->publicKey), keyPath)
                            : keyError.isEmpty()
                                ? tr("Signed with a publisher key made for you on first publish (%1).").arg(keyPath)
                                : tr("Your publisher key cannot be used: %1").arg(keyError);
            return p;
        },
        [this, publishButton](const Prefill &p) {
            prefilled_ = true;
            if (!p.error.isEmpty()) {
                intro_->setText(tr("This run cannot be published."));
                showError(p.error);
            } else {
                intro_->setText(tr("The package holds the spec, the weights, test inputs with their expected "
                                   "outputs and this card. Edit the card: it is what others read first."));
                if (name_->text().isEmpty()) name_->setText(p.name);
                if (card_->toPlainText().isEmpty()) card_->setPlainText(p.card);
                sharedManifest_ = p.sharedManifest;
                privateManifest_ = p.privateManifest;
                signingNote_ = p.signingNote;
                updateShared();
                publishButton->setEnabled(true);
            }
            Q_EMIT prefillFinished();
        });
}

app::gallery::PublishOptions PublishDialog::options() const {
    app::gallery::PublishOptions o;
    o.name = name_->text().trimmed();
    o.version = version_->text().trimmed();
    o.authors = splitList(authors_->text());
    o.license = license_->currentText().trimmed();
    o.tags = splitList(tags_->text());
    o.domain = domain_->text().trimmed();
    o.task = task_->currentText().trimmed();
    o.card = card_->toPlainText();
    o.includePrivateDetails = privateDetails_->isChecked();
    return o;
}

void PublishDialog::updateShared() {
    if (sharedManifest_.isEmpty()) return shared_->setPlainText(tr("Reading the run…"));
    QJsonObject m = privateDetails_->isChecked() ? privateManifest_ : sharedManifest_;
    const app::gallery::PublishOptions o = options();
    // What the fields of this dialog change, so that the preview is what will be written.
    for (const auto &[key, value] : {std::pair{"name", o.name},
                                     {"version", o.version},
                                     {"license", o.license},
                                     {"domain", o.domain},
                                     {"task", o.task}})
        if (!value.isEmpty()) m.insert(QLatin1String(key), value);
    m.insert(QStringLiteral("authors"), QJsonArray::fromStringList(o.authors));
    if (!o.tags.isEmpty()) m.insert(QStringLiteral("tags"), QJsonArray::fromStringList(o.tags));
    m.insert(QStringLiteral("card"), tr("(the model card, %n character(s))", "", int(o.card.size())));
    QString html = QStringLiteral("<p>%1</p><ul>").arg(tr("Anyone who receives the package gets:").toHtmlEscaped());
    for (const QString &item :
         {tr("the network (spec.json) and its trained weights (weights.safetensors)"),
          tr("a few test inputs with the outputs this model gives for them (to check the package)"),
          tr("a picture of the architecture and the model card"), tr("the manifest below")})
        html += QStringLiteral("<li>%1</li>").arg(item.toHtmlEscaped());
    html += QStringLiteral("</ul><p>%1</p>").arg(signingNote_.toHtmlEscaped());
    html += QStringLiteral("<p><b>%1</b></p>")
                .arg(privateDetails_->isChecked()
                         ? tr("This computer's details are included: data file paths, operating system and core "
                              "count.")
                               .toHtmlEscaped()
                         : tr("Data files are named by their file name only; nothing about this computer is "
                              "included.")
                               .toHtmlEscaped());
    html += QStringLiteral("<pre>%1</pre>")
                .arg(QString::fromUtf8(QJsonDocument(m).toJson(QJsonDocument::Indented)).toHtmlEscaped());
    const int scroll = shared_->verticalScrollBar() ? shared_->verticalScrollBar()->value() : 0;
    shared_->setHtml(html);
    if (shared_->verticalScrollBar()) shared_->verticalScrollBar()->setValue(scroll);
}

void PublishDialog::showError(const QString &text) {
    error_ = text;
    status_->setStyleSheet(QStringLiteral("color: #c62828;"));
    status_->setText(text);
}

void PublishDialog::setBusy(bool busy, const QString &text) {
    busy_ = busy;
    progress_->setVisible(busy);
    for (QWidget *w : std::initializer_list<QWidget *>{name_, version_, authors_, license_, tags_, domain_, task_,
                                                       card_, privateDetails_})
        w->setEnabled(!busy);
    for (QAbstractButton *b : buttons_->buttons())
        b->setEnabled(!busy);
    status_->setStyleSheet(QString());
    status_->setText(text);
}

void PublishDialog::publish() {
    if (busy_ || !prefilled_) return;
    const app::gallery::PublishOptions o = options();
    if (o.name.isEmpty()) return showError(tr("The name is required.")), name_->setFocus();
    if (o.version.isEmpty()) return showError(tr("The version is required (e.g. 1.0.0).")), version_->setFocus();
    if (o.card.trimmed().isEmpty())
        return showError(tr("The model card is empty: describe the model.")), card_->setFocus();
    error_.clear();
    QSettings settings;
    settings.setValue(QStringLiteral("gallery/authors"), authors_->text().trimmed());
    settings.setValue(QStringLiteral("gallery/license"), o.license);
    setBusy(true, tr("Publishing: the engine exports the weights, then the package's test inputs are re-run to "
                     "verify it…"));
    app::runInBackground(
        this,
        [folder = folder_, runId = runId_, o] {
            PublishResult r;
            app::Workspace ws;
            if (!ws.open(folder)) return r.message = ws.errorString(), r.code = QStringLiteral("workspace"), r;
            app::gallery::GalleryStore store(ws);
            const app::gallery::ImportResult result = store.publishRun(runId, o);
            if (!result.entry) return r.code = store.errorCode(), r.message = store.errorString(), r;
            r.entryId = result.entry->id;
            r.consistent = result.entry->consistent;
            r.message = result.verifyMessage;
            return r;
        },
        [this](const PublishResult &r) {
            setBusy(false);
            if (r.entryId == 0) {
                const QString text = tr("Publishing failed (%1): %2").arg(r.code, r.message);
                showError(text);
                Q_EMIT publishFailed(text);
                return;
            }
            entryId_ = r.entryId;
            Q_EMIT published(r.entryId, r.consistent, r.message);
            accept();
        });
}

void PublishDialog::reject() {
    if (busy_) return; // the engine is working; the dialog closes when it is done
    QDialog::reject();
}

} // namespace diamond::ui
