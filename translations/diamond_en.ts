<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>diamond::app</name>
    <message>
        <source>Cannot read %1.</source>
        <translation>Cannot read %1.</translation>
    </message>
    <message>
        <source>%1 is not a JSON object: %2</source>
        <translation>%1 is not a JSON object: %2</translation>
    </message>
    <message>
        <source>No examples are built into this Diamond (:/examples is empty).</source>
        <translation>No examples are built into this Diamond (:/examples is empty).</translation>
    </message>
    <message>
        <source>Small networks that train in seconds; press Train to try one.</source>
        <translation>Small networks that train in seconds; press Train to try one.</translation>
    </message>
    <message>
        <source>Could not add the examples to the new workspace: %1</source>
        <translation>Could not add the examples to the new workspace: %1</translation>
    </message>
    <message>
        <source>Cannot read the schema version of %1: %2</source>
        <translation>Cannot read the schema version of %1: %2</translation>
    </message>
    <message>
        <source>%1 has schema version %2, but this Diamond only knows versions up to %3; it was written by a newer Diamond. Update Diamond to open it. The file was not modified.</source>
        <translation>%1 has schema version %2, but this Diamond only knows versions up to %3; it was written by a newer Diamond. Update Diamond to open it. The file was not modified.</translation>
    </message>
    <message>
        <source>Cannot lock %1 for migration: %2</source>
        <translation>Cannot lock %1 for migration: %2</translation>
    </message>
    <message>
        <source>Cannot read the schema version of %1</source>
        <translation>Cannot read the schema version of %1</translation>
    </message>
    <message>
        <source>Migration %1 (%2) of %3 failed: %4</source>
        <translation>Migration %1 (%2) of %3 failed: %4</translation>
    </message>
</context>
<context>
    <name>diamond::app::LocalExecutor</name>
    <message>
        <source>Run %1 is already running.</source>
        <translation>Run %1 is already running.</translation>
    </message>
    <message>
        <source>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</source>
        <translation>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>Cannot start %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::MetricIngestor</name>
    <message>
        <source>Cannot store metrics of run %1: %2</source>
        <translation>Cannot store metrics of run %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunManager</name>
    <message>
        <source>resumed</source>
        <translation>resumed</translation>
    </message>
    <message>
        <source>Run %1 is %2; only a draft or queued run can be started.</source>
        <translation>Run %1 is %2; only a draft or queued run can be started.</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <source>diamond-train exited with code %1.</source>
        <translation>diamond-train exited with code %1.</translation>
    </message>
    <message>
        <source>reattached</source>
        <translation>reattached</translation>
    </message>
    <message>
        <source>engine process lost</source>
        <translation>engine process lost</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunStore</name>
    <message>
        <source>A project needs a name.</source>
        <translation>A project needs a name.</translation>
    </message>
    <message>
        <source>A project named &quot;%1&quot; already exists.</source>
        <translation>A project named "%1" already exists.</translation>
    </message>
    <message>
        <source>Cannot create project &quot;%1&quot;: %2</source>
        <translation>Cannot create project "%1": %2</translation>
    </message>
    <message>
        <source>Cannot create architecture &quot;%1&quot;: %2</source>
        <translation>Cannot create architecture "%1": %2</translation>
    </message>
    <message>
        <source>Cannot find architecture &quot;%1&quot;.</source>
        <translation>Cannot find architecture "%1".</translation>
    </message>
    <message>
        <source>Cannot store the architecture: %1</source>
        <translation>Cannot store the architecture: %1</translation>
    </message>
    <message>
        <source>No architecture version %1.</source>
        <translation>No architecture version %1.</translation>
    </message>
    <message>
        <source>Cannot create run &quot;%1&quot;: %2</source>
        <translation>Cannot create run "%1": %2</translation>
    </message>
    <message>
        <source>Cannot create the run folder %1.</source>
        <translation>Cannot create the run folder %1.</translation>
    </message>
    <message>
        <source>Cannot write the files of run %1 in %2.</source>
        <translation>Cannot write the files of run %1 in %2.</translation>
    </message>
    <message>
        <source>No run %1.</source>
        <translation>No run %1.</translation>
    </message>
    <message>
        <source>Run %1 has an unknown state &quot;%2&quot;.</source>
        <translation>Run %1 has an unknown state "%2".</translation>
    </message>
    <message>
        <source>Run %1 cannot go from %2 to %3.</source>
        <translation>Run %1 cannot go from %2 to %3.</translation>
    </message>
    <message>
        <source>Cannot store metrics of run %1: %2</source>
        <translation>Cannot store metrics of run %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::Workspace</name>
    <message>
        <source>No Diamond workspace at %1 (no %2 there).</source>
        <translation>No Diamond workspace at %1 (no %2 there).</translation>
    </message>
    <message>
        <source>Cannot create a workspace at %1: it is a file, not a folder.</source>
        <translation>Cannot create a workspace at %1: it is a file, not a folder.</translation>
    </message>
    <message>
        <source>Cannot create the workspace folder %1.</source>
        <translation>Cannot create the workspace folder %1.</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>Cannot open %1: %2</translation>
    </message>
    <message>
        <source>Cannot configure %1: %2</source>
        <translation>Cannot configure %1: %2</translation>
    </message>
    <message>
        <source>%1 is not a readable SQLite database.</source>
        <translation>%1 is not a readable SQLite database.</translation>
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
        <translation>&lt;h1&gt;Welcome to Diamond&lt;/h1&gt;</translation>
    </message>
    <message>
        <source>Welcome</source>
        <translation>Welcome</translation>
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
    <message>
        <source>Draw a network, press Train, and watch the loss fall.</source>
        <translation>Draw a network, press Train, and watch the loss fall.</translation>
    </message>
    <message>
        <source>Could not open the workspace: %1</source>
        <translation>Could not open the workspace: %1</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>Workspace: %1</translation>
    </message>
</context>
<context>
    <name>diamond::ui::WorkspacePanel</name>
    <message>
        <source>Draft</source>
        <translation>Draft</translation>
    </message>
    <message>
        <source>Queued</source>
        <translation>Queued</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Running</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Finished</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Failed</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelled</translation>
    </message>
    <message>
        <source>Preempted</source>
        <translation>Preempted</translation>
    </message>
    <message>
        <source>Resumed</source>
        <translation>Resumed</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation><numerusform>%n run</numerusform><numerusform>%n runs</numerusform></translation>
    </message>
</context>
</TS>
