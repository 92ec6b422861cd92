// ClusterManagerPage: layout, the profile list and the form (load, edit, validate, save). The cluster actions
// (test, probe, jobs, prompts) are in cluster_manager_actions.cpp.
#include "ui/cluster/cluster_manager_page.h"

#include "app/cluster/cluster_store.h"
#include "app/workspace/workspace.h"
#include "ui/cluster/cluster_models.h"
#include "ui/cluster/cluster_overview_view.h"
#include "ui/cluster/sign_in_prompter.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFont>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace diamond::ui {

namespace {

const char *kInvalidProperty = "clusterFieldInvalid";

QString joinEnvironment(const QMap<QString, QString> &env) {
    QStringList lines;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        lines << it.key() + QLatin1Char('=') + it.value();
    return lines.join(QLatin1Char('\n'));
}

} // namespace

ClusterManagerPage::ClusterManagerPage(QWidget *parent)
    : QWidget(parent), m_ownLinks(std::make_unique<app::ClusterLinks>()), m_ownPrompter(new SignInPrompter(this)),
      m_prompter(m_ownPrompter), m_profiles(new ClusterProfilesModel(this)), m_partitions(new PartitionsModel(this)),
      m_jobs(new JobQueueModel(this)), m_queueTimer(new QTimer(this)) {
    setObjectName(QStringLiteral("clusterManagerPage"));
    m_ownLinks->setPrompter(m_prompter);
    connect(m_prompter, &SignInPrompter::status, this, [this](const QString &t) { setStatus(t); });
    m_queueTimer->setInterval(10000);
    connect(m_queueTimer, &QTimer::timeout, this, [this] { refreshQueue(); });
    m_client = new app::ClusterClient(m_ownLinks.get(), this);
    connectClient();
    connect(m_partitions, &PartitionsModel::edited, this, &ClusterManagerPage::markModified);
    m_loading = true; // widgets emit change signals while they are set up
    buildUi();
    m_overview->setLinks(m_client->links());
    m_loading = false;
    addProfile();
    m_modified = false;
    updateActions();
}

void ClusterManagerPage::connectClient() {
    connect(m_client, &app::ClusterClient::progress, this, [this](int, const QString &message) { setStatus(message); });
    connect(m_client, &app::ClusterClient::testFinished, this, &ClusterManagerPage::onTestFinished);
    connect(m_client, &app::ClusterClient::probeFinished, this, &ClusterManagerPage::onProbeFinished);
    connect(m_client, &app::ClusterClient::calibrateFinished, this, &ClusterManagerPage::onCalibrateFinished);
    connect(m_client, &app::ClusterClient::deployFinished, this, &ClusterManagerPage::onDeployFinished);
    connect(m_client, &app::ClusterClient::queueFinished, this, &ClusterManagerPage::onQueueFinished);
    connect(m_client, &app::ClusterClient::cancelFinished, this, [this](int id, bool ok, const QString &error) {
        if (id != m_cancelRequest) return;
        m_cancelRequest = 0;
        m_jobsStatus->setText(ok ? tr("Job cancelled.") : tr("Cancel failed: %1").arg(error));
        updateActions();
        Q_EMIT jobCancelled(ok);
        refreshQueue();
    });
}

void ClusterManagerPage::setLinks(app::ClusterLinks *links, SignInPrompter *prompter) {
    delete m_client; // requests in flight are dropped with it
    m_testRequest = m_probeRequest = m_queueRequest = m_cancelRequest = m_calibrateRequest = m_deployRequest = 0;
    m_client = new app::ClusterClient(links ? links : m_ownLinks.get(), this);
    connectClient();
    m_overview->setLinks(m_client->links());
    if (m_prompter != m_ownPrompter) disconnect(m_prompter, nullptr, this, nullptr);
    m_prompter = links && prompter ? prompter : m_ownPrompter;
    if (m_prompter != m_ownPrompter)
        connect(m_prompter, &SignInPrompter::status, this, [this](const QString &t) { setStatus(t); });
    updateActions();
}

QMessageBox *ClusterManagerPage::hostKeyDialog() const { return m_prompter ? m_prompter->hostKeyDialog() : nullptr; }

ClusterManagerPage::~ClusterManagerPage() = default;

QWidget *ClusterManagerPage::field(QWidget *editor, const QString &key) {
    auto *box = new QWidget;
    auto *v = new QVBoxLayout(box);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    v->addWidget(editor);
    auto *error = new QLabel;
    error->setObjectName(QStringLiteral("fieldError_") + key);
    error->setWordWrap(true);
    error->setStyleSheet(QStringLiteral("color: #b3261e; font-weight: 600;"));
    error->hide();
    v->addWidget(error);
    m_fieldErrors.insert(key, error);
    m_fieldEditors.insert(key, editor);
    editor->setObjectName(key);
    return box;
}

void ClusterManagerPage::buildUi() {
    QFont base = font(); // readable on a projector
    base.setPointSizeF(base.pointSizeF() * 1.12);
    setFont(base);
    setStyleSheet(QStringLiteral("*[clusterFieldInvalid=\"true\"] { border: 2px solid #b3261e; border-radius: 3px; }"
                                 "QGroupBox { font-weight: 600; }"));
    auto *split = new QSplitter(Qt::Horizontal);
    split->addWidget(buildListPane());
    m_tabs = new QTabWidget;
    m_tabs->addTab(buildProfileTab(), tr("Profile"));
    m_jobsTab = buildJobsTab();
    m_tabs->addTab(m_jobsTab, tr("Jobs"));
    m_overview = new ClusterOverviewView;
    m_tabs->addTab(m_overview, tr("All clusters"));
    m_jobsTab->installEventFilter(this);
    split->addWidget(m_tabs);
    split->setStretchFactor(1, 1);
    split->setSizes({250, 1150});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split);
}

QWidget *ClusterManagerPage::buildListPane() {
    auto *pane = new QWidget;
    auto *v = new QVBoxLayout(pane);
    v->setContentsMargins(0, 0, 0, 0);
    auto *header = new QLabel(tr("Clusters"));
    QFont f = header->font();
    f.setPointSizeF(f.pointSizeF() * 1.3);
    f.setBold(true);
    header->setFont(f);
    v->addWidget(header);
    m_list = new QListView;
    m_list->setObjectName(QStringLiteral("clusterList"));
    m_list->setModel(m_profiles);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setSpacing(3);
    m_list->setIconSize(QSize(24, 24));
    v->addWidget(m_list, 1);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { onCurrentRowChanged(current.row()); });
    auto *buttons = new QHBoxLayout;
    m_addButton = new QPushButton(tr("Add"));
    m_addButton->setObjectName(QStringLiteral("addCluster"));
    m_duplicateButton = new QPushButton(tr("Duplicate"));
    m_removeButton = new QPushButton(tr("Remove"));
    m_addButton->setToolTip(tr("Start a new cluster profile"));
    m_duplicateButton->setToolTip(tr("Start a new profile from a copy of this one"));
    m_removeButton->setToolTip(tr("Remove this profile from the workspace"));
    for (auto *b : {m_addButton, m_duplicateButton, m_removeButton})
        buttons->addWidget(b);
    v->addLayout(buttons);
    connect(m_addButton, &QPushButton::clicked, this, &ClusterManagerPage::addProfile);
    connect(m_duplicateButton, &QPushButton::clicked, this, &ClusterManagerPage::duplicateProfile);
    connect(m_removeButton, &QPushButton::clicked, this, [this] { removeProfile(true); });
    return pane;
}

QWidget *ClusterManagerPage::buildProfileTab() {
    auto *tab = new QWidget;
    auto *outer = new QVBoxLayout(tab);
    m_title = new QLabel;
    QFont tf = m_title->font();
    tf.setPointSizeF(tf.pointSizeF() * 1.3);
    tf.setBold(true);
    m_title->setFont(tf);
    outer->addWidget(m_title);
    m_errorBanner = new QLabel;
    m_errorBanner->setObjectName(QStringLiteral("errorBanner"));
    m_errorBanner->setWordWrap(true);
    m_errorBanner->setTextFormat(Qt::PlainText);
    m_errorBanner->setStyleSheet(QStringLiteral(
        "background: #fdecea; color: #8c1d18; border: 1px solid #e6a19b; border-radius: 4px; padding: 6px;"));
    m_errorBanner->hide();
    outer->addWidget(m_errorBanner);

    auto mark = [this](auto *w) {
        if constexpr (std::is_same_v<std::remove_pointer_t<decltype(w)>, QLineEdit>)
            connect(w, &QLineEdit::textEdited, this, &ClusterManagerPage::markModified);
        else if constexpr (std::is_same_v<std::remove_pointer_t<decltype(w)>, QSpinBox>)
            connect(w, &QSpinBox::valueChanged, this, &ClusterManagerPage::markModified);
        else if constexpr (std::is_same_v<std::remove_pointer_t<decltype(w)>, QComboBox>)
            connect(w, &QComboBox::currentIndexChanged, this, &ClusterManagerPage::markModified);
        else
            connect(w, &QPlainTextEdit::textChanged, this, &ClusterManagerPage::markModified);
        return w;
    };

    // Left column: connection and deployment.
    auto *connection = new QGroupBox(tr("Connection"));
    auto *cf = new QFormLayout(connection);
    cf->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_name = mark(new QLineEdit);
    m_name->setPlaceholderText(tr("e.g. hpc"));
    m_host = mark(new QLineEdit);
    m_host->setPlaceholderText(tr("login.cluster.example, or \"local\" for this computer"));
    m_port = mark(new QSpinBox);
    m_port->setRange(1, 65535);
    m_user = mark(new QLineEdit);
    m_user->setPlaceholderText(tr("your user name on the cluster"));
    m_identity = mark(new QLineEdit);
    m_identity->setPlaceholderText(tr("~/.ssh/id_ed25519 (empty: ssh-agent)"));
    m_knownHosts = mark(new QLineEdit);
    m_knownHosts->setPlaceholderText(tr("empty: ~/.ssh/known_hosts"));
    cf->addRow(tr("Name"), field(m_name, QStringLiteral("name")));
    cf->addRow(tr("Host"), field(m_host, QStringLiteral("host")));
    cf->addRow(tr("Port"), field(m_port, QStringLiteral("port")));
    cf->addRow(tr("User"), field(m_user, QStringLiteral("user")));
    cf->addRow(tr("Identity file"), field(m_identity, QStringLiteral("identity_file")));
    cf->addRow(tr("Known hosts file"), field(m_knownHosts, QStringLiteral("known_hosts_file")));

    auto *deployment = new QGroupBox(tr("Deployment"));
    auto *df = new QFormLayout(deployment);
    df->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_scratch = mark(new QLineEdit);
    m_scratch->setPlaceholderText(tr("/scratch/you/diamond"));
    m_engine = mark(new QLineEdit);
    m_engine->setPlaceholderText(tr("path of diamond-train on the cluster"));
    m_modules = mark(new QLineEdit);
    m_modules->setPlaceholderText(tr("cuda/12.1, nccl (comma separated)"));
    m_runtime = mark(new QComboBox);
    for (auto r : {app::ContainerRuntime::None, app::ContainerRuntime::Apptainer, app::ContainerRuntime::Singularity,
                   app::ContainerRuntime::Podman, app::ContainerRuntime::Docker})
        m_runtime->addItem(r == app::ContainerRuntime::None ? tr("none (bare engine)") : app::containerRuntimeName(r),
                           app::containerRuntimeName(r));
    m_image = mark(new QLineEdit);
    m_image->setPlaceholderText(tr(".sif path or image reference"));
    m_containerOptions = mark(new QLineEdit);
    m_containerOptions->setPlaceholderText(tr("extra runtime arguments, space separated"));
    m_containerCommand = mark(new QLineEdit);
    m_containerCommand->setPlaceholderText(tr("empty: the runtime's name on PATH"));
    m_environment = mark(new QPlainTextEdit);
    m_environment->setPlaceholderText(tr("NAME=value, one per line"));
    m_environment->setMaximumHeight(72);
    df->addRow(tr("Scratch folder"), field(m_scratch, QStringLiteral("scratch_dir")));
    df->addRow(tr("Engine path"), field(m_engine, QStringLiteral("engine_path")));
    df->addRow(tr("Modules"), field(m_modules, QStringLiteral("modules")));
    df->addRow(tr("Container runtime"), field(m_runtime, QStringLiteral("container.runtime")));
    df->addRow(tr("Container image"), field(m_image, QStringLiteral("container.image")));
    df->addRow(tr("Container options"), field(m_containerOptions, QStringLiteral("container.options")));
    df->addRow(tr("Container program"), field(m_containerCommand, QStringLiteral("container.command")));
    df->addRow(tr("Environment"), field(m_environment, QStringLiteral("environment")));
    m_deployButton = new QPushButton(tr("Deploy engine"));
    m_deployButton->setObjectName(QStringLiteral("deployEngineButton"));
    m_deployButton->setToolTip(tr("Put a working diamond-train on the cluster and use it in this profile"));
    auto *deployMenu = new QMenu(m_deployButton);
    QAction *bundle = deployMenu->addAction(tr("Copy this computer's engine (CPU nodes)"));
    bundle->setObjectName(QStringLiteral("deployBundleAction"));
    bundle->setToolTip(tr("The engine and its libraries go into the scratch folder (about 200 MB)"));
    QAction *image = deployMenu->addAction(tr("Build an Apptainer image there (GPU nodes)"));
    image->setObjectName(QStringLiteral("deployContainerAction"));
    image->setToolTip(tr("Built from source against PyTorch with CUDA, as a job on the selected partition"));
    deployMenu->setToolTipsVisible(true);
    m_deployButton->setMenu(deployMenu);
    connect(bundle, &QAction::triggered, this, [this] { deployEngine(false); });
    connect(image, &QAction::triggered, this, [this] { deployEngine(true); });
    df->addRow(QString(), m_deployButton);

    // Right column: scheduler, partitions, connection test.
    auto *scheduler = new QGroupBox(tr("Scheduler"));
    auto *sv = new QVBoxLayout(scheduler);
    auto *sf = new QFormLayout;
    m_scheduler = mark(new QComboBox);
    for (auto k : {app::SchedulerKind::Slurm, app::SchedulerKind::Pbs, app::SchedulerKind::None})
        m_scheduler->addItem(k == app::SchedulerKind::Slurm ? tr("Slurm")
                             : k == app::SchedulerKind::Pbs ? tr("PBS")
                                                            : tr("none (run directly)"),
                             app::schedulerKindName(k));
    m_account = mark(new QLineEdit);
    m_account->setPlaceholderText(tr("project to charge (optional)"));
    sf->addRow(tr("Scheduler"), field(m_scheduler, QStringLiteral("scheduler")));
    sf->addRow(tr("Account"), field(m_account, QStringLiteral("account")));
    m_gpuDirective = mark(new QComboBox);
    m_gpuDirective->addItem(tr("--gpus-per-node (Slurm 19.05 and later)"), QStringLiteral("gpus-per-node"));
    m_gpuDirective->addItem(tr("--gres=gpu (older sites)"), QStringLiteral("gres"));
    sf->addRow(tr("GPU request"), field(m_gpuDirective, QStringLiteral("gpu_directive")));
    sv->addLayout(sf);
    m_partitionsView = new QTableView;
    m_partitionsView->setObjectName(QStringLiteral("partitionsView"));
    m_partitionsView->setModel(m_partitions);
    m_partitionsView->verticalHeader()->hide();
    m_partitionsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_partitionsView->horizontalHeader()->setStretchLastSection(true);
    m_partitionsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_partitionsView->setAlternatingRowColors(true);
    m_partitionsView->setMinimumHeight(110);
    sv->addWidget(new QLabel(tr("Partitions")));
    sv->addWidget(field(m_partitionsView, QStringLiteral("partitions")), 1);
    auto *pb = new QHBoxLayout;
    m_addPartition = new QPushButton(tr("Add partition"));
    m_removePartition = new QPushButton(tr("Remove partition"));
    m_probeButton = new QPushButton(tr("Probe partitions"));
    m_probeButton->setToolTip(tr("Read the partitions from the scheduler (sinfo / scontrol, qstat)"));
    pb->addWidget(m_addPartition);
    pb->addWidget(m_removePartition);
    pb->addStretch(1);
    pb->addWidget(m_probeButton);
    m_calibrateButton = new QPushButton(tr("Calibrate"));
    m_calibrateButton->setObjectName(QStringLiteral("calibrateButton"));
    m_calibrateButton->setToolTip(tr("Measure a node of the selected partition (a short srun job, about a minute) so "
                                     "that plans predict step times there"));
    pb->addWidget(m_calibrateButton);
    sv->addLayout(pb);
    connect(m_addPartition, &QPushButton::clicked, this, [this] {
        const int row = m_partitions->appendPartition();
        m_partitionsView->edit(m_partitions->index(row, PartitionsModel::Name));
    });
    connect(m_removePartition, &QPushButton::clicked, this,
            [this] { m_partitions->removePartition(m_partitionsView->currentIndex().row()); });
    connect(m_probeButton, &QPushButton::clicked, this, [this] { probe(); });
    connect(m_calibrateButton, &QPushButton::clicked, this, [this] { calibrate(); });

    auto *test = new QGroupBox(tr("Connection test"));
    auto *tv = new QVBoxLayout(test);
    m_checks = new QTreeWidget;
    m_checks->setObjectName(QStringLiteral("checksView"));
    m_checks->setHeaderLabels({tr("Check"), tr("Result")});
    m_checks->setRootIsDecorated(false);
    m_checks->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_checks->setWordWrap(true);
    m_checks->setMinimumHeight(90);
    tv->addWidget(m_checks);

    auto *columns = new QHBoxLayout;
    auto *left = new QVBoxLayout;
    left->addWidget(connection);
    left->addWidget(deployment);
    left->addStretch(1);
    auto *right = new QVBoxLayout;
    right->addWidget(scheduler, 3);
    right->addWidget(test, 2);
    columns->addLayout(left, 4);
    columns->addLayout(right, 5);
    auto *content = new QWidget;
    content->setLayout(columns);
    auto *scroll = new QScrollArea;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll, 1);

    auto *bar = new QHBoxLayout;
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(140);
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("statusLine"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testButton = new QPushButton(tr("Test connection"));
    m_revertButton = new QPushButton(tr("Revert"));
    m_saveButton = new QPushButton(tr("Save"));
    m_saveButton->setDefault(true);
    bar->addWidget(m_busy);
    bar->addWidget(m_status, 1);
    bar->addWidget(m_testButton);
    bar->addWidget(m_revertButton);
    bar->addWidget(m_saveButton);
    outer->addLayout(bar);
    connect(m_testButton, &QPushButton::clicked, this, [this] { testConnection(); });
    connect(m_revertButton, &QPushButton::clicked, this, &ClusterManagerPage::revert);
    connect(m_saveButton, &QPushButton::clicked, this, &ClusterManagerPage::save);
    return tab;
}

bool ClusterManagerPage::setWorkspaceFolder(const QString &folder) {
    m_store.reset();
    m_workspace.reset();
    if (!folder.isEmpty()) {
        auto ws = std::make_unique<app::Workspace>();
        if (!ws->open(folder)) {
            setStatus(tr("Cannot open the workspace %1: %2").arg(folder, ws->errorString()), true);
            reloadProfiles();
            return false;
        }
        m_workspace = std::move(ws);
        m_store = std::make_unique<app::ClusterStore>(*m_workspace);
    }
    reloadProfiles();
    if (m_profiles->rowCount() > 0)
        m_list->setCurrentIndex(m_profiles->index(0));
    else
        addProfile();
    m_modified = false;
    updateActions();
    return true;
}

QString ClusterManagerPage::workspaceFolder() const { return m_workspace ? m_workspace->path() : QString(); }

QStringList ClusterManagerPage::clusterNames() const { return m_profiles->names(); }

QStringList ClusterManagerPage::gpuTypes(const QString &cluster) const {
    const int row = m_profiles->rowOf(cluster);
    QStringList types;
    if (row < 0) return types;
    for (const auto &partition : m_profiles->profileAt(row).partitions)
        if (!partition.gpuType.isEmpty() && !types.contains(partition.gpuType)) types << partition.gpuType;
    return types;
}

void ClusterManagerPage::reloadProfiles(const QString &select) {
    const QStringList before = m_profiles->names();
    QList<app::ClusterProfile> profiles;
    if (m_store) {
        profiles = m_store->profiles();
        if (!m_store->errorString().isEmpty()) setStatus(m_store->errorString(), true);
    }
    m_overview->setProfiles(profiles);
    m_loading = true;
    m_profiles->setProfiles(profiles);
    const int row = m_profiles->rowOf(select);
    if (row >= 0) m_list->setCurrentIndex(m_profiles->index(row));
    m_loading = false;
    if (m_profiles->names() != before) Q_EMIT profilesChanged(m_profiles->names());
}

bool ClusterManagerPage::selectProfile(const QString &name) {
    const int row = m_profiles->rowOf(name);
    if (row < 0) return false;
    m_list->setCurrentIndex(m_profiles->index(row));
    onCurrentRowChanged(row); // also when it already was current
    return true;
}

void ClusterManagerPage::onCurrentRowChanged(int row) {
    if (m_loading || row < 0 || row >= m_profiles->rowCount()) return;
    const app::ClusterProfile &p = m_profiles->profileAt(row);
    if (p.name == m_originalName && !m_modified) return;
    showProfile(p, p.name);
}

void ClusterManagerPage::showProfile(const app::ClusterProfile &p, const QString &originalName) {
    // Results of requests for the profile shown before are dropped when they arrive.
    m_testRequest = m_probeRequest = m_queueRequest = m_cancelRequest = m_calibrateRequest = m_deployRequest = 0;
    m_refreshButton->setEnabled(true);
    m_loading = true;
    m_originalName = originalName;
    m_original = p;
    m_name->setText(p.name);
    m_host->setText(p.host);
    m_port->setValue(p.port);
    m_user->setText(p.user);
    m_identity->setText(p.identityFile);
    m_knownHosts->setText(p.knownHostsFile);
    m_scheduler->setCurrentIndex(m_scheduler->findData(app::schedulerKindName(p.scheduler)));
    m_account->setText(p.account);
    m_partitions->setPartitions(p.partitions);
    m_modules->setText(p.modules.join(QStringLiteral(", ")));
    m_runtime->setCurrentIndex(m_runtime->findData(app::containerRuntimeName(p.container.runtime)));
    m_image->setText(p.container.image);
    m_containerOptions->setText(p.container.options.join(QLatin1Char(' ')));
    m_containerCommand->setText(p.container.command);
    m_gpuDirective->setCurrentIndex(std::max(0, m_gpuDirective->findData(p.gpuDirective)));
    m_scratch->setText(p.scratchDir);
    m_engine->setText(p.enginePath);
    m_environment->setPlainText(joinEnvironment(p.environment));
    m_loading = false;
    m_modified = false;
    clearErrors();
    m_checks->clear();
    m_jobs->setJobs({});
    m_jobsStatus->clear();
    if (originalName.isEmpty()) {
        m_list->selectionModel()->clearSelection();
        m_list->setCurrentIndex({});
    }
    updateActions();
}

app::ClusterProfile ClusterManagerPage::editedProfile(QString *error) const {
    app::ClusterProfile p;
    p.name = m_name->text().trimmed();
    p.host = m_host->text().trimmed();
    p.port = m_port->value();
    p.user = m_user->text().trimmed();
    p.identityFile = m_identity->text().trimmed();
    p.knownHostsFile = m_knownHosts->text().trimmed();
    p.scheduler = app::schedulerKindFromName(m_scheduler->currentData().toString()).value_or(app::SchedulerKind::Slurm);
    p.account = m_account->text().trimmed();
    p.partitions = m_partitions->partitions();
    for (const QString &m : m_modules->text().split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts))
        p.modules << m;
    p.container.runtime =
        app::containerRuntimeFromName(m_runtime->currentData().toString()).value_or(app::ContainerRuntime::None);
    p.container.image = m_image->text().trimmed();
    p.container.options = m_containerOptions->text().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    p.container.command = m_containerCommand->text().trimmed();
    p.gpuDirective = m_gpuDirective->currentData().toString();
    p.scratchDir = m_scratch->text().trimmed();
    p.enginePath = m_engine->text().trimmed();
    const QStringList lines = m_environment->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        const QString line = lines[i].trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) continue;
        const int eq = line.indexOf(QLatin1Char('='));
        if (eq <= 0) {
            if (error && error->isEmpty())
                *error = tr("environment: line %1 (\"%2\") is not NAME=value").arg(i + 1).arg(line);
            continue;
        }
        p.environment.insert(line.left(eq).trimmed(), line.mid(eq + 1).trimmed());
    }
    return p;
}

void ClusterManagerPage::setEditedProfile(const app::ClusterProfile &profile) {
    const QString original = m_originalName;
    const app::ClusterProfile stored = m_original;
    showProfile(profile, original);
    m_original = stored;
    m_modified = true;
    updateActions();
}

void ClusterManagerPage::addProfile() {
    app::ClusterProfile p;
    int n = 1;
    do
        p.name = QStringLiteral("cluster%1").arg(n++);
    while (m_profiles->rowOf(p.name) >= 0);
    p.user = qEnvironmentVariable("USER");
    showProfile(p, QString());
    m_title->setText(tr("New cluster (not saved)"));
    m_name->setFocus();
    m_name->selectAll();
}

void ClusterManagerPage::duplicateProfile() {
    app::ClusterProfile p = editedProfile();
    QString base = p.name + QStringLiteral("-copy");
    p.name = base;
    for (int n = 2; m_profiles->rowOf(p.name) >= 0; ++n)
        p.name = base + QString::number(n);
    showProfile(p, QString());
    m_modified = true;
    m_title->setText(tr("New cluster (copy, not saved)"));
    updateActions();
}

bool ClusterManagerPage::removeProfile(bool ask) {
    if (m_originalName.isEmpty() || !m_store) return false;
    if (ask && QMessageBox::question(this, tr("Remove cluster"),
                                     tr("Remove the cluster profile \"%1\" from this workspace?\nRuns already sent "
                                        "to it are kept.")
                                         .arg(m_originalName)) != QMessageBox::Yes)
        return false;
    if (!m_store->remove(m_originalName)) {
        showError(m_store->errorString());
        return false;
    }
    const QString removed = m_originalName;
    m_originalName.clear();
    reloadProfiles();
    if (m_profiles->rowCount() > 0)
        selectProfile(m_profiles->profileAt(0).name);
    else
        addProfile();
    setStatus(tr("Removed the cluster \"%1\".").arg(removed));
    return true;
}

bool ClusterManagerPage::validProfile(app::ClusterProfile *out) {
    clearErrors();
    QString error;
    *out = editedProfile(&error);
    if (error.isEmpty()) error = out->validate();
    if (error.isEmpty()) return true;
    showError(error);
    return false;
}

bool ClusterManagerPage::save() {
    app::ClusterProfile p;
    if (!validProfile(&p)) return false;
    if (!m_store) {
        showError(tr("No workspace is open: the profile cannot be stored."));
        return false;
    }
    bool ok = false;
    if (m_originalName.isEmpty()) {
        ok = m_store->add(p);
    } else if (m_originalName == p.name) {
        ok = m_store->update(p);
    } else { // rename: the new row first, so a taken name leaves the old one untouched
        ok = m_store->add(p) && m_store->remove(m_originalName);
    }
    if (!ok) {
        const QString message = m_store->errorString();
        showError(message.contains(p.name) ? QStringLiteral("name: ") + message : message);
        return false;
    }
    m_originalName = p.name;
    m_original = p;
    m_modified = false;
    reloadProfiles(p.name);
    setStatus(tr("Saved the cluster \"%1\".").arg(p.name));
    updateActions();
    return true;
}

void ClusterManagerPage::revert() {
    if (m_originalName.isEmpty())
        addProfile();
    else
        showProfile(m_original, m_originalName);
}

void ClusterManagerPage::markModified() {
    if (m_loading) return;
    m_modified = true;
    updateActions();
}

void ClusterManagerPage::clearErrors() {
    m_errorBanner->hide();
    for (auto it = m_fieldErrors.cbegin(); it != m_fieldErrors.cend(); ++it) {
        it.value()->hide();
        it.value()->clear();
    }
    for (QWidget *w : std::as_const(m_fieldEditors)) {
        if (!w->property(kInvalidProperty).toBool()) continue;
        w->setProperty(kInvalidProperty, false);
        w->setStyleSheet({});
    }
}

/// `message` is "field: problem" (ClusterProfile::validate, the stores) or a plain sentence. The problem is shown
/// under its field (marked red) and in the banner above the form.
void ClusterManagerPage::showError(const QString &message) {
    const int colon = message.indexOf(QStringLiteral(": "));
    QString key = colon > 0 ? message.left(colon) : QString();
    key.remove(QRegularExpression(QStringLiteral("\\[\\d+\\].*$"))); // partitions[0].name -> partitions
    if (key.startsWith(QLatin1String("environment."))) key = QStringLiteral("environment");
    QLabel *label = m_fieldErrors.value(key);
    QWidget *editor = m_fieldEditors.value(key);
    if (label && editor) {
        label->setText(message);
        label->show();
        editor->setProperty(kInvalidProperty, true);
        editor->setStyleSheet(QStringLiteral("border: 2px solid #b3261e; border-radius: 3px;"));
        editor->setFocus();
    }
    m_errorBanner->setText(tr("Cannot save: %1").arg(message));
    m_errorBanner->show();
    setStatus(message, true);
}

QString ClusterManagerPage::fieldError(const QString &field) const {
    const QLabel *label = m_fieldErrors.value(field);
    return label && !label->isHidden() ? label->text() : QString();
}

void ClusterManagerPage::setStatus(const QString &text, bool error, bool success) {
    m_status->setText(text);
    m_status->setToolTip({});
    m_status->setStyleSheet(error     ? QStringLiteral("color: #b3261e; font-weight: 600;")
                            : success ? QStringLiteral("color: #1b7f3b; font-weight: 600;")
                                      : QString());
}

QString ClusterManagerPage::statusText() const { return m_status->text(); }

void ClusterManagerPage::updateActions() {
    const bool stored = !m_originalName.isEmpty();
    const QString name = m_name->text().trimmed();
    m_title->setText(stored ? (m_modified ? tr("%1 (modified)").arg(name) : name) : tr("New cluster (not saved)"));
    m_removeButton->setEnabled(stored);
    m_duplicateButton->setEnabled(true);
    m_saveButton->setEnabled(m_store && (m_modified || !stored));
    m_revertButton->setEnabled(m_modified);
    const bool testing = m_testRequest != 0, probing = m_probeRequest != 0, calibrating = m_calibrateRequest != 0;
    m_testButton->setEnabled(!testing);
    m_probeButton->setEnabled(!probing);
    m_calibrateButton->setEnabled(!calibrating && stored && !m_modified);
    const bool deploying = m_deployRequest != 0;
    m_deployButton->setEnabled(!deploying && stored && !m_modified);
    m_busy->setVisible(testing || probing || calibrating || deploying);
    m_removePartition->setEnabled(m_partitions->rowCount() > 0);
    m_cancelJobButton->setEnabled(m_cancelRequest == 0 && m_jobsView->currentIndex().isValid());
}

bool ClusterManagerPage::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_jobsTab && (event->type() == QEvent::Show || event->type() == QEvent::Hide))
        QTimer::singleShot(0, this, &ClusterManagerPage::updateQueueTimer);
    return QWidget::eventFilter(watched, event);
}

} // namespace diamond::ui
