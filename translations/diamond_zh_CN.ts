<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
        <source>Draw a network, press Train, and watch the loss fall.&lt;br&gt;Start from a template with &lt;b&gt;File → New from Template&lt;/b&gt;.</source>
        <translation>绘制网络，点击“训练”，看着损失下降。&lt;br&gt;可通过&lt;b&gt;文件 → 从模板新建&lt;/b&gt;开始。</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>欢迎</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
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
</context>
</TS>
