#include "ui/gallery/gallery_detail_view.h"

#include "ui/gallery/gallery_model.h"

#include <QDesktopServices>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedLayout>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {

QString esc(const QString &s) { return s.toHtmlEscaped(); }

QString jsonText(const QJsonValue &v) {
    if (v.isString()) return v.toString();
    if (v.isDouble()) return QString::number(v.toDouble(), 'g', 6);
    if (v.isBool()) return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isArray()) return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    if (v.isObject()) return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    return {};
}

QString shapeText(const QJsonArray &shape) {
    QStringList dims;
    for (const QJsonValue &d : shape)
        dims << (d.isString() ? d.toString() : QString::number(d.toInteger()));
    return dims.join(QStringLiteral(" × "));
}

QString row(const QString &key, const QString &value, bool mono = false) {
    if (value.isEmpty()) return {};
    return QStringLiteral("<tr><td style='padding-right:14px'><b>%1</b></td><td>%2</td></tr>")
        .arg(esc(key), mono ? QStringLiteral("<code>%1</code>").arg(esc(value)) : esc(value));
}

/// The model card: Markdown from the package, so untrusted. Raw HTML in it is not interpreted, nothing is loaded
/// from outside (images, style sheets) and a link opens only after the user has read its address and agreed.
class CardBrowser : public QTextBrowser {
public:
    explicit CardBrowser(QWidget *parent) : QTextBrowser(parent) {
        setOpenLinks(false);
        setOpenExternalLinks(false);
        connect(this, &QTextBrowser::anchorClicked, this, &CardBrowser::confirmLink);
    }

    QVariant loadResource(int, const QUrl &) override { return {}; }

private:
    void confirmLink(const QUrl &url) {
        const QString scheme = url.scheme().toLower();
        if (scheme != QLatin1String("http") && scheme != QLatin1String("https")) {
            QMessageBox::information(this, GalleryDetailView::tr("Link not opened"),
                                     GalleryDetailView::tr("The model card links to\n\n%1\n\nDiamond opens only web "
                                                           "links (http, https) from model cards.")
                                         .arg(url.toString()));
            return;
        }
        if (QMessageBox::question(this, GalleryDetailView::tr("Open link"),
                                  GalleryDetailView::tr("Open this address from the model card in your browser?\n\n%1")
                                      .arg(url.toString(QUrl::FullyEncoded))) == QMessageBox::Yes)
            QDesktopServices::openUrl(url);
    }
};

} // namespace

/// Markdown of an untrusted card for QTextDocument: no raw HTML.
void GalleryDetailView::setCardMarkdown(QTextBrowser *browser, const QString &markdown) {
    browser->document()->setMarkdown(markdown, QTextDocument::MarkdownFeatures(QTextDocument::MarkdownDialectGitHub |
                                                                               QTextDocument::MarkdownNoHTML));
}

GalleryDetailView::GalleryDetailView(QWidget *parent) : QWidget(parent) {
    auto *stack = new QStackedLayout(this);
    placeholder_ = new QLabel(this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setTextFormat(Qt::PlainText);
    placeholder_->setWordWrap(true);
    stack->addWidget(placeholder_);

    content_ = new QWidget(this);
    auto *layout = new QVBoxLayout(content_);
    layout->setContentsMargins(8, 8, 8, 8);
    auto *header = new QHBoxLayout;
    thumbnail_ = new QLabel(content_);
    thumbnail_->setFixedSize(112, 112);
    thumbnail_->setAlignment(Qt::AlignCenter);
    thumbnail_->setFrameShape(QFrame::StyledPanel);
    header->addWidget(thumbnail_, 0, Qt::AlignTop);
    auto *titles = new QVBoxLayout;
    title_ = new QLabel(content_);
    title_->setObjectName(QStringLiteral("galleryDetailTitle"));
    QFont big = title_->font();
    big.setPointSizeF(big.pointSizeF() * 1.5);
    big.setBold(true);
    title_->setFont(big);
    title_->setTextFormat(Qt::PlainText); // titles come from packages: never rich text
    title_->setWordWrap(true);
    title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    titles->addWidget(title_);
    subtitle_ = new QLabel(content_);
    subtitle_->setTextFormat(Qt::PlainText);
    subtitle_->setWordWrap(true);
    subtitle_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    titles->addWidget(subtitle_);
    auto *badgeRow = new QHBoxLayout;
    badge_ = new QLabel(content_);
    badge_->setObjectName(QStringLiteral("galleryVerifiedBadge"));
    badgeRow->addWidget(badge_);
    metric_ = new QLabel(content_);
    metric_->setTextFormat(Qt::PlainText);
    QFont metricFont = metric_->font();
    metricFont.setPointSizeF(metricFont.pointSizeF() * 1.2);
    metricFont.setBold(true);
    metric_->setFont(metricFont);
    badgeRow->addWidget(metric_);
    badgeRow->addStretch(1);
    titles->addLayout(badgeRow);
    // The signature under the header, full width (a key fingerprint is long), the Trust button on its own line.
    auto *signatureRow = new QVBoxLayout;
    signature_ = new QLabel(content_);
    signature_->setObjectName(QStringLiteral("gallerySignature"));
    signature_->setTextFormat(Qt::PlainText);
    signature_->setWordWrap(true);
    signature_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    signatureRow->addWidget(signature_);
    trust_ = new QPushButton(content_);
    trust_->setObjectName(QStringLiteral("galleryTrustButton"));
    signatureRow->addWidget(trust_, 0, Qt::AlignLeft);

    titles->addStretch(1);
    header->addLayout(titles, 1);
    layout->addLayout(header);
    layout->addLayout(signatureRow);

    auto *buttons = new QGridLayout;
    import_ = new QPushButton(tr("&Download and import"), content_);
    import_->setObjectName(QStringLiteral("galleryImportButton"));
    import_->setToolTip(tr("Download the package, check it, re-run its test inputs and add it to this workspace"));
    export_ = new QPushButton(tr("&Export package…"), content_);
    export_->setObjectName(QStringLiteral("galleryExportButton"));
    open_ = new QPushButton(tr("Open in &designer"), content_);
    open_->setObjectName(QStringLiteral("galleryOpenButton"));
    fineTune_ = new QPushButton(tr("&Fine-tune…"), content_);
    fineTune_->setObjectName(QStringLiteral("galleryFineTuneButton"));
    remove_ = new QPushButton(tr("&Remove"), content_);
    remove_->setObjectName(QStringLiteral("galleryRemoveButton"));
    buttons->addWidget(import_, 0, 0, 1, 2);
    buttons->addWidget(open_, 1, 0);
    buttons->addWidget(fineTune_, 1, 1);
    buttons->addWidget(export_, 2, 0);
    buttons->addWidget(remove_, 2, 1);
    layout->addLayout(buttons);

    progress_ = new QProgressBar(content_);
    progress_->setObjectName(QStringLiteral("galleryProgress"));
    progress_->setRange(0, 100);
    progress_->setValue(0);
    progress_->setVisible(false);
    layout->addWidget(progress_);
    status_ = new QLabel(content_);
    status_->setObjectName(QStringLiteral("galleryStatus"));
    status_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setVisible(false);
    layout->addWidget(status_);

    tabs_ = new QTabWidget(content_);
    card_ = new CardBrowser(tabs_);
    card_->setObjectName(QStringLiteral("galleryCard"));
    interface_ = new QTextBrowser(tabs_);
    interface_->setObjectName(QStringLiteral("galleryInterface"));
    provenance_ = new QTextBrowser(tabs_);
    provenance_->setObjectName(QStringLiteral("galleryProvenance"));
    tabs_->addTab(card_, tr("Model card"));
    tabs_->addTab(interface_, tr("Interface and metrics"));
    tabs_->addTab(provenance_, tr("Provenance and files"));
    layout->addWidget(tabs_, 1);
    stack->addWidget(content_);
    clear();
}

void GalleryDetailView::clear(const QString &message) {
    entryId_ = 0;
    placeholder_->setText(message.isEmpty() ? tr("Select a model to see its card.") : message);
    static_cast<QStackedLayout *>(layout())->setCurrentWidget(placeholder_);
    progress_->setVisible(false);
    status_->setVisible(false);
}

void GalleryDetailView::showEntry(const app::gallery::GalleryEntry &e, bool remote) {
    const bool same = e.id == entryId_ && remote == remote_;
    entryId_ = e.id;
    remote_ = remote;
    consistent_ = e.consistent;
    publisher_ = e.publisher;
    fingerprint_ = e.fingerprint;
    trusted_ = e.trusted;
    title_->setText(e.title.isEmpty() ? e.name : e.title);
    QStringList parts{e.name};
    if (!e.version.isEmpty()) parts << tr("version %1").arg(e.version);
    if (!e.license.isEmpty()) parts << e.license;
    const QStringList authors = [&] {
        QStringList a;
        for (const QJsonValue &v : e.manifest.value(QStringLiteral("authors")).toArray())
            a << v.toString();
        return a;
    }();
    if (!authors.isEmpty()) parts << tr("by %1").arg(authors.join(QStringLiteral(", ")));
    QString sub = parts.join(QStringLiteral(" · "));
    if (!e.tags.isEmpty()) sub += QLatin1Char('\n') + tr("Tags: %1").arg(e.tags.join(QStringLiteral(", ")));
    subtitle_->setText(sub);
    updateBadge();
    metric_->setText(e.keyMetric ? QStringLiteral("%1  %2").arg(GalleryModel::metricText(e.keyMetricName, *e.keyMetric),
                                                                e.keyMetricName)
                                 : QString());
    thumbnail_->clear();
    if (!e.thumbnail.isEmpty()) setThumbnail(e.thumbnail);
    setCardMarkdown(card_, e.card.isEmpty() ? tr("*This model has no card.*") : e.card);
    interface_->setHtml(interfaceHtml(e.manifest));
    provenance_->setHtml(provenanceHtml(e.manifest, e.packageSha256));
    if (!same) {
        progress_->setVisible(false);
        status_->setVisible(false);
    }
    updateButtons();
    static_cast<QStackedLayout *>(layout())->setCurrentWidget(content_);
}

void GalleryDetailView::setThumbnail(const QByteArray &png) {
    QImage image = QImage::fromData(png, "PNG");
    if (image.isNull()) return;
    thumbnail_->setPixmap(QPixmap::fromImage(
        image.scaled(thumbnail_->size() - QSize(4, 4), Qt::KeepAspectRatio, Qt::SmoothTransformation)));
}

void GalleryDetailView::setBusy(bool busy) {
    busy_ = busy;
    updateButtons();
}

void GalleryDetailView::setStatus(const QString &text, bool error) {
    status_->setText(text);
    status_->setVisible(!text.isEmpty());
    QPalette pal = palette();
    if (error) pal.setColor(QPalette::WindowText, QColor(198, 40, 40));
    status_->setPalette(pal);
}

void GalleryDetailView::updateButtons() {
    import_->setVisible(remote_);
    remove_->setVisible(!remote_);
    for (QPushButton *b : {import_, export_, open_, fineTune_, remove_})
        b->setEnabled(!busy_ && entryId_ > 0);
    trust_->setVisible(!remote_ && !fingerprint_.isEmpty());
    trust_->setEnabled(!busy_ && entryId_ > 0);
    trust_->setText(trusted_ ? tr("Stop &trusting") : tr("&Trust this publisher"));
    trust_->setToolTip(trusted_ ? tr("Remove %1's key from this gallery's trust list").arg(publisher_)
                                : tr("Add %1's key (%2) to this gallery's trust list").arg(publisher_, fingerprint_));
    fineTune_->setEnabled(!busy_ && entryId_ > 0 && !remote_);
    fineTune_->setToolTip(remote_ ? tr("Import the model into this workspace first")
                                  : tr("Start a training run from these weights"));
}

void GalleryDetailView::updateBadge() {
    const auto pillStyle = [](const char *background) {
        return QStringLiteral("QLabel { background: %1; color: white; border-radius: 6px; padding: 2px 8px;"
                              " font-weight: bold; }")
            .arg(QLatin1String(background));
    };
    badge_->setText(consistent_ ? tr("✓ Consistent") : tr("Not consistent"));
    badge_->setToolTip(consistent_
                           ? tr("The test inputs were re-run through the engine and reproduce the outputs "
                                "stored in the package. This shows the package agrees with itself, not who "
                                "made it: see the signature.")
                           : tr("The test inputs did not reproduce the stored outputs, or could not be re-run."));
    badge_->setStyleSheet(pillStyle(consistent_ ? "#2e7d32" : "#757575"));
    // The key shortened as "SHA256:Z9gdCSGH…V3APM" (the whole of it in the tooltip and the Trust dialog).
    const QString key =
        fingerprint_.size() > 24 ? fingerprint_.left(15) + QChar(0x2026) + fingerprint_.right(6) : fingerprint_;
    if (fingerprint_.isEmpty()) {
        signature_->setText(tr("Unsigned: nothing says who made this package."));
        signature_->setToolTip({});
        signature_->setStyleSheet({});
    } else if (trusted_) {
        signature_->setText(tr("✓ Signed by %1, a publisher you trust (key %2)").arg(publisher_, key));
        signature_->setToolTip(tr("Key %1").arg(fingerprint_));
        signature_->setStyleSheet(QStringLiteral("QLabel { color: #1565c0; font-weight: bold; }"));
    } else {
        signature_->setText(tr("Signed by \"%1\", not on your trust list (key %2)").arg(publisher_, key));
        signature_->setToolTip(tr("Key %1\nAnyone can sign with any name. Trust the key only if its owner gave you "
                                  "the same fingerprint (diamondctl gallery key prints it).")
                                   .arg(fingerprint_));
        signature_->setStyleSheet(QStringLiteral("QLabel { color: #e65100; }"));
    }
}

void GalleryDetailView::changeEvent(QEvent *event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && status_) status_->setPalette(palette());
}

QString GalleryDetailView::interfaceHtml(const QJsonObject &m) {
    QString html;
    auto ports = [&html](const QString &heading, const QJsonArray &list) {
        html += QStringLiteral("<h3>%1</h3>").arg(esc(heading));
        if (list.isEmpty()) {
            html += QStringLiteral("<p>%1</p>").arg(esc(tr("none listed")));
            return;
        }
        html += QStringLiteral("<table cellspacing='0' cellpadding='5'><tr><th align='left'>%1</th>"
                               "<th align='left'>%2</th><th align='left'>%3</th><th align='left'>%4</th></tr>")
                    .arg(esc(tr("Name")), esc(tr("Type")), esc(tr("Shape")), esc(tr("Axes")));
        for (const QJsonValue &v : list) {
            const QJsonObject o = v.toObject();
            QStringList axes;
            for (const QJsonValue &a : o.value(QStringLiteral("axes")).toArray())
                axes << a.toString();
            html += QStringLiteral("<tr><td><code>%1</code></td><td>%2</td><td>%3</td><td>%4</td></tr>")
                        .arg(esc(o.value(QStringLiteral("name")).toString()),
                             esc(o.value(QStringLiteral("dtype")).toString()),
                             esc(shapeText(o.value(QStringLiteral("shape")).toArray())),
                             esc(axes.join(QStringLiteral(", "))));
        }
        html += QStringLiteral("</table>");
    };
    ports(tr("Inputs"), m.value(QStringLiteral("inputs")).toArray());
    ports(tr("Outputs"), m.value(QStringLiteral("outputs")).toArray());
    html += QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='5'>").arg(esc(tr("Metrics")));
    const QJsonObject metrics = m.value(QStringLiteral("metrics")).toObject();
    for (auto it = metrics.begin(); it != metrics.end(); ++it)
        html += row(it.key(), jsonText(it.value()));
    html += QStringLiteral("</table>");
    if (metrics.isEmpty()) html += QStringLiteral("<p>%1</p>").arg(esc(tr("none recorded")));
    const QJsonObject training = m.value(QStringLiteral("training")).toObject();
    if (!training.isEmpty())
        html += QStringLiteral("<h3>%1</h3><pre>%2</pre>")
                    .arg(esc(tr("Training configuration")), esc(QString::fromUtf8(QJsonDocument(training).toJson())));
    return html;
}

QString GalleryDetailView::provenanceHtml(const QJsonObject &m, const QString &packageSha256) {
    const QJsonObject p = m.value(QStringLiteral("provenance")).toObject();
    const QJsonObject hw = p.value(QStringLiteral("hardware")).toObject();
    QString html = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='5'>").arg(esc(tr("Provenance")));
    html +=
        row(tr("Run"), p.contains(QStringLiteral("run_id")) ? tr("%1 (\"%2\")")
                                                                  .arg(jsonText(p.value(QStringLiteral("run_id"))),
                                                                       p.value(QStringLiteral("run_name")).toString())
                                                            : QString());
    html += row(tr("Project"), p.value(QStringLiteral("project")).toString());
    html += row(tr("Started"), p.value(QStringLiteral("started_at")).toString());
    html += row(tr("Finished"), p.value(QStringLiteral("finished_at")).toString());
    if (p.value(QStringLiteral("compute_hours")).isDouble()) {
        const double hours = p.value(QStringLiteral("compute_hours")).toDouble();
        html += row(tr("Compute"), hours >= 1.0          ? tr("%1 hours").arg(hours, 0, 'f', 1)
                                   : hours * 60.0 >= 1.0 ? tr("%1 minutes").arg(hours * 60.0, 0, 'f', 1)
                                                         : tr("%1 seconds").arg(hours * 3600.0, 0, 'f', 1));
    }
    html += row(tr("Device"), hw.value(QStringLiteral("device")).toString());
    html += row(tr("Threads"), jsonText(hw.value(QStringLiteral("threads"))));
    html += row(
        tr("Machine"),
        QStringList{hw.value(QStringLiteral("cpu_arch")).toString(), hw.value(QStringLiteral("os")).toString()}.join(
            QStringLiteral(", ")));
    html += row(tr("Engine"), m.value(QStringLiteral("engine_version")).toString());
    html += row(tr("libtorch"), m.value(QStringLiteral("libtorch_version")).toString());
    html += row(tr("Diamond"), p.value(QStringLiteral("diamond_version")).toString());
    html += row(tr("Published"), p.value(QStringLiteral("published_at")).toString());
    html += row(tr("Citation"), m.value(QStringLiteral("citation")).toString());
    html += QStringLiteral("</table>");
    const QJsonObject dataset = m.value(QStringLiteral("dataset")).toObject();
    if (!dataset.isEmpty()) {
        html += QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='5'>").arg(esc(tr("Dataset")));
        html += row(tr("Reference"), dataset.value(QStringLiteral("reference")).toString());
        html += row(dataset.value(QStringLiteral("sha256_of")).toString() == QLatin1String("file")
                        ? tr("SHA-256 of the file")
                        : tr("SHA-256 of the data configuration"),
                    dataset.value(QStringLiteral("sha256")).toString(), true);
        html += QStringLiteral("</table>");
    }
    html += QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='5'>").arg(esc(tr("Files (SHA-256)")));
    html += row(tr("Package"), packageSha256, true);
    const QJsonObject files = m.value(QStringLiteral("files")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it)
        html += row(it.key(), it.value().toString(), true);
    html += QStringLiteral("</table>");
    return html;
}

} // namespace diamond::ui
