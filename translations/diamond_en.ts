<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>diamond::ui::MainWindow</name>
    <message>
        <source>Diamond</source>
        <translation>Diamond</translation>
    </message>
    <message>
        <source>&lt;h1&gt;Welcome to Diamond&lt;/h1&gt;</source>
        <translation>&lt;h1&gt;Welcome to Diamond&lt;/h1&gt;</translation>
    </message>
    <message>
        <source>Draw a network, press Train, and watch the loss fall.&lt;br&gt;Start from a template with &lt;b&gt;File → New from Template&lt;/b&gt;.</source>
        <translation>Draw a network, press Train, and watch the loss fall.&lt;br&gt;Start from a template with &lt;b&gt;File → New from Template&lt;/b&gt;.</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>Welcome</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>Ready</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;File</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Quit</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>&amp;Edit</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;View</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>&amp;Help</translation>
    </message>
    <message>
        <source>&amp;About Diamond</source>
        <translation>&amp;About Diamond</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Main</translation>
    </message>
    <message>
        <source>Nothing here yet.</source>
        <translation>Nothing here yet.</translation>
    </message>
    <message>
        <source>Workspace</source>
        <translation>Workspace</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Layers</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>Inspector</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>Runs</translation>
    </message>
    <message>
        <source>About Diamond</source>
        <translation>About Diamond</translation>
    </message>
    <message>
        <source>&lt;h3&gt;Diamond %1&lt;/h3&gt;&lt;p&gt;Train neural networks on your laptop or an HPC cluster without learning the cluster.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;Diamond %1&lt;/h3&gt;&lt;p&gt;Train neural networks on your laptop or an HPC cluster without learning the cluster.&lt;/p&gt;</translation>
    </message>
</context>
</TS>
