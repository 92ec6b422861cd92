<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>diamond::app</name>
    <message>
        <source>Cannot read %1.</source>
        <translation>无法读取 %1。</translation>
    </message>
    <message>
        <source>%1 is not a JSON object: %2</source>
        <translation>%1 不是 JSON 对象：%2</translation>
    </message>
    <message>
        <source>No examples are built into this Diamond (:/examples is empty).</source>
        <translation>此版本的 Diamond 未内置示例（:/examples 为空）。</translation>
    </message>
    <message>
        <source>Small networks that train in seconds; press Train to try one.</source>
        <translation>几秒钟即可训练完成的小型网络；点击“训练”试试看。</translation>
    </message>
    <message>
        <source>Could not add the examples to the new workspace: %1</source>
        <translation>无法将示例添加到新工作区：%1</translation>
    </message>
    <message>
        <source>Cannot read the schema version of %1: %2</source>
        <translation>无法读取 %1 的数据库结构版本：%2</translation>
    </message>
    <message>
        <source>%1 has schema version %2, but this Diamond only knows versions up to %3; it was written by a newer Diamond. Update Diamond to open it. The file was not modified.</source>
        <translation>%1 的数据库结构版本为 %2，而此版本的 Diamond 只支持到 %3；该文件由更新版本的 Diamond 写入。请更新 Diamond 后再打开。文件未被修改。</translation>
    </message>
    <message>
        <source>Cannot lock %1 for migration: %2</source>
        <translation>无法锁定 %1 以进行迁移：%2</translation>
    </message>
    <message>
        <source>Cannot read the schema version of %1</source>
        <translation>无法读取 %1 的数据库结构版本</translation>
    </message>
    <message>
        <source>Migration %1 (%2) of %3 failed: %4</source>
        <translation>%3 的迁移 %1（%2）失败：%4</translation>
    </message>
</context>
<context>
    <name>diamond::app::LocalExecutor</name>
    <message>
        <source>Run %1 is already running.</source>
        <translation>运行 %1 已在运行中。</translation>
    </message>
    <message>
        <source>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</source>
        <translation>找不到训练引擎 %1（请将 DIAMOND_TRAIN 设为其路径）。</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::MetricIngestor</name>
    <message>
        <source>Cannot store metrics of run %1: %2</source>
        <translation>无法保存运行 %1 的指标：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunManager</name>
    <message>
        <source>resumed</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>Run %1 is %2; only a draft or queued run can be started.</source>
        <translation>运行 %1 处于%2状态；只能启动草稿或排队中的运行。</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>diamond-train exited with code %1.</source>
        <translation>diamond-train 以退出码 %1 结束。</translation>
    </message>
    <message>
        <source>reattached</source>
        <translation>已重新连接</translation>
    </message>
    <message>
        <source>engine process lost</source>
        <translation>引擎进程丢失</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunStore</name>
    <message>
        <source>A project needs a name.</source>
        <translation>项目需要一个名称。</translation>
    </message>
    <message>
        <source>A project named &quot;%1&quot; already exists.</source>
        <translation>名为“%1”的项目已存在。</translation>
    </message>
    <message>
        <source>Cannot create project &quot;%1&quot;: %2</source>
        <translation>无法创建项目“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot create architecture &quot;%1&quot;: %2</source>
        <translation>无法创建网络结构“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot find architecture &quot;%1&quot;.</source>
        <translation>找不到网络结构“%1”。</translation>
    </message>
    <message>
        <source>Cannot store the architecture: %1</source>
        <translation>无法保存网络结构：%1</translation>
    </message>
    <message>
        <source>No architecture version %1.</source>
        <translation>不存在网络结构版本 %1。</translation>
    </message>
    <message>
        <source>Cannot create run &quot;%1&quot;: %2</source>
        <translation>无法创建运行“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot create the run folder %1.</source>
        <translation>无法创建运行文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot write the files of run %1 in %2.</source>
        <translation>无法在 %2 中写入运行 %1 的文件。</translation>
    </message>
    <message>
        <source>No run %1.</source>
        <translation>不存在运行 %1。</translation>
    </message>
    <message>
        <source>Run %1 has an unknown state &quot;%2&quot;.</source>
        <translation>运行 %1 的状态“%2”未知。</translation>
    </message>
    <message>
        <source>Run %1 cannot go from %2 to %3.</source>
        <translation>运行 %1 不能从 %2 转为 %3。</translation>
    </message>
    <message>
        <source>Cannot store metrics of run %1: %2</source>
        <translation>无法保存运行 %1 的指标：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::Workspace</name>
    <message>
        <source>No Diamond workspace at %1 (no %2 there).</source>
        <translation>%1 处没有 Diamond 工作区（缺少 %2）。</translation>
    </message>
    <message>
        <source>Cannot create a workspace at %1: it is a file, not a folder.</source>
        <translation>无法在 %1 创建工作区：它是文件而不是文件夹。</translation>
    </message>
    <message>
        <source>Cannot create the workspace folder %1.</source>
        <translation>无法创建工作区文件夹 %1。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Cannot configure %1: %2</source>
        <translation>无法配置 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a readable SQLite database.</source>
        <translation>%1 不是可读取的 SQLite 数据库。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::MainWindow</name>
    <message>
        <source>Diamond</source>
        <translation>Diamond</translation>
    </message>
    <message>
        <source>&lt;h1&gt;Welcome to Diamond&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;欢迎使用 Diamond&lt;/h1&gt;</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Diamond</source>
        <translation>关于 Diamond(&amp;A)</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>Nothing here yet.</source>
        <translation>这里还没有内容。</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>属性</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>About Diamond</source>
        <translation>关于 Diamond</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Diamond %1&lt;/h3&gt;&lt;p&gt;Train neural networks on your laptop or an HPC cluster without learning the cluster.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Diamond %1&lt;/h3&gt;&lt;p&gt;无需学习集群知识，即可在笔记本电脑或高性能计算集群上训练神经网络。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Draw a network, press Train, and watch the loss fall.</source>
        <translation>绘制网络，点击“训练”，看着损失下降。</translation>
    </message>
    <message>
        <source>Could not open the workspace: %1</source>
        <translation>无法打开工作区：%1</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
</context>
<context>
    <name>diamond::ui::WorkspacePanel</name>
    <message>
        <source>Draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>已抢占</translation>
    </message>
    <message>
        <source>Resumed</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation><numerusform>%n 个运行</numerusform></translation>
    </message>
</context>
</TS>
