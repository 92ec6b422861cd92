<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>DatasetPreview</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>Cannot open %1: %2</translation>
    </message>
    <message>
        <source>%1 rows × %2 columns</source>
        <translation>%1 rows × %2 columns</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>The folder %1 does not exist.</translation>
    </message>
    <message>
        <source>%1 has no class sub-folders (one folder of images per class).</source>
        <translation>%1 has no class sub-folders (one folder of images per class).</translation>
    </message>
    <message>
        <source>%1 images in %2 classes</source>
        <translation>%1 images in %2 classes</translation>
    </message>
    <message>
        <source>%1 is not a NumPy .npy file.</source>
        <translation>%1 is not a NumPy .npy file.</translation>
    </message>
    <message>
        <source>shape (%1), dtype %2</source>
        <translation>shape (%1), dtype %2</translation>
    </message>
    <message>
        <source>Points on interleaved spiral arms; one class per arm.</source>
        <translation>Points on interleaved spiral arms; one class per arm.</translation>
    </message>
    <message>
        <source>Two interleaving half circles; two classes.</source>
        <translation>Two interleaving half circles; two classes.</translation>
    </message>
    <message>
        <source>Gaussian clusters; one class per centre.</source>
        <translation>Gaussian clusters; one class per centre.</translation>
    </message>
    <message>
        <source>Points on a checkerboard; two classes by tile colour.</source>
        <translation>Points on a checkerboard; two classes by tile colour.</translation>
    </message>
    <message>
        <source>Noisy samples of a sine wave; a regression task.</source>
        <translation>Noisy samples of a sine wave; a regression task.</translation>
    </message>
    <message>
        <source>Small synthetic images of circles, squares and triangles.</source>
        <translation>Small synthetic images of circles, squares and triangles.</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>Choose a file.</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 does not exist.</translation>
    </message>
    <message>
        <source>%1, %2 bytes</source>
        <translation>%1, %2 bytes</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>inputs</translation>
    </message>
    <message>
        <source>targets</source>
        <translation>targets</translation>
    </message>
    <message>
        <source>not readable</source>
        <translation>not readable</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Shape</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Use</translation>
    </message>
    <message numerus="yes">
        <source>, %n the engine reads</source>
        <translation><numerusform>, %n the engine reads</numerusform><numerusform>, %n the engine reads</numerusform></translation>
    </message>
    <message>
        <source>%1 holds no uncompressed IDX images file.</source>
        <translation>%1 holds no uncompressed IDX images file.</translation>
    </message>
    <message>
        <source>%1: %2 (IDX)</source>
        <translation>%1: %2 (IDX)</translation>
    </message>
    <message>
        <source>Array</source>
        <translation>Array</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n array(s)</source>
        <translation><numerusform>%1: %n array</numerusform><numerusform>%1: %n arrays</numerusform></translation>
    </message>
</context>
<context>
    <name>EdgeItem</name>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2: %3</translation>
    </message>
</context>
<context>
    <name>NodeItem</name>
    <message>
        <source>not connected</source>
        <translation>not connected</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>from %1</translation>
    </message>
    <message>
        <source>Input %1</source>
        <translation>Input %1</translation>
    </message>
    <message>
        <source>Output &quot;%1&quot;</source>
        <translation>Output "%1"</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s) per sample</source>
        <translation><numerusform>%n value per sample</numerusform><numerusform>%n values per sample</numerusform></translation>
    </message>
    <message>
        <source>%1 params · %2</source>
        <translation>%1 params · %2</translation>
    </message>
    <message>
        <source>defaults</source>
        <translation>defaults</translation>
    </message>
    <message>
        <source>Recomputed in backward: saves memory, costs time.</source>
        <translation>Recomputed in backward: saves memory, costs time.</translation>
    </message>
</context>
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
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Cluster profile &apos;%1&apos; is invalid: %2</source>
        <translation>Cluster profile '%1' is invalid: %2</translation>
    </message>
    <message>
        <source>Run %1 does not exist.</source>
        <translation>Run %1 does not exist.</translation>
    </message>
    <message>
        <source>%1 has fewer than two rows.</source>
        <translation>%1 has fewer than two rows.</translation>
    </message>
    <message>
        <source>%1: line 1 (%2 fields) is not part of the table below (%3 columns); it looks like a metadata line: use &quot;skip_rows&quot;: 1.</source>
        <translation>%1: line 1 (%2 fields) is not part of the table below (%3 columns); it looks like a metadata line: use "skip_rows": 1.</translation>
    </message>
    <message>
        <source>Column &apos;%1&apos; has %2 missing values.</source>
        <translation>Column '%1' has %2 missing values.</translation>
    </message>
    <message>
        <source>Column &apos;%1&apos; has the same value in every row.</source>
        <translation>Column '%1' has the same value in every row.</translation>
    </message>
    <message>
        <source>Label imbalance: the largest class has %1 rows, the smallest %2.</source>
        <translation>Label imbalance: the largest class has %1 rows, the smallest %2.</translation>
    </message>
    <message>
        <source>%1 is not a NumPy .npy file.</source>
        <translation>%1 is not a NumPy .npy file.</translation>
    </message>
    <message>
        <source>Label imbalance: the largest class has %1 images, the smallest %2.</source>
        <translation>Label imbalance: the largest class has %1 images, the smallest %2.</translation>
    </message>
    <message>
        <source>%1 has no array of one value per sample to use as targets.</source>
        <translation>%1 has no array of one value per sample to use as targets.</translation>
    </message>
    <message>
        <source>In %1, the inputs %2 have %3 rows but the targets %4 have %5.</source>
        <translation>In %1, the inputs %2 have %3 rows but the targets %4 have %5.</translation>
    </message>
    <message>
        <source>the engine stopped while reading it (damaged file?)</source>
        <translation>the engine stopped while reading it (damaged file?)</translation>
    </message>
    <message>
        <source>%1 has no labels file beside it (an IDX file of rank 1).</source>
        <translation>%1 has no labels file beside it (an IDX file of rank 1).</translation>
    </message>
    <message>
        <source>%1 has %2 labels for %3 images in %4.</source>
        <translation>%1 has %2 labels for %3 images in %4.</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: the engine %2 is missing.</source>
        <translation>Cannot list the arrays of %1: the engine %2 is missing.</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: the listing is larger than %2 MiB.</source>
        <translation>Cannot list the arrays of %1: the listing is larger than %2 MiB.</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: the engine did not answer within %2 s.</source>
        <translation>Cannot list the arrays of %1: the engine did not answer within %2 s.</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: %2</source>
        <translation>Cannot list the arrays of %1: %2</translation>
    </message>
    <message>
        <source>%1 holds more arrays than the %2 listed.</source>
        <translation>%1 holds more arrays than the %2 listed.</translation>
    </message>
    <message>
        <source>%1 has no array the engine reads (float32, float64, int64, int32 or uint8 arrays).</source>
        <translation>%1 has no array the engine reads (float32, float64, int64, int32 or uint8 arrays).</translation>
    </message>
    <message>
        <source>There is no project %1.</source>
        <translation>There is no project %1.</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder for the sample datasets: %1</source>
        <translation>Cannot create a temporary folder for the sample datasets: %1</translation>
    </message>
    <message>
        <source>Cannot copy the sample dataset %1 to %2.</source>
        <translation>Cannot copy the sample dataset %1 to %2.</translation>
    </message>
    <message>
        <source>Cannot register the sample dataset %1: %2</source>
        <translation>Cannot register the sample dataset %1: %2</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; must be an object of language -&gt; text.</source>
        <translation>%1: "%2" must be an object of language -&gt; text.</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot;.%3 must be text.</source>
        <translation>%1: "%2".%3 must be text.</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; has no English (&quot;en&quot;) text.</source>
        <translation>%1: "%2" has no English ("en") text.</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <source>%1 is not an object.</source>
        <translation>%1 is not an object.</translation>
    </message>
    <message>
        <source>%1: &quot;id&quot; must be 1-64 characters a-z, 0-9 and &apos;-&apos;.</source>
        <translation>%1: "id" must be 1-64 characters a-z, 0-9 and '-'.</translation>
    </message>
    <message>
        <source>step %1 (%2)</source>
        <translation>step %1 (%2)</translation>
    </message>
    <message>
        <source>%1: the id is used by an earlier step.</source>
        <translation>%1: the id is used by an earlier step.</translation>
    </message>
    <message>
        <source>%1: show.page &quot;%2&quot; is not one of %3.</source>
        <translation>%1: show.page "%2" is not one of %3.</translation>
    </message>
    <message>
        <source>%1: &quot;check&quot; must be an object with a &quot;kind&quot;.</source>
        <translation>%1: "check" must be an object with a "kind".</translation>
    </message>
    <message>
        <source>%1: check: %2</source>
        <translation>%1: check: %2</translation>
    </message>
    <message>
        <source>the file has %1 bytes, more than the %2 a lesson may have.</source>
        <translation>the file has %1 bytes, more than the %2 a lesson may have.</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>line %1: %2</translation>
    </message>
    <message>
        <source>the lesson must be a JSON object.</source>
        <translation>the lesson must be a JSON object.</translation>
    </message>
    <message>
        <source>&quot;format&quot; must be &quot;diamond.lesson/1&quot;.</source>
        <translation>"format" must be "diamond.lesson/1".</translation>
    </message>
    <message>
        <source>&quot;id&quot; must be 1-64 characters a-z, 0-9 and &apos;-&apos;.</source>
        <translation>"id" must be 1-64 characters a-z, 0-9 and '-'.</translation>
    </message>
    <message>
        <source>&quot;project&quot; is longer than 200 characters.</source>
        <translation>"project" is longer than 200 characters.</translation>
    </message>
    <message>
        <source>lesson</source>
        <translation>lesson</translation>
    </message>
    <message>
        <source>&quot;steps&quot; must be a non-empty array.</source>
        <translation>"steps" must be a non-empty array.</translation>
    </message>
    <message>
        <source>a lesson has at most 100 steps, this one %1.</source>
        <translation>a lesson has at most 100 steps, this one %1.</translation>
    </message>
    <message>
        <source>unknown parameter &quot;%1&quot;.</source>
        <translation>unknown parameter "%1".</translation>
    </message>
    <message>
        <source>parameter &quot;%1&quot; has the wrong type.</source>
        <translation>parameter "%1" has the wrong type.</translation>
    </message>
    <message>
        <source>No network is open in the designer.</source>
        <translation>No network is open in the designer.</translation>
    </message>
    <message>
        <source>The network open is &quot;%1&quot;.</source>
        <translation>The network open is "%1".</translation>
    </message>
    <message>
        <source>The input has %1 features; the data has %2.</source>
        <translation>The input has %1 features; the data has %2.</translation>
    </message>
    <message>
        <source>no fixed number of</source>
        <translation>no fixed number of</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>The network &quot;%1&quot; matches.</source>
        <translation>The network "%1" matches.</translation>
    </message>
    <message>
        <source>Best %1: %2.</source>
        <translation>Best %1: %2.</translation>
    </message>
    <message>
        <source>%1 of %2 runs with different %3 finished.</source>
        <translation>%1 of %2 runs with different %3 finished.</translation>
    </message>
    <message>
        <source>Best %1 so far: %2; the step needs %3.</source>
        <translation>Best %1 so far: %2; the step needs %3.</translation>
    </message>
    <message>
        <source>No run has finished since the lesson started.</source>
        <translation>No run has finished since the lesson started.</translation>
    </message>
    <message>
        <source>%1 of %2 runs finished.</source>
        <translation>%1 of %2 runs finished.</translation>
    </message>
    <message>
        <source>No runs compared yet.</source>
        <translation>No runs compared yet.</translation>
    </message>
    <message>
        <source>No sweep started since the lesson started.</source>
        <translation>No sweep started since the lesson started.</translation>
    </message>
    <message>
        <source>%1 of %2 trials finished; the sweep has not finished yet.</source>
        <translation>%1 of %2 trials finished; the sweep has not finished yet.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is in the gallery.</source>
        <translation>"%1" is in the gallery.</translation>
    </message>
    <message>
        <source>No model published since the lesson started.</source>
        <translation>No model published since the lesson started.</translation>
    </message>
    <message>
        <source>No cluster is configured.</source>
        <translation>No cluster is configured.</translation>
    </message>
    <message>
        <source>Run %1 uses %2.</source>
        <translation>Run %1 uses %2.</translation>
    </message>
    <message>
        <source>No run has used a registered dataset yet.</source>
        <translation>No run has used a registered dataset yet.</translation>
    </message>
    <message>
        <source>No run has used the dataset %1 yet.</source>
        <translation>No run has used the dataset %1 yet.</translation>
    </message>
    <message>
        <source>unknown kind &quot;%1&quot;; known kinds: %2.</source>
        <translation>unknown kind "%1"; known kinds: %2.</translation>
    </message>
    <message>
        <source>&quot;min&quot; and &quot;max&quot; need a &quot;metric&quot;.</source>
        <translation>"min" and "max" need a "metric".</translation>
    </message>
    <message>
        <source>Press Next when you are ready.</source>
        <translation>Press Next when you are ready.</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>No workspace is open.</translation>
    </message>
    <message>
        <source>Unknown check &quot;%1&quot;.</source>
        <translation>Unknown check "%1".</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Cannot read %1: %2</translation>
    </message>
    <message>
        <source>%1 is larger than 8 MiB.</source>
        <translation>%1 is larger than 8 MiB.</translation>
    </message>
    <message>
        <source>%1 is not a JSON object.</source>
        <translation>%1 is not a JSON object.</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>exit status %1</translation>
    </message>
    <message>
        <source>Nothing to plan: the run needs a positive number of steps and a step time.</source>
        <translation>Nothing to plan: the run needs a positive number of steps and a step time.</translation>
    </message>
    <message>
        <source>A job of the partition&apos;s %1 s leaves no time to compute: start-up takes %2 s and the checkpoint signal needs %3 s.</source>
        <translation>A job of the partition's %1 s leaves no time to compute: start-up takes %2 s and the checkpoint signal needs %3 s.</translation>
    </message>
    <message>
        <source>The spec is not valid.</source>
        <translation>The spec is not valid.</translation>
    </message>
    <message>
        <source>The batch (%1) must be a multiple of the number of ranks (%2).</source>
        <translation>The batch (%1) must be a multiple of the number of ranks (%2).</translation>
    </message>
    <message>
        <source>The profile was measured with %1 threads, this run uses %2 per rank: scaled linearly.</source>
        <translation>The profile was measured with %1 threads, this run uses %2 per rank: scaled linearly.</translation>
    </message>
    <message>
        <source>The profile is a quick calibration (fewer shapes and repeats).</source>
        <translation>The profile is a quick calibration (fewer shapes and repeats).</translation>
    </message>
    <message>
        <source>Some layers are larger or smaller than every probed shape: extrapolated.</source>
        <translation>Some layers are larger or smaller than every probed shape: extrapolated.</translation>
    </message>
    <message>
        <source>The profile has no all-reduce timings (calibrate with --nproc 2): assumed 1 GB/s.</source>
        <translation>The profile has no all-reduce timings (calibrate with --nproc 2): assumed 1 GB/s.</translation>
    </message>
    <message>
        <source>The profile has no reference step with several ranks (calibrate with --nproc 2).</source>
        <translation>The profile has no reference step with several ranks (calibrate with --nproc 2).</translation>
    </message>
    <message>
        <source>needs %1 MiB, the node has %2 MiB</source>
        <translation>needs %1 MiB, the node has %2 MiB</translation>
    </message>
    <message>
        <source>scaling efficiency %1 is below 0.7</source>
        <translation>scaling efficiency %1 is below 0.7</translation>
    </message>
    <message>
        <source>No option fits: %1</source>
        <translation>No option fits: %1</translation>
    </message>
    <message>
        <source>Calibrating &quot;%1&quot; needs Slurm (it runs one srun job step); this cluster uses %2.</source>
        <translation>Calibrating "%1" needs Slurm (it runs one srun job step); this cluster uses %2.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a partition name (letters, digits, &apos;_&apos; and &apos;-&apos;).</source>
        <translation>"%1" is not a partition name (letters, digits, '_' and '-').</translation>
    </message>
    <message>
        <source>Calibration on &quot;%1&quot; failed (exit %2): %3</source>
        <translation>Calibration on "%1" failed (exit %2): %3</translation>
    </message>
    <message>
        <source>Calibration on &quot;%1&quot; printed more than 1 MiB.</source>
        <translation>Calibration on "%1" printed more than 1 MiB.</translation>
    </message>
    <message>
        <source>Calibration on &quot;%1&quot; printed no profile: %2</source>
        <translation>Calibration on "%1" printed no profile: %2</translation>
    </message>
    <message>
        <source>The cluster &quot;%1&quot; is gone.</source>
        <translation>The cluster "%1" is gone.</translation>
    </message>
    <message>
        <source>The measured step time is not valid.</source>
        <translation>The measured step time is not valid.</translation>
    </message>
    <message numerus="yes">
        <source>Corrected ×%1 from %n similar finished run(s) on this device.</source>
        <translation><numerusform>Corrected ×%1 from %n similar finished run on this device.</numerusform><numerusform>Corrected ×%1 from %n similar finished runs on this device.</numerusform></translation>
    </message>
    <message>
        <source>Neither the profile nor a dry run measured the runtime&apos;s own memory (calibrate again): the predicted memory leaves it out.</source>
        <translation>Neither the profile nor a dry run measured the runtime's own memory (calibrate again): the predicted memory leaves it out.</translation>
    </message>
    <message>
        <source>Cannot create a folder for the width probes.</source>
        <translation>Cannot create a folder for the width probes.</translation>
    </message>
    <message>
        <source>Cannot write the width probes&apos; files in %1.</source>
        <translation>Cannot write the width probes' files in %1.</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>Cannot start %1: %2</translation>
    </message>
    <message>
        <source>The probe with %1 processes of %2 threads took longer than %3 s and was stopped.</source>
        <translation>The probe with %1 processes of %2 threads took longer than %3 s and was stopped.</translation>
    </message>
    <message>
        <source>The probe with %1 processes of %2 threads failed: %3</source>
        <translation>The probe with %1 processes of %2 threads failed: %3</translation>
    </message>
    <message>
        <source>Cannot read the cluster&apos;s architecture: %1</source>
        <translation>Cannot read the cluster's architecture: %1</translation>
    </message>
    <message>
        <source>The cluster&apos;s CPUs are %1, this computer&apos;s %2: a bundle of this computer&apos;s engine cannot run there. Deploy a container (--container) instead.</source>
        <translation>The cluster's CPUs are %1, this computer's %2: a bundle of this computer's engine cannot run there. Deploy a container (--container) instead.</translation>
    </message>
    <message>
        <source>The cluster&apos;s C library is glibc %1.%2, older than this computer&apos;s %3.%4: a bundle of this computer&apos;s engine would not start there. Deploy a container (--container) instead.</source>
        <translation>The cluster's C library is glibc %1.%2, older than this computer's %3.%4: a bundle of this computer's engine would not start there. Deploy a container (--container) instead.</translation>
    </message>
    <message>
        <source>Uploading %1: %2 %…</source>
        <translation>Uploading %1: %2 %…</translation>
    </message>
    <message>
        <source>Uploading %1 failed: %2</source>
        <translation>Uploading %1 failed: %2</translation>
    </message>
    <message>
        <source>%1 arrived damaged on the cluster (SHA-256 differs): %2</source>
        <translation>%1 arrived damaged on the cluster (SHA-256 differs): %2</translation>
    </message>
    <message>
        <source>The deployed engine does not start on the cluster: %1</source>
        <translation>The deployed engine does not start on the cluster: %1</translation>
    </message>
    <message>
        <source>%1 is not an engine this computer can bundle.</source>
        <translation>%1 is not an engine this computer can bundle.</translation>
    </message>
    <message>
        <source>Checking the cluster&apos;s architecture…</source>
        <translation>Checking the cluster's architecture…</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder: %1</source>
        <translation>Cannot create a temporary folder: %1</translation>
    </message>
    <message>
        <source>Packing the engine and its libraries…</source>
        <translation>Packing the engine and its libraries…</translation>
    </message>
    <message>
        <source>Cannot create %1 on the cluster: %2</source>
        <translation>Cannot create %1 on the cluster: %2</translation>
    </message>
    <message>
        <source>Unpacking on the cluster…</source>
        <translation>Unpacking on the cluster…</translation>
    </message>
    <message>
        <source>Unpacking the engine on the cluster failed: %1</source>
        <translation>Unpacking the engine on the cluster failed: %1</translation>
    </message>
    <message>
        <source>Starting the engine there…</source>
        <translation>Starting the engine there…</translation>
    </message>
    <message>
        <source>A container is built from Diamond&apos;s sources; %1 does not hold them (give the source folder).</source>
        <translation>A container is built from Diamond's sources; %1 does not hold them (give the source folder).</translation>
    </message>
    <message>
        <source>this installation</source>
        <translation>this installation</translation>
    </message>
    <message>
        <source>Packing the engine&apos;s sources…</source>
        <translation>Packing the engine's sources…</translation>
    </message>
    <message>
        <source>Cannot write %1 on the cluster: %2</source>
        <translation>Cannot write %1 on the cluster: %2</translation>
    </message>
    <message>
        <source>Building the image on the cluster (a job of up to %1 min; about 10 min once it runs)…</source>
        <translation>Building the image on the cluster (a job of up to %1 min; about 10 min once it runs)…</translation>
    </message>
    <message>
        <source>Building the image failed (exit %1): %2</source>
        <translation>Building the image failed (exit %1): %2</translation>
    </message>
    <message>
        <source>The build left no image: %1</source>
        <translation>The build left no image: %1</translation>
    </message>
    <message>
        <source>Starting the engine in the image…</source>
        <translation>Starting the engine in the image…</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a partition name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;).</source>
        <translation>"%1" is not a partition name (letters, digits, '.', '_' and '-').</translation>
    </message>
    <message>
        <source>The build&apos;s time limit must be 1 to 1440 minutes.</source>
        <translation>The build's time limit must be 1 to 1440 minutes.</translation>
    </message>
    <message>
        <source>Building an image on &quot;%1&quot; needs Slurm (one srun job step) or no scheduler; it uses PBS.</source>
        <translation>Building an image on "%1" needs Slurm (one srun job step) or no scheduler; it uses PBS.</translation>
    </message>
    <message>
        <source>Copying the engine&apos;s header libraries failed: %1</source>
        <translation>Copying the engine's header libraries failed: %1</translation>
    </message>
    <message>
        <source>Packing the engine&apos;s sources failed: %1</source>
        <translation>Packing the engine's sources failed: %1</translation>
    </message>
    <message>
        <source>Cluster &quot;%1&quot; has no scratch folder to deploy into.</source>
        <translation>Cluster "%1" has no scratch folder to deploy into.</translation>
    </message>
    <message>
        <source>step time predicted from a CPU profile: no GPU of this partition was calibrated</source>
        <translation>step time predicted from a CPU profile: no GPU of this partition was calibrated</translation>
    </message>
    <message>
        <source>this computer&apos;s engine runs on the CPU only; a GPU run needs a GPU cluster</source>
        <translation>this computer's engine runs on the CPU only; a GPU run needs a GPU cluster</translation>
    </message>
    <message>
        <source>partition %1 has no GPUs</source>
        <translation>partition %1 has no GPUs</translation>
    </message>
    <message>
        <source>%1 processes need %1 GPUs, a node has %2</source>
        <translation>%1 processes need %1 GPUs, a node has %2</translation>
    </message>
    <message>
        <source>No batch scheduler: nothing to show but the profile.</source>
        <translation>No batch scheduler: nothing to show but the profile.</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>no answer within %1 s</translation>
    </message>
    <message>
        <source>needs %1 MiB of GPU memory per process, the GPU has %2 MiB usable</source>
        <translation>needs %1 MiB of GPU memory per process, the GPU has %2 MiB usable</translation>
    </message>
    <message>
        <source>needs %1 MiB of GPU memory per process, the GPU (%3) has %2 MiB usable</source>
        <translation>needs %1 MiB of GPU memory per process, the GPU (%3) has %2 MiB usable</translation>
    </message>
    <message>
        <source>A pipeline needs at least 2 stages and micro-batches that divide the batch (%1).</source>
        <translation>A pipeline needs at least 2 stages and micro-batches that divide the batch (%1).</translation>
    </message>
    <message>
        <source>The network has too few layers for %1 stages.</source>
        <translation>The network has too few layers for %1 stages.</translation>
    </message>
    <message>
        <source>Stage %1: %2</source>
        <translation>Stage %1: %2</translation>
    </message>
    <message>
        <source>%1 pipeline stages of %2 micro-batches: the step and memory are the pipeline model&apos;s (docs/planning.md)</source>
        <translation>%1 pipeline stages of %2 micro-batches: the step and memory are the pipeline model's (docs/planning.md)</translation>
    </message>
</context>
<context>
    <name>diamond::app::ChunkStore</name>
    <message>
        <source>Cannot create the folder of %1.</source>
        <translation>Cannot create the folder of %1.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <source>Cannot store %1.</source>
        <translation>Cannot store %1.</translation>
    </message>
    <message>
        <source>%1: the name of &quot;%2&quot; cannot be stored (control characters or a backslash).</source>
        <translation>%1: the name of "%2" cannot be stored (control characters or a backslash).</translation>
    </message>
    <message>
        <source>%1 holds no files.</source>
        <translation>%1 holds no files.</translation>
    </message>
    <message>
        <source>%1 is neither a file nor a folder.</source>
        <translation>%1 is neither a file nor a folder.</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Cannot read %1: %2</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>Cancelled.</translation>
    </message>
    <message>
        <source>The chunk %1 is missing from %2 or has the wrong size.</source>
        <translation>The chunk %1 is missing from %2 or has the wrong size.</translation>
    </message>
    <message>
        <source>The chunk %1 in %2 is damaged (its SHA-256 differs).</source>
        <translation>The chunk %1 in %2 is damaged (its SHA-256 differs).</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2.</source>
        <translation>Cannot rename %1 to %2.</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClassServerClient</name>
    <message>
        <source>%1 did not answer in time or sent more than 8 MiB.</source>
        <translation>%1 did not answer in time or sent more than 8 MiB.</translation>
    </message>
    <message>
        <source>Cannot reach %1: %2</source>
        <translation>Cannot reach %1: %2</translation>
    </message>
    <message>
        <source>The class server answered %1: %2</source>
        <translation>The class server answered %1: %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http:// or https:// address.</source>
        <translation>"%1" is not an http:// or https:// address.</translation>
    </message>
    <message>
        <source>The token is empty: ask your instructor for yours (diamondctl user add).</source>
        <translation>The token is empty: ask your instructor for yours (diamondctl user add).</translation>
    </message>
    <message>
        <source>The class server does not accept this token.</source>
        <translation>The class server does not accept this token.</translation>
    </message>
    <message>
        <source>%1 did not answer like a Diamond class server.</source>
        <translation>%1 did not answer like a Diamond class server.</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterClient</name>
    <message>
        <source>Running the checks on %1…</source>
        <translation>Running the checks on %1…</translation>
    </message>
    <message>
        <source>Calibrating a node of %1…</source>
        <translation>Calibrating a node of %1…</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterExecutor</name>
    <message>
        <source>Run %1 is already running.</source>
        <translation>Run %1 is already running.</translation>
    </message>
    <message>
        <source>Cluster profile &apos;%1&apos; is invalid: %2</source>
        <translation>Cluster profile '%1' is invalid: %2</translation>
    </message>
    <message>
        <source>Cluster &apos;%1&apos; has no batch scheduler; Diamond runs jobs through Slurm or PBS.</source>
        <translation>Cluster '%1' has no batch scheduler; Diamond runs jobs through Slurm or PBS.</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 does not exist.</translation>
    </message>
    <message>
        <source>Run %1 is already followed.</source>
        <translation>Run %1 is already followed.</translation>
    </message>
    <message>
        <source>Run %1 was submitted to cluster &apos;%2&apos;, not &apos;%3&apos;.</source>
        <translation>Run %1 was submitted to cluster '%2', not '%3'.</translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>Run %1: %2</translation>
    </message>
    <message>
        <source>Run %1 has no readable record of its cluster job in %2.</source>
        <translation>Run %1 has no readable record of its cluster job in %2.</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>no answer</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterLink</name>
    <message>
        <source>Sign-in to cluster &apos;%1&apos; was cancelled; connect again from the Clusters page.</source>
        <translation>Sign-in to cluster '%1' was cancelled; connect again from the Clusters page.</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterOverview</name>
    <message>
        <source>No batch scheduler: nothing to show but the profile.</source>
        <translation>No batch scheduler: nothing to show but the profile.</translation>
    </message>
    <message>
        <source>no answer for %1 s</source>
        <translation>no answer for %1 s</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterPromptBridge</name>
    <message>
        <source>Unknown host key</source>
        <translation>Unknown host key</translation>
    </message>
    <message>
        <source>Key passphrase</source>
        <translation>Key passphrase</translation>
    </message>
    <message>
        <source>The passphrase was wrong. Try again.</source>
        <translation>The passphrase was wrong. Try again.</translation>
    </message>
    <message>
        <source>Passphrase for %1:</source>
        <translation>Passphrase for %1:</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>Password</translation>
    </message>
    <message>
        <source>The password was wrong. Try again.</source>
        <translation>The password was wrong. Try again.</translation>
    </message>
    <message>
        <source>Password for %1:</source>
        <translation>Password for %1:</translation>
    </message>
    <message>
        <source>Sign-in</source>
        <translation>Sign-in</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterRun</name>
    <message>
        <source>job: expected an object</source>
        <translation>job: expected an object</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterStore</name>
    <message>
        <source>A cluster profile named &apos;%1&apos; exists already.</source>
        <translation>A cluster profile named '%1' exists already.</translation>
    </message>
    <message>
        <source>Cannot store cluster profile &apos;%1&apos;: %2</source>
        <translation>Cannot store cluster profile '%1': %2</translation>
    </message>
    <message>
        <source>Cannot update cluster profile &apos;%1&apos;: %2</source>
        <translation>Cannot update cluster profile '%1': %2</translation>
    </message>
    <message>
        <source>There is no cluster profile named &apos;%1&apos;.</source>
        <translation>There is no cluster profile named '%1'.</translation>
    </message>
    <message>
        <source>Cannot delete cluster profile &apos;%1&apos;: %2</source>
        <translation>Cannot delete cluster profile '%1': %2</translation>
    </message>
    <message>
        <source>Cannot read cluster profiles: %1</source>
        <translation>Cannot read cluster profiles: %1</translation>
    </message>
</context>
<context>
    <name>diamond::app::ContentManifest</name>
    <message>
        <source>The manifest&apos;s format is not %1.</source>
        <translation>The manifest's format is not %1.</translation>
    </message>
    <message>
        <source>The manifest&apos;s chunk_size %1 is outside 4096 … 1073741824.</source>
        <translation>The manifest's chunk_size %1 is outside 4096 … 1073741824.</translation>
    </message>
    <message>
        <source>unsafe path</source>
        <translation>unsafe path</translation>
    </message>
    <message>
        <source>paths not sorted or repeated</source>
        <translation>paths not sorted or repeated</translation>
    </message>
    <message>
        <source>bad size</source>
        <translation>bad size</translation>
    </message>
    <message>
        <source>bad sha256</source>
        <translation>bad sha256</translation>
    </message>
    <message>
        <source>%1 chunks where its size needs %2</source>
        <translation>%1 chunks where its size needs %2</translation>
    </message>
    <message>
        <source>its only chunk&apos;s hash differs from the file&apos;s</source>
        <translation>its only chunk's hash differs from the file's</translation>
    </message>
    <message>
        <source>bad chunk hash</source>
        <translation>bad chunk hash</translation>
    </message>
    <message>
        <source>The manifest&apos;s file &quot;%1&quot; is invalid: %2.</source>
        <translation>The manifest's file "%1" is invalid: %2.</translation>
    </message>
</context>
<context>
    <name>diamond::app::DatasetCacheCleaner</name>
    <message>
        <source>Cannot list the dataset cache on %1: %2</source>
        <translation>Cannot list the dataset cache on %1: %2</translation>
    </message>
    <message>
        <source>Not a staged version: &quot;%1&quot; (NAME/HASH16).</source>
        <translation>Not a staged version: "%1" (NAME/HASH16).</translation>
    </message>
    <message>
        <source>Cannot clean the dataset cache on %1: %2</source>
        <translation>Cannot clean the dataset cache on %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::DatasetStager</name>
    <message>
        <source>Cancelled.</source>
        <translation>Cancelled.</translation>
    </message>
    <message>
        <source>Cannot find the home folder on %1: %2</source>
        <translation>Cannot find the home folder on %1: %2</translation>
    </message>
    <message>
        <source>Staging %1 to %2 failed %3 times; last: %4</source>
        <translation>Staging %1 to %2 failed %3 times; last: %4</translation>
    </message>
    <message>
        <source>cannot list the cache %1: %2</source>
        <translation>cannot list the cache %1: %2</translation>
    </message>
    <message>
        <source>a shard of %1 bytes did not arrive: %2</source>
        <translation>a shard of %1 bytes did not arrive: %2</translation>
    </message>
    <message>
        <source>cannot assemble %1 in %2: %3</source>
        <translation>cannot assemble %1 in %2: %3</translation>
    </message>
    <message>
        <source>cannot complete %1: %2</source>
        <translation>cannot complete %1: %2</translation>
    </message>
    <message>
        <source>Staging %1 did not converge.</source>
        <translation>Staging %1 did not converge.</translation>
    </message>
    <message>
        <source>%1 did not arrive: %2</source>
        <translation>%1 did not arrive: %2</translation>
    </message>
    <message>
        <source>a pack of %1 bytes arrived damaged (the host read %2)</source>
        <translation>a pack of %1 bytes arrived damaged (the host read %2)</translation>
    </message>
    <message>
        <source>%1 files and %2 packs differed from their SHA-256 on the host</source>
        <translation>%1 files and %2 packs differed from their SHA-256 on the host</translation>
    </message>
</context>
<context>
    <name>diamond::app::DatasetStore</name>
    <message>
        <source>The stored manifest of %1 is unreadable: %2</source>
        <translation>The stored manifest of %1 is unreadable: %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid dataset name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, at most 64, starting with a letter or digit).</source>
        <translation>"%1" is not a valid dataset name (letters, digits, '.', '_' and '-', at most 64, starting with a letter or digit).</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a dataset reference (NAME or NAME@VERSION).</source>
        <translation>"%1" is not a dataset reference (NAME or NAME@VERSION).</translation>
    </message>
    <message>
        <source>There is no dataset &quot;%1&quot; in this workspace.</source>
        <translation>There is no dataset "%1" in this workspace.</translation>
    </message>
    <message>
        <source>The dataset &quot;%1&quot; has no version %2 (newest: %3).</source>
        <translation>The dataset "%1" has no version %2 (newest: %3).</translation>
    </message>
    <message>
        <source>There is no dataset version %1.</source>
        <translation>There is no dataset version %1.</translation>
    </message>
    <message>
        <source>Kept every stored chunk: a stored manifest is unreadable (%1).</source>
        <translation>Kept every stored chunk: a stored manifest is unreadable (%1).</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Cannot write %1.</translation>
    </message>
</context>
<context>
    <name>diamond::app::DeviceProfile</name>
    <message>
        <source>Not a device profile: &quot;format&quot; must be diamond.device-profile/1.</source>
        <translation>Not a device profile: "format" must be diamond.device-profile/1.</translation>
    </message>
    <message>
        <source>The device profile has no &quot;linear&quot; timings.</source>
        <translation>The device profile has no "linear" timings.</translation>
    </message>
    <message>
        <source>The device profile has no &quot;elementwise&quot; timing.</source>
        <translation>The device profile has no "elementwise" timing.</translation>
    </message>
</context>
<context>
    <name>diamond::app::DeviceProfileStore</name>
    <message>
        <source>Not a profile name: &quot;%1&quot;.</source>
        <translation>Not a profile name: "%1".</translation>
    </message>
    <message>
        <source>No device profile &quot;%1&quot; yet.</source>
        <translation>No device profile "%1" yet.</translation>
    </message>
    <message>
        <source>%1 is larger than a device profile can be (1 MiB).</source>
        <translation>%1 is larger than a device profile can be (1 MiB).</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Cannot read %1: %2</translation>
    </message>
    <message>
        <source>%1 is not a JSON object: %2</source>
        <translation>%1 is not a JSON object: %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>Cannot create %1.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>Cannot start %1: %2</translation>
    </message>
    <message>
        <source>Calibration took longer than %1 s and was stopped.</source>
        <translation>Calibration took longer than %1 s and was stopped.</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>Calibration failed: %1</translation>
    </message>
    <message>
        <source>Calibration printed no profile: %1</source>
        <translation>Calibration printed no profile: %1</translation>
    </message>
</context>
<context>
    <name>diamond::app::EnginePlanJob</name>
    <message>
        <source> (node &apos;%1&apos;)</source>
        <translation> (node '%1')</translation>
    </message>
    <message>
        <source> (field &apos;%1&apos;)</source>
        <translation> (field '%1')</translation>
    </message>
    <message>
        <source>Cannot write the files for the dry run in %1.</source>
        <translation>Cannot write the files for the dry run in %1.</translation>
    </message>
    <message>
        <source>Cannot start the engine %1: %2</source>
        <translation>Cannot start the engine %1: %2</translation>
    </message>
    <message>
        <source>The engine&apos;s dry run ended with exit code %1: %2</source>
        <translation>The engine's dry run ended with exit code %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::LessonProgressStore</name>
    <message>
        <source>Cannot save the start of lesson %1: %2</source>
        <translation>Cannot save the start of lesson %1: %2</translation>
    </message>
    <message>
        <source>Cannot read the progress of lesson %1: %2</source>
        <translation>Cannot read the progress of lesson %1: %2</translation>
    </message>
    <message>
        <source>Cannot reset lesson %1: %2</source>
        <translation>Cannot reset lesson %1: %2</translation>
    </message>
    <message>
        <source>A step id is empty.</source>
        <translation>A step id is empty.</translation>
    </message>
    <message>
        <source>Cannot save step %1 of lesson %2: %3</source>
        <translation>Cannot save step %1 of lesson %2: %3</translation>
    </message>
    <message>
        <source>Cannot read the lesson progress: %1</source>
        <translation>Cannot read the lesson progress: %1</translation>
    </message>
    <message>
        <source>Cannot record the activity %1: %2</source>
        <translation>Cannot record the activity %1: %2</translation>
    </message>
    <message>
        <source>Cannot read the learning activity: %1</source>
        <translation>Cannot read the learning activity: %1</translation>
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
    <name>diamond::app::PackingLocalExecutor</name>
    <message>
        <source>Run %1 is already running.</source>
        <translation>Run %1 is already running.</translation>
    </message>
    <message>
        <source>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</source>
        <translation>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</translation>
    </message>
    <message>
        <source>Cannot write the trial pack file %1.</source>
        <translation>Cannot write the trial pack file %1.</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>Cannot start %1: %2</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>Skipped: %1</translation>
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
    <message>
        <source>Run %1 is not running.</source>
        <translation>Run %1 is not running.</translation>
    </message>
    <message>
        <source>The dataset %1 of run %2 is no longer in this workspace.</source>
        <translation>The dataset %1 of run %2 is no longer in this workspace.</translation>
    </message>
    <message>
        <source>Cannot prepare the dataset %1: %2</source>
        <translation>Cannot prepare the dataset %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunPlanner</name>
    <message>
        <source>Measuring the number of processes trains on this computer: it is offered for runs on this computer only, not on %1.</source>
        <translation>Measuring the number of processes trains on this computer: it is offered for runs on this computer only, not on %1.</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunRecommender</name>
    <message>
        <source>No workspace is open.</source>
        <translation>No workspace is open.</translation>
    </message>
    <message>
        <source>Measuring this computer&apos;s speed for the first time (about 10 s)…</source>
        <translation>Measuring this computer's speed for the first time (about 10 s)…</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>Cannot start %1: %2</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>Calibration failed: %1</translation>
    </message>
    <message>
        <source>The processes are being measured already.</source>
        <translation>The processes are being measured already.</translation>
    </message>
    <message>
        <source>Measuring the number of processes trains on this computer: it is offered for runs on this computer only.</source>
        <translation>Measuring the number of processes trains on this computer: it is offered for runs on this computer only.</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunService</name>
    <message>
        <source>The cluster did not cancel the job: %1</source>
        <translation>The cluster did not cancel the job: %1</translation>
    </message>
    <message>
        <source>Unknown target &apos;%1&apos;: the workspace has no such cluster profile.</source>
        <translation>Unknown target '%1': the workspace has no such cluster profile.</translation>
    </message>
    <message>
        <source>job: expected an object</source>
        <translation>job: expected an object</translation>
    </message>
    <message>
        <source>Cannot reach the job of run %1 to cancel it: %2</source>
        <translation>Cannot reach the job of run %1 to cancel it: %2</translation>
    </message>
    <message>
        <source>Run %1 is still running.</source>
        <translation>Run %1 is still running.</translation>
    </message>
    <message>
        <source>Cannot follow the cluster job: %1</source>
        <translation>Cannot follow the cluster job: %1</translation>
    </message>
    <message>
        <source>Run %1 is %2; cancel it before deleting it.</source>
        <translation>Run %1 is %2; cancel it before deleting it.</translation>
    </message>
    <message>
        <source>Sweep %1 is %2, not running.</source>
        <translation>Sweep %1 is %2, not running.</translation>
    </message>
    <message>
        <source>Sweep %1 is %2 and cannot be continued.</source>
        <translation>Sweep %1 is %2 and cannot be continued.</translation>
    </message>
    <message>
        <source>Sweep %1 is being run by process %2.</source>
        <translation>Sweep %1 is being run by process %2.</translation>
    </message>
    <message>
        <source>Sweep %1 is %2 already.</source>
        <translation>Sweep %1 is %2 already.</translation>
    </message>
    <message>
        <source>Run %1 did not run on a class server.</source>
        <translation>Run %1 did not run on a class server.</translation>
    </message>
    <message>
        <source>Only a finished run can be published.</source>
        <translation>Only a finished run can be published.</translation>
    </message>
    <message>
        <source>Not signed in to the class server %1 (File &gt; Connect to class server).</source>
        <translation>Not signed in to the class server %1 (File &gt; Connect to class server).</translation>
    </message>
    <message>
        <source>The class server %1 has no cluster &apos;%2&apos;.</source>
        <translation>The class server %1 has no cluster '%2'.</translation>
    </message>
    <message>
        <source>Run %1 finished before it could move.</source>
        <translation>Run %1 finished before it could move.</translation>
    </message>
    <message>
        <source>Run %1 is racing already.</source>
        <translation>Run %1 is racing already.</translation>
    </message>
    <message>
        <source>Cluster &apos;%1&apos; has no batch scheduler to race on.</source>
        <translation>Cluster '%1' has no batch scheduler to race on.</translation>
    </message>
    <message>
        <source>Run %1 is already moving.</source>
        <translation>Run %1 is already moving.</translation>
    </message>
    <message>
        <source>Run %1 is on %2 already.</source>
        <translation>Run %1 is on %2 already.</translation>
    </message>
    <message>
        <source>Runs on a class server stay on that server.</source>
        <translation>Runs on a class server stay on that server.</translation>
    </message>
    <message>
        <source>Run %1 has finished; there is nothing to move.</source>
        <translation>Run %1 has finished; there is nothing to move.</translation>
    </message>
    <message>
        <source>job: resources are for cluster targets, not &apos;%1&apos;.</source>
        <translation>job: resources are for cluster targets, not '%1'.</translation>
    </message>
    <message>
        <source>job: %1</source>
        <translation>job: %1</translation>
    </message>
    <message>
        <source>Moving to %1: stopping the run at a checkpoint.</source>
        <translation>Moving to %1: stopping the run at a checkpoint.</translation>
    </message>
    <message>
        <source>Moved from %1 to %2 before it started.</source>
        <translation>Moved from %1 to %2 before it started.</translation>
    </message>
    <message>
        <source>Moved from %1 to %2; no checkpoint was saved, so it starts from the beginning there.</source>
        <translation>Moved from %1 to %2; no checkpoint was saved, so it starts from the beginning there.</translation>
    </message>
    <message>
        <source>Moved from %1 to %2; it continues there from checkpoint %3.</source>
        <translation>Moved from %1 to %2; it continues there from checkpoint %3.</translation>
    </message>
    <message>
        <source>Run %1 could not continue on %2: %3</source>
        <translation>Run %1 could not continue on %2: %3</translation>
    </message>
    <message>
        <source>Run %1 is trial %2 of sweep %3, which places its trials itself (give the sweep several &quot;targets&quot; to spread them).</source>
        <translation>Run %1 is trial %2 of sweep %3, which places its trials itself (give the sweep several "targets" to spread them).</translation>
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
    <message>
        <source>Untitled network</source>
        <translation>Untitled network</translation>
    </message>
    <message>
        <source>Run %1 was deleted, but its folder %2 could not be removed completely.</source>
        <translation>Run %1 was deleted, but its folder %2 could not be removed completely.</translation>
    </message>
    <message>
        <source>data.dataset: %1</source>
        <translation>data.dataset: %1</translation>
    </message>
    <message>
        <source>data.path &quot;%1&quot; must be a relative path inside the dataset %2.</source>
        <translation>data.path "%1" must be a relative path inside the dataset %2.</translation>
    </message>
</context>
<context>
    <name>diamond::app::ServerExecutor</name>
    <message>
        <source>Runs on a class server are resumed on the server (diamondctl or the REST API).</source>
        <translation>Runs on a class server are resumed on the server (diamondctl or the REST API).</translation>
    </message>
    <message>
        <source>The class server did not return the new run.</source>
        <translation>The class server did not return the new run.</translation>
    </message>
    <message>
        <source>Run %1 was started on %2 as %3; sign in there to follow it.</source>
        <translation>Run %1 was started on %2 as %3; sign in there to follow it.</translation>
    </message>
    <message>
        <source>%1 names no run.</source>
        <translation>%1 names no run.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <source>The run failed on the class server.</source>
        <translation>The run failed on the class server.</translation>
    </message>
    <message>
        <source>This run has no run on the class server (%1 is missing).</source>
        <translation>This run has no run on the class server (%1 is missing).</translation>
    </message>
    <message>
        <source>The class server does not let you publish yet; ask your instructor (diamondctl user update NAME --publish).</source>
        <translation>The class server does not let you publish yet; ask your instructor (diamondctl user update NAME --publish).</translation>
    </message>
    <message>
        <source>Run %1 is not running on the class server.</source>
        <translation>Run %1 is not running on the class server.</translation>
    </message>
</context>
<context>
    <name>diamond::app::StartRace</name>
    <message>
        <source>Run %1 has started already; only a new run can race.</source>
        <translation>Run %1 has started already; only a new run can race.</translation>
    </message>
    <message>
        <source>A race needs at least two clusters.</source>
        <translation>A race needs at least two clusters.</translation>
    </message>
    <message>
        <source>submitted to %1; the first to start keeps the run</source>
        <translation>submitted to %1; the first to start keeps the run</translation>
    </message>
    <message>
        <source>No cluster could take run %1: %2</source>
        <translation>No cluster could take run %1: %2</translation>
    </message>
    <message>
        <source>the job ended before it started</source>
        <translation>the job ended before it started</translation>
    </message>
    <message>
        <source>%1 started first</source>
        <translation>%1 started first</translation>
    </message>
    <message>
        <source>Submitted to %1; %2 started first and keeps the run, the other jobs are cancelled.</source>
        <translation>Submitted to %1; %2 started first and keeps the run, the other jobs are cancelled.</translation>
    </message>
    <message>
        <source>Cannot follow the job on %1: %2</source>
        <translation>Cannot follow the job on %1: %2</translation>
    </message>
    <message>
        <source>cancelled before any cluster started it</source>
        <translation>cancelled before any cluster started it</translation>
    </message>
</context>
<context>
    <name>diamond::app::StepObservationStore</name>
    <message>
        <source>Cannot create %1.</source>
        <translation>Cannot create %1.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::StoredArray</name>
    <message>
        <source>scalar</source>
        <translation>scalar</translation>
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
    <name>diamond::app::gallery</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation>cannot read %1: %2</translation>
    </message>
    <message>
        <source>%1 is too short for a safetensors file</source>
        <translation>%1 is too short for a safetensors file</translation>
    </message>
    <message>
        <source>%1: the safetensors header runs past the end of the file</source>
        <translation>%1: the safetensors header runs past the end of the file</translation>
    </message>
    <message>
        <source>%1: the safetensors header is not a JSON object</source>
        <translation>%1: the safetensors header is not a JSON object</translation>
    </message>
    <message>
        <source>%1: tensor &quot;%2&quot; has bad data offsets</source>
        <translation>%1: tensor "%2" has bad data offsets</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 is not a file</translation>
    </message>
    <message>
        <source>%1 is %2 bytes; packages may be at most %3 bytes</source>
        <translation>%1 is %2 bytes; packages may be at most %3 bytes</translation>
    </message>
    <message>
        <source>%1 has no manifest.json</source>
        <translation>%1 has no manifest.json</translation>
    </message>
    <message>
        <source>%1: manifest.json is not a JSON object: %2</source>
        <translation>%1: manifest.json is not a JSON object: %2</translation>
    </message>
    <message>
        <source>%1: unknown package format &quot;%2&quot; (this version reads %3)</source>
        <translation>%1: unknown package format "%2" (this version reads %3)</translation>
    </message>
    <message>
        <source>%1: manifest.json has no &quot;%2&quot;</source>
        <translation>%1: manifest.json has no "%2"</translation>
    </message>
    <message>
        <source>%1: manifest.json does not list %2</source>
        <translation>%1: manifest.json does not list %2</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not listed in manifest.json</source>
        <translation>%1: "%2" is not listed in manifest.json</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is listed in manifest.json but missing</source>
        <translation>%1: "%2" is listed in manifest.json but missing</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>cannot write %1: %2</translation>
    </message>
    <message>
        <source>%1: SHA-256 of &quot;%2&quot; is %3, the manifest says %4</source>
        <translation>%1: SHA-256 of "%2" is %3, the manifest says %4</translation>
    </message>
    <message>
        <source>cannot create a temporary folder</source>
        <translation>cannot create a temporary folder</translation>
    </message>
    <message>
        <source>cannot run the engine %1: %2</source>
        <translation>cannot run the engine %1: %2</translation>
    </message>
    <message>
        <source>the engine did not finish the test inputs in time</source>
        <translation>the engine did not finish the test inputs in time</translation>
    </message>
    <message>
        <source>the engine could not re-run the test inputs (`diamond-train predict`, exit code %1): %2</source>
        <translation>the engine could not re-run the test inputs (`diamond-train predict`, exit code %1): %2</translation>
    </message>
    <message>
        <source>the package has no expected outputs</source>
        <translation>the package has no expected outputs</translation>
    </message>
    <message>
        <source>the engine produced no output &quot;%1&quot;</source>
        <translation>the engine produced no output "%1"</translation>
    </message>
    <message>
        <source>output &quot;%1&quot; differs in type or shape</source>
        <translation>output "%1" differs in type or shape</translation>
    </message>
    <message>
        <source>output &quot;%1&quot; differs</source>
        <translation>output "%1" differs</translation>
    </message>
    <message>
        <source>output &quot;%1&quot; element %2 is %3, expected %4 (tolerance %5 + %6 x |expected|)</source>
        <translation>output "%1" element %2 is %3, expected %4 (tolerance %5 + %6 x |expected|)</translation>
    </message>
    <message>
        <source>test outputs match (max abs diff %1)</source>
        <translation>test outputs match (max abs diff %1)</translation>
    </message>
    <message>
        <source>Trained in Diamond (project &quot;%1&quot;, run %2 &quot;%3&quot;), finished %4.

</source>
        <translation>Trained in Diamond (project "%1", run %2 "%3"), finished %4.

</translation>
    </message>
    <message>
        <source>%1 `%2`: %3, shape %4</source>
        <translation>%1 `%2`: %3, shape %4</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>Interface</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Input</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Output</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metrics</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>cannot sign the package</source>
        <translation>cannot sign the package</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1 is readable by other users; run chmod 600 on it</source>
        <translation>%1 is readable by other users; run chmod 600 on it</translation>
    </message>
    <message>
        <source>cannot read the publisher key %1</source>
        <translation>cannot read the publisher key %1</translation>
    </message>
    <message>
        <source>%1 is not an Ed25519 private key</source>
        <translation>%1 is not an Ed25519 private key</translation>
    </message>
    <message>
        <source>cannot make a publisher key</source>
        <translation>cannot make a publisher key</translation>
    </message>
    <message>
        <source>cannot write the publisher key %1</source>
        <translation>cannot write the publisher key %1</translation>
    </message>
    <message>
        <source>signature.json has an unknown format</source>
        <translation>signature.json has an unknown format</translation>
    </message>
    <message>
        <source>signature.json holds no Ed25519 key and signature</source>
        <translation>signature.json holds no Ed25519 key and signature</translation>
    </message>
    <message>
        <source>signature.json uses a weak Ed25519 key or signature</source>
        <translation>signature.json uses a weak Ed25519 key or signature</translation>
    </message>
    <message>
        <source>the signature does not match manifest.json: the package was changed after signing</source>
        <translation>the signature does not match manifest.json: the package was changed after signing</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::GallerySource</name>
    <message>
        <source>Cannot open the workspace %1: %2</source>
        <translation>Cannot open the workspace %1: %2</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Cannot write %1.</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::GalleryStore</name>
    <message>
        <source>no gallery entry %1</source>
        <translation>no gallery entry %1</translation>
    </message>
    <message>
        <source>cannot create a folder in %1</source>
        <translation>cannot create a folder in %1</translation>
    </message>
    <message>
        <source>%1: spec.json is not a valid network spec: %2</source>
        <translation>%1: spec.json is not a valid network spec: %2</translation>
    </message>
    <message>
        <source>cannot copy %1 into the gallery (%2)</source>
        <translation>cannot copy %1 into the gallery (%2)</translation>
    </message>
    <message>
        <source>run %1 is %2; only finished runs can be published</source>
        <translation>run %1 is %2; only finished runs can be published</translation>
    </message>
    <message>
        <source>the engine could not export run %1: %2</source>
        <translation>the engine could not export run %1: %2</translation>
    </message>
    <message>
        <source>the engine&apos;s export has no %1</source>
        <translation>the engine's export has no %1</translation>
    </message>
    <message>
        <source>already in the gallery (entry %1), consistent</source>
        <translation>already in the gallery (entry %1), consistent</translation>
    </message>
    <message>
        <source>already in the gallery (entry %1), not consistent</source>
        <translation>already in the gallery (entry %1), not consistent</translation>
    </message>
    <message>
        <source>not an Ed25519 public key</source>
        <translation>not an Ed25519 public key</translation>
    </message>
    <message>
        <source>no trusted key %1</source>
        <translation>no trusted key %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a dataset name</source>
        <translation>"%1" is not a dataset name</translation>
    </message>
    <message>
        <source>its dataset was not registered: %1</source>
        <translation>its dataset was not registered: %1</translation>
    </message>
    <message>
        <source>its dataset was not registered: the manifest does not match its SHA-256</source>
        <translation>its dataset was not registered: the manifest does not match its SHA-256</translation>
    </message>
    <message>
        <source>its dataset was not registered: larger than a package may ship</source>
        <translation>its dataset was not registered: larger than a package may ship</translation>
    </message>
    <message>
        <source>its dataset is registered already as %1</source>
        <translation>its dataset is registered already as %1</translation>
    </message>
    <message>
        <source>its dataset was not registered: cannot create a folder in %1</source>
        <translation>its dataset was not registered: cannot create a folder in %1</translation>
    </message>
    <message>
        <source>its dataset was not registered: the package lacks the content of %1</source>
        <translation>its dataset was not registered: the package lacks the content of %1</translation>
    </message>
    <message>
        <source>its dataset was not registered: cannot write %1</source>
        <translation>its dataset was not registered: cannot write %1</translation>
    </message>
    <message>
        <source>gallery package %1 %2</source>
        <translation>gallery package %1 %2</translation>
    </message>
    <message>
        <source>its dataset is registered as %1</source>
        <translation>its dataset is registered as %1</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::LocalGallerySource</name>
    <message>
        <source>This workspace</source>
        <translation>This workspace</translation>
    </message>
    <message>
        <source>The package file of gallery entry %1 is missing.</source>
        <translation>The package file of gallery entry %1 is missing.</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::RemoteGallerySource</name>
    <message>
        <source>Cannot reach the gallery &quot;%1&quot; at %2: %3</source>
        <translation>Cannot reach the gallery "%1" at %2: %3</translation>
    </message>
    <message>
        <source>The gallery &quot;%1&quot; refused the token (HTTP 401): check the token of this source.</source>
        <translation>The gallery "%1" refused the token (HTTP 401): check the token of this source.</translation>
    </message>
    <message>
        <source>The gallery &quot;%1&quot; answered HTTP %2 (%3): %4</source>
        <translation>The gallery "%1" answered HTTP %2 (%3): %4</translation>
    </message>
    <message>
        <source>The gallery &quot;%1&quot; answered HTTP %2: %3</source>
        <translation>The gallery "%1" answered HTTP %2: %3</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http:// or https:// address.</source>
        <translation>"%1" is not an http:// or https:// address.</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Cannot write %1.</translation>
    </message>
    <message>
        <source>The package from &quot;%1&quot; arrived damaged (SHA-256 %2, expected %3).</source>
        <translation>The package from "%1" arrived damaged (SHA-256 %2, expected %3).</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::ZipReader</name>
    <message>
        <source>%1 holds two entries with the same name</source>
        <translation>%1 holds two entries with the same name</translation>
    </message>
    <message>
        <source>%1 is an inconsistent zip archive (duplicate or mismatched entries): %2</source>
        <translation>%1 is an inconsistent zip archive (duplicate or mismatched entries): %2</translation>
    </message>
    <message>
        <source>%1 is not a readable zip archive: %2</source>
        <translation>%1 is not a readable zip archive: %2</translation>
    </message>
    <message>
        <source>%1 holds %2 entries; a package may hold at most %3</source>
        <translation>%1 holds %2 entries; a package may hold at most %3</translation>
    </message>
    <message>
        <source>%1: cannot read entry %2</source>
        <translation>%1: cannot read entry %2</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; has an absolute path</source>
        <translation>%1: entry "%2" has an absolute path</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; leaves the package folder (&quot;..&quot;)</source>
        <translation>%1: entry "%2" leaves the package folder ("..")</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is a symbolic link</source>
        <translation>%1: entry "%2" is a symbolic link</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is not a regular file</source>
        <translation>%1: entry "%2" is not a regular file</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is not a plain file name (letters, digits, &apos;.&apos;, &apos;_&apos;, &apos;-&apos;)</source>
        <translation>%1: entry "%2" is not a plain file name (letters, digits, '.', '_', '-')</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; appears twice</source>
        <translation>%1: entry "%2" appears twice</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is %3 bytes; the limit for it is %4 bytes</source>
        <translation>%1: entry "%2" is %3 bytes; the limit for it is %4 bytes</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; expands more than 1000-fold (zip bomb?)</source>
        <translation>%1: entry "%2" expands more than 1000-fold (zip bomb?)</translation>
    </message>
    <message>
        <source>%1: no entry &quot;%2&quot;</source>
        <translation>%1: no entry "%2"</translation>
    </message>
    <message>
        <source>%1: cannot open entry &quot;%2&quot;: %3</source>
        <translation>%1: cannot open entry "%2": %3</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is damaged: %3</source>
        <translation>%1: entry "%2" is damaged: %3</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is longer than declared</source>
        <translation>%1: entry "%2" is longer than declared</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is shorter than declared</source>
        <translation>%1: entry "%2" is shorter than declared</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::ZipWriter</name>
    <message>
        <source>cannot create %1 (libzip error %2)</source>
        <translation>cannot create %1 (libzip error %2)</translation>
    </message>
    <message>
        <source>cannot add %1 to %2: %3</source>
        <translation>cannot add %1 to %2: %3</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>cannot write %1: %2</translation>
    </message>
    <message>
        <source>cannot rename %1 to %2</source>
        <translation>cannot rename %1 to %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep</name>
    <message>
        <source>parameter &apos;%1&apos;: run-config field &apos;%2&apos; is not an object, so &apos;%3&apos; cannot be set</source>
        <translation>parameter '%1': run-config field '%2' is not an object, so '%3' cannot be set</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: &apos;%2&apos; of node &apos;%3&apos; is not an object</source>
        <translation>parameter '%1': '%2' of node '%3' is not an object</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: the spec has no node &apos;%2&apos; (target &apos;%3&apos;)</source>
        <translation>parameter '%1': the spec has no node '%2' (target '%3')</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: neither the spec nor the run config contains the placeholder &quot;%2&quot;</source>
        <translation>parameter '%1': neither the spec nor the run config contains the placeholder "%2"</translation>
    </message>
    <message>
        <source>%1: cannot read %2: %3</source>
        <translation>%1: cannot read %2: %3</translation>
    </message>
    <message>
        <source>%1: %2 is not a JSON object: %3</source>
        <translation>%1: %2 is not a JSON object: %3</translation>
    </message>
    <message>
        <source>%1%2: unknown field (known: %3)</source>
        <translation>%1%2: unknown field (known: %3)</translation>
    </message>
    <message>
        <source>%1%2: must be %3 &gt;= %4</source>
        <translation>%1%2: must be %3 &gt;= %4</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>an integer</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>a number</translation>
    </message>
    <message>
        <source>%1: unreachable</source>
        <translation>%1: unreachable</translation>
    </message>
    <message>
        <source>%1: full (%2 of %3 in flight)</source>
        <translation>%1: full (%2 of %3 in flight)</translation>
    </message>
    <message>
        <source>%1: finish in %2 s (queue %3 s + %4 s)</source>
        <translation>%1: finish in %2 s (queue %3 s + %4 s)</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SearchSpace</name>
    <message>
        <source>space: must be a non-empty array of parameters</source>
        <translation>space: must be a non-empty array of parameters</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>must be an object</translation>
    </message>
    <message>
        <source>unknown field (known: %1)</source>
        <translation>unknown field (known: %1)</translation>
    </message>
    <message>
        <source>required (a run-config path such as &quot;optimizer.lr&quot;, &quot;spec:&lt;node&gt;.&lt;param&gt;&quot; or &quot;template:&lt;name&gt;&quot;)</source>
        <translation>required (a run-config path such as "optimizer.lr", "spec:&lt;node&gt;.&lt;param&gt;" or "template:&lt;name&gt;")</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is used twice</source>
        <translation>"%1" is used twice</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be spec:&lt;node id&gt;.&lt;param&gt;</source>
        <translation>"%1" must be spec:&lt;node id&gt;.&lt;param&gt;</translation>
    </message>
    <message>
        <source>&quot;%1&quot; needs a name</source>
        <translation>"%1" needs a name</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid field path</source>
        <translation>"%1" is not a valid field path</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a run-config field (known: %2)</source>
        <translation>"%1" is not a run-config field (known: %2)</translation>
    </message>
    <message>
        <source>a choice needs a non-empty array</source>
        <translation>a choice needs a non-empty array</translation>
    </message>
    <message>
        <source>required number</source>
        <translation>required number</translation>
    </message>
    <message>
        <source>an int parameter needs integer bounds</source>
        <translation>an int parameter needs integer bounds</translation>
    </message>
    <message>
        <source>must be greater than low (%1)</source>
        <translation>must be greater than low (%1)</translation>
    </message>
    <message>
        <source>must be &gt; 0 for a log-scale parameter</source>
        <translation>must be &gt; 0 for a log-scale parameter</translation>
    </message>
    <message>
        <source>only int parameters take &quot;log&quot; (use type log_uniform)</source>
        <translation>only int parameters take "log" (use type log_uniform)</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not one of choice, uniform, log_uniform, int</source>
        <translation>"%1" is not one of choice, uniform, log_uniform, int</translation>
    </message>
    <message>
        <source>must be a positive integer</source>
        <translation>must be a positive integer</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: missing from the sample</source>
        <translation>parameter '%1': missing from the sample</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepAlgorithm</name>
    <message>
        <source>limits.max_trials: must be at least 1</source>
        <translation>limits.max_trials: must be at least 1</translation>
    </message>
    <message>
        <source>limits.budget_per_trial: must be positive</source>
        <translation>limits.budget_per_trial: must be positive</translation>
    </message>
    <message>
        <source>algorithm.gamma: must be in (0, 1)</source>
        <translation>algorithm.gamma: must be in (0, 1)</translation>
    </message>
    <message>
        <source>algorithm.candidates and algorithm.startup_trials: must be at least 1</source>
        <translation>algorithm.candidates and algorithm.startup_trials: must be at least 1</translation>
    </message>
    <message>
        <source>algorithm.eta: must be an integer of at least 2</source>
        <translation>algorithm.eta: must be an integer of at least 2</translation>
    </message>
    <message>
        <source>algorithm.min_resource: must be positive and at most limits.budget_per_trial (%1)</source>
        <translation>algorithm.min_resource: must be positive and at most limits.budget_per_trial (%1)</translation>
    </message>
    <message>
        <source>algorithm.name: &quot;%1&quot; is not one of grid, random, tpe, asha, hyperband</source>
        <translation>algorithm.name: "%1" is not one of grid, random, tpe, asha, hyperband</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepController</name>
    <message>
        <source>%1 [sweep %2, trial %3]</source>
        <translation>%1 [sweep %2, trial %3]</translation>
    </message>
    <message>
        <source>Sweep %1 has an invalid stored definition: %2</source>
        <translation>Sweep %1 has an invalid stored definition: %2</translation>
    </message>
    <message>
        <source>No sweep is loaded.</source>
        <translation>No sweep is loaded.</translation>
    </message>
    <message>
        <source>Sweep %1 is %2.</source>
        <translation>Sweep %1 is %2.</translation>
    </message>
    <message>
        <source>Sweep %1 is being run by process %2.</source>
        <translation>Sweep %1 is being run by process %2.</translation>
    </message>
    <message>
        <source>stopped with the sweep</source>
        <translation>stopped with the sweep</translation>
    </message>
    <message>
        <source>trial %1: %2</source>
        <translation>trial %1: %2</translation>
    </message>
    <message>
        <source>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</source>
        <translation>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</translation>
    </message>
    <message>
        <source>No trial %1 in sweep %2.</source>
        <translation>No trial %1 in sweep %2.</translation>
    </message>
    <message>
        <source>the run reported no %1 metric</source>
        <translation>the run reported no %1 metric</translation>
    </message>
    <message>
        <source>the run was marked finished outside the sweep</source>
        <translation>the run was marked finished outside the sweep</translation>
    </message>
    <message>
        <source>sweep: settled after a controller restart</source>
        <translation>sweep: settled after a controller restart</translation>
    </message>
    <message>
        <source>engine process lost</source>
        <translation>engine process lost</translation>
    </message>
    <message>
        <source>target: the workspace has no cluster profile named &quot;%1&quot;</source>
        <translation>target: the workspace has no cluster profile named "%1"</translation>
    </message>
    <message>
        <source>target &quot;%1&quot;: %2</source>
        <translation>target "%1": %2</translation>
    </message>
    <message>
        <source>trial %1: every target is unreachable or full</source>
        <translation>trial %1: every target is unreachable or full</translation>
    </message>
    <message>
        <source>%1 could not take the trial&apos;s job (%2); it goes to another cluster</source>
        <translation>%1 could not take the trial's job (%2); it goes to another cluster</translation>
    </message>
    <message>
        <source>%1 did not answer for %2 s (%3); the trial continues on another cluster</source>
        <translation>%1 did not answer for %2 s (%3); the trial continues on another cluster</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepDefinition</name>
    <message>
        <source>format: must be &quot;%1&quot;</source>
        <translation>format: must be "%1"</translation>
    </message>
    <message>
        <source>name, project: must not be empty</source>
        <translation>name, project: must not be empty</translation>
    </message>
    <message>
        <source>%1: required (a path relative to the sweep file, or an object)</source>
        <translation>%1: required (a path relative to the sweep file, or an object)</translation>
    </message>
    <message>
        <source>objective: required object {&quot;metric&quot;, &quot;split&quot;, &quot;mode&quot;}</source>
        <translation>objective: required object {"metric", "split", "mode"}</translation>
    </message>
    <message>
        <source>objective.metric: required (e.g. &quot;accuracy&quot; or &quot;loss&quot;)</source>
        <translation>objective.metric: required (e.g. "accuracy" or "loss")</translation>
    </message>
    <message>
        <source>objective.split: must be &quot;val&quot; or &quot;train&quot;</source>
        <translation>objective.split: must be "val" or "train"</translation>
    </message>
    <message>
        <source>objective.mode: must be &quot;min&quot; or &quot;max&quot;</source>
        <translation>objective.mode: must be "min" or "max"</translation>
    </message>
    <message>
        <source>limits.budget_unit: must be &quot;epochs&quot; or &quot;steps&quot;</source>
        <translation>limits.budget_unit: must be "epochs" or "steps"</translation>
    </message>
    <message>
        <source>space[%1].target: %2 sets &quot;%3&quot;, which %4 controls as the trial budget</source>
        <translation>space[%1].target: %2 sets "%3", which %4 controls as the trial budget</translation>
    </message>
    <message>
        <source>seed: must be a non-negative integer</source>
        <translation>seed: must be a non-negative integer</translation>
    </message>
    <message>
        <source>limits.packing: must be true or false</source>
        <translation>limits.packing: must be true or false</translation>
    </message>
    <message>
        <source>target: must be &quot;local&quot; or the name of a cluster profile of the workspace</source>
        <translation>target: must be "local" or the name of a cluster profile of the workspace</translation>
    </message>
    <message>
        <source>job: must be an object (partition, nodes, tasks_per_node, time_limit_minutes, ...)</source>
        <translation>job: must be an object (partition, nodes, tasks_per_node, time_limit_minutes, ...)</translation>
    </message>
    <message>
        <source>job: only for a cluster target (set &quot;target&quot; to a cluster profile)</source>
        <translation>job: only for a cluster target (set "target" to a cluster profile)</translation>
    </message>
    <message>
        <source>job: %1</source>
        <translation>job: %1</translation>
    </message>
    <message>
        <source>targets: &quot;target&quot; and &quot;targets&quot; exclude each other; list every cluster in &quot;targets&quot;</source>
        <translation>targets: "target" and "targets" exclude each other; list every cluster in "targets"</translation>
    </message>
    <message>
        <source>targets: must be a list of 1 to 64 cluster profile names</source>
        <translation>targets: must be a list of 1 to 64 cluster profile names</translation>
    </message>
    <message>
        <source>targets[%1]: must name a cluster profile of the workspace, each once (&quot;local&quot; is not one: trials of a multi-cluster sweep are batch jobs)</source>
        <translation>targets[%1]: must name a cluster profile of the workspace, each once ("local" is not one: trials of a multi-cluster sweep are batch jobs)</translation>
    </message>
    <message>
        <source>target_jobs: an object of job resources by cluster name, with &quot;targets&quot;</source>
        <translation>target_jobs: an object of job resources by cluster name, with "targets"</translation>
    </message>
    <message>
        <source>target_jobs.%1: %2</source>
        <translation>target_jobs.%1: %2</translation>
    </message>
    <message>
        <source>not one of &quot;targets&quot;</source>
        <translation>not one of "targets"</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>must be an object</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepStore</name>
    <message>
        <source>Cannot create the sweep: %1</source>
        <translation>Cannot create the sweep: %1</translation>
    </message>
    <message>
        <source>No sweep %1.</source>
        <translation>No sweep %1.</translation>
    </message>
    <message>
        <source>Cannot record trial %1 of sweep %2: %3</source>
        <translation>Cannot record trial %1 of sweep %2: %3</translation>
    </message>
    <message>
        <source>Cannot write the config of run %1: %2</source>
        <translation>Cannot write the config of run %1: %2</translation>
    </message>
</context>
<context>
    <name>diamond::gallery</name>
    <message>
        <source>the package is not signed</source>
        <translation>the package is not signed</translation>
    </message>
</context>
<context>
    <name>diamond::remote</name>
    <message>
        <source>Cannot seek in %1</source>
        <translation>Cannot seek in %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>Cannot write %1: %2</translation>
    </message>
    <message>
        <source>Transfer cancelled</source>
        <translation>Transfer cancelled</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>Cannot read %1: %2</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>Cannot open %1: %2</translation>
    </message>
    <message>
        <source>Command timed out after %1 ms</source>
        <translation>Command timed out after %1 ms</translation>
    </message>
    <message>
        <source>Command crashed</source>
        <translation>Command crashed</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>this computer</translation>
    </message>
    <message>
        <source>ldd %1 failed: %2</source>
        <translation>ldd %1 failed: %2</translation>
    </message>
    <message>
        <source>%1 needs %2, which is not installed</source>
        <translation>%1 needs %2, which is not installed</translation>
    </message>
    <message>
        <source>%1 is not a dynamically linked program</source>
        <translation>%1 is not a dynamically linked program</translation>
    </message>
    <message>
        <source>The bundle folder %1 is not empty</source>
        <translation>The bundle folder %1 is not empty</translation>
    </message>
    <message>
        <source>Cannot create %1</source>
        <translation>Cannot create %1</translation>
    </message>
    <message>
        <source>Cannot copy %1 to %2</source>
        <translation>Cannot copy %1 to %2</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>Cannot write %1</translation>
    </message>
    <message>
        <source>Cannot write the bundle manifest</source>
        <translation>Cannot write the bundle manifest</translation>
    </message>
    <message>
        <source>tar failed: %1</source>
        <translation>tar failed: %1</translation>
    </message>
    <message>
        <source>%1: is required</source>
        <translation>%1: is required</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; must be an absolute path</source>
        <translation>%1: '%2' must be an absolute path</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; must not contain double quotes or line breaks</source>
        <translation>%1: '%2' must not contain double quotes or line breaks</translation>
    </message>
    <message>
        <source>%1: expected a string</source>
        <translation>%1: expected a string</translation>
    </message>
    <message>
        <source>%1: expected a whole number from 0</source>
        <translation>%1: expected a whole number from 0</translation>
    </message>
    <message>
        <source>%1: expected a list of strings</source>
        <translation>%1: expected a list of strings</translation>
    </message>
    <message>
        <source>%1: unknown field</source>
        <translation>%1: unknown field</translation>
    </message>
    <message>
        <source>job_name: &apos;%1&apos; must be 1-64 letters, digits, spaces, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;</source>
        <translation>job_name: '%1' must be 1-64 letters, digits, spaces, '.', '_' or '-'</translation>
    </message>
    <message>
        <source>partition: &apos;%1&apos; is not a partition name</source>
        <translation>partition: '%1' is not a partition name</translation>
    </message>
    <message>
        <source>account: &apos;%1&apos; is not an account name</source>
        <translation>account: '%1' is not an account name</translation>
    </message>
    <message>
        <source>qos: &apos;%1&apos; is not a QOS name</source>
        <translation>qos: '%1' is not a QOS name</translation>
    </message>
    <message>
        <source>nodes: %1 is not from 1 to 100000</source>
        <translation>nodes: %1 is not from 1 to 100000</translation>
    </message>
    <message>
        <source>tasks_per_node: %1 is not from 1 to 1024</source>
        <translation>tasks_per_node: %1 is not from 1 to 1024</translation>
    </message>
    <message>
        <source>gpus_per_node: %1 is not from 0 to 1024</source>
        <translation>gpus_per_node: %1 is not from 0 to 1024</translation>
    </message>
    <message>
        <source>gpu_type: &apos;%1&apos; is not a GPU type</source>
        <translation>gpu_type: '%1' is not a GPU type</translation>
    </message>
    <message>
        <source>cpus_per_task: %1 is not from 0 to 4096</source>
        <translation>cpus_per_task: %1 is not from 0 to 4096</translation>
    </message>
    <message>
        <source>memory: &apos;%1&apos; is not a size like 4000M or 16G</source>
        <translation>memory: '%1' is not a size like 4000M or 16G</translation>
    </message>
    <message>
        <source>time_limit: must not be negative</source>
        <translation>time_limit: must not be negative</translation>
    </message>
    <message>
        <source>signal_seconds: %1 is not from 0 to 65535</source>
        <translation>signal_seconds: %1 is not from 0 to 65535</translation>
    </message>
    <message>
        <source>signal_seconds: %1 s is not shorter than the time limit (%2 min)</source>
        <translation>signal_seconds: %1 s is not shorter than the time limit (%2 min)</translation>
    </message>
    <message>
        <source>engine.path: is required</source>
        <translation>engine.path: is required</translation>
    </message>
    <message>
        <source>array: &apos;%1&apos; is not an index list like 0-9 or 1,3,5%2</source>
        <translation>array: '%1' is not an index list like 0-9 or 1,3,5%2</translation>
    </message>
    <message>
        <source>dependency[%1]: &apos;%2&apos; is not a job id</source>
        <translation>dependency[%1]: '%2' is not a job id</translation>
    </message>
    <message>
        <source>environment.%1: is not a valid variable name</source>
        <translation>environment.%1: is not a valid variable name</translation>
    </message>
    <message>
        <source>extra_directives[%1]: &apos;%2&apos; must be one option starting with &apos;-&apos;</source>
        <translation>extra_directives[%1]: '%2' must be one option starting with '-'</translation>
    </message>
    <message>
        <source>container.image: is required with a container runtime</source>
        <translation>container.image: is required with a container runtime</translation>
    </message>
    <message>
        <source>nodes: PBS jobs run on one node (the engine&apos;s --nproc starts the ranks)</source>
        <translation>nodes: PBS jobs run on one node (the engine's --nproc starts the ranks)</translation>
    </message>
    <message>
        <source>signal_seconds: PBS has no pre-timeout signal; the engine checkpoints on the walltime TERM</source>
        <translation>signal_seconds: PBS has no pre-timeout signal; the engine checkpoints on the walltime TERM</translation>
    </message>
    <message>
        <source>The input of the command was stopped</source>
        <translation>The input of the command was stopped</translation>
    </message>
    <message>
        <source>chain_jobs: %1 is not from 1 to %2</source>
        <translation>chain_jobs: %1 is not from 1 to %2</translation>
    </message>
    <message>
        <source>nodes, tasks_per_node: a job step command runs one task on one node</source>
        <translation>nodes, tasks_per_node: a job step command runs one task on one node</translation>
    </message>
    <message>
        <source>tasks_per_node: %1 processes per node on %2 GPU(s) per node: each process of a cuda run takes a GPU of its own</source>
        <translation>tasks_per_node: %1 processes per node on %2 GPU(s) per node: each process of a cuda run takes a GPU of its own</translation>
    </message>
</context>
<context>
    <name>diamond::remote::ClusterProfile</name>
    <message>
        <source>name: &apos;%1&apos; must be 1-64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit</source>
        <translation>name: '%1' must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit</translation>
    </message>
    <message>
        <source>host: is required</source>
        <translation>host: is required</translation>
    </message>
    <message>
        <source>host: &apos;%1&apos; is not a host name or address</source>
        <translation>host: '%1' is not a host name or address</translation>
    </message>
    <message>
        <source>port: %1 is not from 1 to 65535</source>
        <translation>port: %1 is not from 1 to 65535</translation>
    </message>
    <message>
        <source>user: &apos;%1&apos; is not a user name</source>
        <translation>user: '%1' is not a user name</translation>
    </message>
    <message>
        <source>scratch_dir: is required (the run folders on the cluster go there)</source>
        <translation>scratch_dir: is required (the run folders on the cluster go there)</translation>
    </message>
    <message>
        <source>scratch_dir: &apos;%1&apos; must be an absolute path</source>
        <translation>scratch_dir: '%1' must be an absolute path</translation>
    </message>
    <message>
        <source>engine_path: is required (diamond-train on the cluster)</source>
        <translation>engine_path: is required (diamond-train on the cluster)</translation>
    </message>
    <message>
        <source>account: &apos;%1&apos; must not contain spaces</source>
        <translation>account: '%1' must not contain spaces</translation>
    </message>
    <message>
        <source>partitions[%1].name: &apos;%2&apos; is not a partition name</source>
        <translation>partitions[%1].name: '%2' is not a partition name</translation>
    </message>
    <message>
        <source>partitions[%1].name: &apos;%2&apos; is listed twice</source>
        <translation>partitions[%1].name: '%2' is listed twice</translation>
    </message>
    <message>
        <source>partitions[%1].gpus_per_node: must not be negative</source>
        <translation>partitions[%1].gpus_per_node: must not be negative</translation>
    </message>
    <message>
        <source>partitions[%1].cpus_per_node: must not be negative</source>
        <translation>partitions[%1].cpus_per_node: must not be negative</translation>
    </message>
    <message>
        <source>partitions[%1].memory_mb: must not be negative</source>
        <translation>partitions[%1].memory_mb: must not be negative</translation>
    </message>
    <message>
        <source>partitions[%1].max_walltime_minutes: must not be negative</source>
        <translation>partitions[%1].max_walltime_minutes: must not be negative</translation>
    </message>
    <message>
        <source>partitions: more than one partition is marked default</source>
        <translation>partitions: more than one partition is marked default</translation>
    </message>
    <message>
        <source>modules[%1]: &apos;%2&apos; is not a module name</source>
        <translation>modules[%1]: '%2' is not a module name</translation>
    </message>
    <message>
        <source>container.image: is required when container.runtime is %1</source>
        <translation>container.image: is required when container.runtime is %1</translation>
    </message>
    <message>
        <source>environment.%1: is not a valid variable name</source>
        <translation>environment.%1: is not a valid variable name</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of %2</source>
        <translation>'%1' is not one of %2</translation>
    </message>
    <message>
        <source>expected a list of objects</source>
        <translation>expected a list of objects</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>expected an object</translation>
    </message>
    <message>
        <source>expected an object of strings</source>
        <translation>expected an object of strings</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>expected a string</translation>
    </message>
    <message>
        <source>container.command: &apos;%1&apos; is not a program name or an absolute path</source>
        <translation>container.command: '%1' is not a program name or an absolute path</translation>
    </message>
    <message>
        <source>gpu_directive: &apos;%1&apos; is not gpus-per-node or gres</source>
        <translation>gpu_directive: '%1' is not gpus-per-node or gres</translation>
    </message>
</context>
<context>
    <name>diamond::remote::PbsScheduler</name>
    <message>
        <source>qsub printed no job id: %1</source>
        <translation>qsub printed no job id: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a PBS job id</source>
        <translation>'%1' is not a PBS job id</translation>
    </message>
</context>
<context>
    <name>diamond::remote::Reader</name>
    <message>
        <source>unknown field (known: %1)</source>
        <translation>unknown field (known: %1)</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>is required</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>expected a string</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>must not be empty</translation>
    </message>
    <message>
        <source>expected a whole number from %1 to %2</source>
        <translation>expected a whole number from %1 to %2</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>expected true or false</translation>
    </message>
    <message>
        <source>expected a list of strings</source>
        <translation>expected a list of strings</translation>
    </message>
</context>
<context>
    <name>diamond::remote::Scheduler</name>
    <message>
        <source>exit code %1</source>
        <translation>exit code %1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 failed: %2</translation>
    </message>
    <message>
        <source>The %1 scheduler gives no start-time estimate for a job not yet submitted.</source>
        <translation>The %1 scheduler gives no start-time estimate for a job not yet submitted.</translation>
    </message>
    <message>
        <source>The %1 scheduler&apos;s load is not read.</source>
        <translation>The %1 scheduler's load is not read.</translation>
    </message>
    <message>
        <source>The %1 scheduler reports no fair share.</source>
        <translation>The %1 scheduler reports no fair share.</translation>
    </message>
</context>
<context>
    <name>diamond::remote::SlurmScheduler</name>
    <message>
        <source>sbatch printed no job id: %1</source>
        <translation>sbatch printed no job id: %1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a Slurm job id</source>
        <translation>'%1' is not a Slurm job id</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid value for %2</source>
        <translation>'%1' is not a valid value for %2</translation>
    </message>
    <message>
        <source>The job&apos;s nodes, tasks, CPUs, GPUs or time limit are out of range.</source>
        <translation>The job's nodes, tasks, CPUs, GPUs or time limit are out of range.</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a GPU type</source>
        <translation>'%1' is not a GPU type</translation>
    </message>
    <message>
        <source>sbatch --test-only failed: %1</source>
        <translation>sbatch --test-only failed: %1</translation>
    </message>
    <message>
        <source>sbatch --test-only printed no start time: %1</source>
        <translation>sbatch --test-only printed no start time: %1</translation>
    </message>
    <message>
        <source>This cluster keeps no fair-share accounting (sshare is empty).</source>
        <translation>This cluster keeps no fair-share accounting (sshare is empty).</translation>
    </message>
</context>
<context>
    <name>diamond::ui::AddRemoteDialog</name>
    <message>
        <source>Add a remote gallery</source>
        <translation>Add a remote gallery</translation>
    </message>
    <message>
        <source>A remote gallery is a workspace served with &lt;code&gt;diamondctl serve&lt;/code&gt;. Its owner gives you the address and the token (&lt;code&gt;diamondctl serve --print-token&lt;/code&gt;).</source>
        <translation>A remote gallery is a workspace served with &lt;code&gt;diamondctl serve&lt;/code&gt;. Its owner gives you the address and the token (&lt;code&gt;diamondctl serve --print-token&lt;/code&gt;).</translation>
    </message>
    <message>
        <source>Lab server</source>
        <translation>Lab server</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>&amp;Address:</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <source>The address must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8765.</source>
        <translation>The address must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8765.</translation>
    </message>
    <message>
        <source>The token is required: every request to a Diamond server carries it.</source>
        <translation>The token is required: every request to a Diamond server carries it.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ClusterManagerPage</name>
    <message>
        <source>Refresh</source>
        <translation>Refresh</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>Cancel job</translation>
    </message>
    <message>
        <source>Refresh every 10 s</source>
        <translation>Refresh every 10 s</translation>
    </message>
    <message>
        <source>Cancel the job %1?</source>
        <translation>Cancel the job %1?</translation>
    </message>
    <message>
        <source>Testing the connection to %1…</source>
        <translation>Testing the connection to %1…</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>Connection</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>Scheduler</translation>
    </message>
    <message>
        <source>Scratch folder</source>
        <translation>Scratch folder</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>Container</translation>
    </message>
    <message numerus="yes">
        <source>Connection OK: all %n check(s) passed.</source>
        <translation><numerusform>Connection OK: all %n check passed.</numerusform><numerusform>Connection OK: all %n checks passed.</numerusform></translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>Connection failed: %1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n check(s) failed.</source>
        <translation><numerusform>%1 of %n check failed.</numerusform><numerusform>%1 of %n checks failed.</numerusform></translation>
    </message>
    <message>
        <source>Host key changed</source>
        <translation>Host key changed</translation>
    </message>
    <message>
        <source>The host key of %1 does not match the one remembered in the known hosts file. Diamond refused to connect: someone may be intercepting the connection, or the cluster&apos;s key was changed. Check with the cluster&apos;s administrators, then remove the old key from the known hosts file.</source>
        <translation>The host key of %1 does not match the one remembered in the known hosts file. Diamond refused to connect: someone may be intercepting the connection, or the cluster's key was changed. Check with the cluster's administrators, then remove the old key from the known hosts file.</translation>
    </message>
    <message>
        <source>The scheduler is &quot;none&quot;: there are no partitions to probe.</source>
        <translation>The scheduler is "none": there are no partitions to probe.</translation>
    </message>
    <message>
        <source>Probing the partitions of %1…</source>
        <translation>Probing the partitions of %1…</translation>
    </message>
    <message numerus="yes">
        <source>Found %n partition(s). Save to keep them.</source>
        <translation><numerusform>Found %n partition. Save to keep them.</numerusform><numerusform>Found %n partitions. Save to keep them.</numerusform></translation>
    </message>
    <message>
        <source>Probe failed: %1</source>
        <translation>Probe failed: %1</translation>
    </message>
    <message>
        <source>Cannot list jobs: %1</source>
        <translation>Cannot list jobs: %1</translation>
    </message>
    <message>
        <source>This cluster has no batch scheduler: there is no job queue.</source>
        <translation>This cluster has no batch scheduler: there is no job queue.</translation>
    </message>
    <message>
        <source>Refreshing the jobs of %1…</source>
        <translation>Refreshing the jobs of %1…</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) queued or running — updated %1.</source>
        <translation><numerusform>%n job queued or running — updated %1.</numerusform><numerusform>%n jobs queued or running — updated %1.</numerusform></translation>
    </message>
    <message>
        <source>Cancelling the job %1…</source>
        <translation>Cancelling the job %1…</translation>
    </message>
    <message>
        <source>Job cancelled.</source>
        <translation>Job cancelled.</translation>
    </message>
    <message>
        <source>Cancel failed: %1</source>
        <translation>Cancel failed: %1</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profile</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Jobs</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>Clusters</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Add</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>Duplicate</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <source>Start a new cluster profile</source>
        <translation>Start a new cluster profile</translation>
    </message>
    <message>
        <source>Start a new profile from a copy of this one</source>
        <translation>Start a new profile from a copy of this one</translation>
    </message>
    <message>
        <source>Remove this profile from the workspace</source>
        <translation>Remove this profile from the workspace</translation>
    </message>
    <message>
        <source>e.g. hpc</source>
        <translation>e.g. hpc</translation>
    </message>
    <message>
        <source>login.cluster.example, or &quot;local&quot; for this computer</source>
        <translation>login.cluster.example, or "local" for this computer</translation>
    </message>
    <message>
        <source>your user name on the cluster</source>
        <translation>your user name on the cluster</translation>
    </message>
    <message>
        <source>~/.ssh/id_ed25519 (empty: ssh-agent)</source>
        <translation>~/.ssh/id_ed25519 (empty: ssh-agent)</translation>
    </message>
    <message>
        <source>empty: ~/.ssh/known_hosts</source>
        <translation>empty: ~/.ssh/known_hosts</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>Port</translation>
    </message>
    <message>
        <source>User</source>
        <translation>User</translation>
    </message>
    <message>
        <source>Identity file</source>
        <translation>Identity file</translation>
    </message>
    <message>
        <source>Known hosts file</source>
        <translation>Known hosts file</translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation>Deployment</translation>
    </message>
    <message>
        <source>/scratch/you/diamond</source>
        <translation>/scratch/you/diamond</translation>
    </message>
    <message>
        <source>path of diamond-train on the cluster</source>
        <translation>path of diamond-train on the cluster</translation>
    </message>
    <message>
        <source>cuda/12.1, nccl (comma separated)</source>
        <translation>cuda/12.1, nccl (comma separated)</translation>
    </message>
    <message>
        <source>none (bare engine)</source>
        <translation>none (bare engine)</translation>
    </message>
    <message>
        <source>.sif path or image reference</source>
        <translation>.sif path or image reference</translation>
    </message>
    <message>
        <source>extra runtime arguments, space separated</source>
        <translation>extra runtime arguments, space separated</translation>
    </message>
    <message>
        <source>NAME=value, one per line</source>
        <translation>NAME=value, one per line</translation>
    </message>
    <message>
        <source>Engine path</source>
        <translation>Engine path</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>Modules</translation>
    </message>
    <message>
        <source>Container runtime</source>
        <translation>Container runtime</translation>
    </message>
    <message>
        <source>Container image</source>
        <translation>Container image</translation>
    </message>
    <message>
        <source>Container options</source>
        <translation>Container options</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>Environment</translation>
    </message>
    <message>
        <source>Slurm</source>
        <translation>Slurm</translation>
    </message>
    <message>
        <source>PBS</source>
        <translation>PBS</translation>
    </message>
    <message>
        <source>none (run directly)</source>
        <translation>none (run directly)</translation>
    </message>
    <message>
        <source>project to charge (optional)</source>
        <translation>project to charge (optional)</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>Account</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>Partitions</translation>
    </message>
    <message>
        <source>Add partition</source>
        <translation>Add partition</translation>
    </message>
    <message>
        <source>Remove partition</source>
        <translation>Remove partition</translation>
    </message>
    <message>
        <source>Probe partitions</source>
        <translation>Probe partitions</translation>
    </message>
    <message>
        <source>Read the partitions from the scheduler (sinfo / scontrol, qstat)</source>
        <translation>Read the partitions from the scheduler (sinfo / scontrol, qstat)</translation>
    </message>
    <message>
        <source>Connection test</source>
        <translation>Connection test</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Check</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>Result</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Test connection</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Revert</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Save</translation>
    </message>
    <message>
        <source>Cannot open the workspace %1: %2</source>
        <translation>Cannot open the workspace %1: %2</translation>
    </message>
    <message>
        <source>environment: line %1 (&quot;%2&quot;) is not NAME=value</source>
        <translation>environment: line %1 ("%2") is not NAME=value</translation>
    </message>
    <message>
        <source>New cluster (not saved)</source>
        <translation>New cluster (not saved)</translation>
    </message>
    <message>
        <source>New cluster (copy, not saved)</source>
        <translation>New cluster (copy, not saved)</translation>
    </message>
    <message>
        <source>Remove cluster</source>
        <translation>Remove cluster</translation>
    </message>
    <message>
        <source>Remove the cluster profile &quot;%1&quot; from this workspace?
Runs already sent to it are kept.</source>
        <translation>Remove the cluster profile "%1" from this workspace?
Runs already sent to it are kept.</translation>
    </message>
    <message>
        <source>Removed the cluster &quot;%1&quot;.</source>
        <translation>Removed the cluster "%1".</translation>
    </message>
    <message>
        <source>No workspace is open: the profile cannot be stored.</source>
        <translation>No workspace is open: the profile cannot be stored.</translation>
    </message>
    <message>
        <source>Saved the cluster &quot;%1&quot;.</source>
        <translation>Saved the cluster "%1".</translation>
    </message>
    <message>
        <source>Cannot save: %1</source>
        <translation>Cannot save: %1</translation>
    </message>
    <message>
        <source>%1 (modified)</source>
        <translation>%1 (modified)</translation>
    </message>
    <message>
        <source>Save the profile before calibrating it.</source>
        <translation>Save the profile before calibrating it.</translation>
    </message>
    <message>
        <source>Calibration runs as a Slurm job step; this cluster&apos;s scheduler is not Slurm.</source>
        <translation>Calibration runs as a Slurm job step; this cluster's scheduler is not Slurm.</translation>
    </message>
    <message>
        <source>Calibrating a node of %1&apos;s default partition…</source>
        <translation>Calibrating a node of %1's default partition…</translation>
    </message>
    <message>
        <source>Calibrating a node of partition %1…</source>
        <translation>Calibrating a node of partition %1…</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>Calibration failed: %1</translation>
    </message>
    <message>
        <source>Calibrated node %1 in %2 s; plans for this cluster now use it (saved as %3).</source>
        <translation>Calibrated node %1 in %2 s; plans for this cluster now use it (saved as %3).</translation>
    </message>
    <message>
        <source>The calibration could not be saved: %1</source>
        <translation>The calibration could not be saved: %1</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>Calibrate</translation>
    </message>
    <message>
        <source>Measure a node of the selected partition (a short srun job, about a minute) so that plans predict step times there</source>
        <translation>Measure a node of the selected partition (a short srun job, about a minute) so that plans predict step times there</translation>
    </message>
    <message>
        <source>Save the profile before deploying the engine.</source>
        <translation>Save the profile before deploying the engine.</translation>
    </message>
    <message>
        <source>Building an engine image on %1…</source>
        <translation>Building an engine image on %1…</translation>
    </message>
    <message>
        <source>Copying this computer&apos;s engine to %1…</source>
        <translation>Copying this computer's engine to %1…</translation>
    </message>
    <message>
        <source>Deploying the engine failed: %1</source>
        <translation>Deploying the engine failed: %1</translation>
    </message>
    <message>
        <source>The engine was deployed, but the profile could not be saved: %1</source>
        <translation>The engine was deployed, but the profile could not be saved: %1</translation>
    </message>
    <message>
        <source>no workspace</source>
        <translation>no workspace</translation>
    </message>
    <message>
        <source>Engine deployed in %1 s (%2 MB sent); this profile now uses it.</source>
        <translation>Engine deployed in %1 s (%2 MB sent); this profile now uses it.</translation>
    </message>
    <message>
        <source>empty: the runtime&apos;s name on PATH</source>
        <translation>empty: the runtime's name on PATH</translation>
    </message>
    <message>
        <source>Container program</source>
        <translation>Container program</translation>
    </message>
    <message>
        <source>Deploy engine</source>
        <translation>Deploy engine</translation>
    </message>
    <message>
        <source>Put a working diamond-train on the cluster and use it in this profile</source>
        <translation>Put a working diamond-train on the cluster and use it in this profile</translation>
    </message>
    <message>
        <source>Copy this computer&apos;s engine (CPU nodes)</source>
        <translation>Copy this computer's engine (CPU nodes)</translation>
    </message>
    <message>
        <source>The engine and its libraries go into the scratch folder (about 200 MB)</source>
        <translation>The engine and its libraries go into the scratch folder (about 200 MB)</translation>
    </message>
    <message>
        <source>Build an Apptainer image there (GPU nodes)</source>
        <translation>Build an Apptainer image there (GPU nodes)</translation>
    </message>
    <message>
        <source>Built from source against PyTorch with CUDA, as a job on the selected partition</source>
        <translation>Built from source against PyTorch with CUDA, as a job on the selected partition</translation>
    </message>
    <message>
        <source>--gpus-per-node (Slurm 19.05 and later)</source>
        <translation>--gpus-per-node (Slurm 19.05 and later)</translation>
    </message>
    <message>
        <source>--gres=gpu (older sites)</source>
        <translation>--gres=gpu (older sites)</translation>
    </message>
    <message>
        <source>GPU request</source>
        <translation>GPU request</translation>
    </message>
    <message>
        <source>All clusters</source>
        <translation>All clusters</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ClusterOverviewView</name>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Nodes idle / allocated</source>
        <translation>Nodes idle / allocated</translation>
    </message>
    <message>
        <source>CPUs in use</source>
        <translation>CPUs in use</translation>
    </message>
    <message>
        <source>Your jobs</source>
        <translation>Your jobs</translation>
    </message>
    <message>
        <source>Fair share</source>
        <translation>Fair share</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>Updated</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>Problem</translation>
    </message>
    <message>
        <source>&amp;Refresh all</source>
        <translation>&amp;Refresh all</translation>
    </message>
    <message>
        <source>Read every cluster now (also every 30 s while this tab is shown)</source>
        <translation>Read every cluster now (also every 30 s while this tab is shown)</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n cluster(s)…</source>
        <translation><numerusform>Reading %n cluster…</numerusform><numerusform>Reading %n clusters…</numerusform></translation>
    </message>
    <message>
        <source>reachable</source>
        <translation>reachable</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>reading…</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>stale</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>unreachable</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1 (default)</translation>
    </message>
    <message>
        <source>%1 / %2 of %3</source>
        <translation>%1 / %2 of %3</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 of %2</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>%1 %2 (%3)</source>
        <translation>%1 %2 (%3)</translation>
    </message>
    <message>
        <source>none</source>
        <translation>none</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>not reported</translation>
    </message>
    <message>
        <source>%1 reachable, %2 stale, %3 reading</source>
        <translation>%1 reachable, %2 stale, %3 reading</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ClusterProfilesModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ComparePage</name>
    <message>
        <source>Metric:</source>
        <translation>Metric:</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validation</translation>
    </message>
    <message>
        <source>train</source>
        <translation>train</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>&amp;Log scale</translation>
    </message>
    <message numerus="yes">
        <source>Loading %n run(s)…</source>
        <translation><numerusform>Loading %n run…</numerusform><numerusform>Loading %n runs…</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation><numerusform>%n run</numerusform><numerusform>%n runs</numerusform></translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ComputeOptions</name>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>GPU (CUDA)</source>
        <translation>GPU (CUDA)</translation>
    </message>
    <message>
        <source>On a GPU every process takes one GPU of its node</source>
        <translation>On a GPU every process takes one GPU of its node</translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation>De&amp;vice:</translation>
    </message>
    <message>
        <source>fp32 (full precision)</source>
        <translation>fp32 (full precision)</translation>
    </message>
    <message>
        <source>bf16 (mixed precision)</source>
        <translation>bf16 (mixed precision)</translation>
    </message>
    <message>
        <source>fp16 (mixed precision, GPU only)</source>
        <translation>fp16 (mixed precision, GPU only)</translation>
    </message>
    <message>
        <source>Mixed precision computes layers in 16 bits (faster, less memory); the weights stay 32-bit</source>
        <translation>Mixed precision computes layers in 16 bits (faster, less memory); the weights stay 32-bit</translation>
    </message>
    <message>
        <source>Nodes of the job; the processes run on each of them</source>
        <translation>Nodes of the job; the processes run on each of them</translation>
    </message>
    <message>
        <source>N&amp;odes:</source>
        <translation>N&amp;odes:</translation>
    </message>
    <message>
        <source>one per process</source>
        <translation>one per process</translation>
    </message>
    <message>
        <source>&amp;GPUs per node:</source>
        <translation>&amp;GPUs per node:</translation>
    </message>
    <message>
        <source>any</source>
        <translation>any</translation>
    </message>
    <message>
        <source>Precisio&amp;n:</source>
        <translation>Precisio&amp;n:</translation>
    </message>
    <message>
        <source>GPU t&amp;ype:</source>
        <translation>GPU t&amp;ype:</translation>
    </message>
    <message>
        <source>Recompute every layer in backward</source>
        <translation>Recompute every layer in backward</translation>
    </message>
    <message>
        <source>Act&amp;ivations:</source>
        <translation>Act&amp;ivations:</translation>
    </message>
    <message>
        <source>Nothing: each process holds all of it</source>
        <translation>Nothing: each process holds all of it</translation>
    </message>
    <message>
        <source>The optimizer state</source>
        <translation>The optimizer state</translation>
    </message>
    <message>
        <source>The optimizer state and the gradients</source>
        <translation>The optimizer state and the gradients</translation>
    </message>
    <message>
        <source>Every process keeps the whole optimizer state and all gradients (data parallel).</source>
        <translation>Every process keeps the whole optimizer state and all gradients (data parallel).</translation>
    </message>
    <message>
        <source>Each process keeps only its share of the optimizer&apos;s state (ZeRO stage 1): Adam needs half the memory for it with 2 processes, a quarter with 4. Each step also gathers the updated weights.</source>
        <translation>Each process keeps only its share of the optimizer's state (ZeRO stage 1): Adam needs half the memory for it with 2 processes, a quarter with 4. Each step also gathers the updated weights.</translation>
    </message>
    <message>
        <source>Each process also keeps only the gradients of its share (ZeRO stage 2): with Adam and 2 processes about half of what the optimizer state and the gradients take otherwise, for no more traffic between the processes.</source>
        <translation>Each process also keeps only the gradients of its share (ZeRO stage 2): with Adam and 2 processes about half of what the optimizer state and the gradients take otherwise, for no more traffic between the processes.</translation>
    </message>
    <message>
        <source>What the processes split between them instead of each holding all of it. The weights trained are the same either way.</source>
        <translation>What the processes split between them instead of each holding all of it. The weights trained are the same either way.</translation>
    </message>
    <message>
        <source>Split (&amp;ZeRO):</source>
        <translation>Split (&amp;ZeRO):</translation>
    </message>
    <message>
        <source>Keep them (only layers marked ↻ recompute)</source>
        <translation>Keep them (only layers marked ↻ recompute)</translation>
    </message>
    <message>
        <source>Recompute what a memory budget needs</source>
        <translation>Recompute what a memory budget needs</translation>
    </message>
    <message>
        <source>Keep them all (ignore the ↻ marks)</source>
        <translation>Keep them all (ignore the ↻ marks)</translation>
    </message>
    <message>
        <source>Recomputed layers keep almost none of their intermediate values for the backward pass and compute them again there (activation checkpointing): less memory for more time. The weights are the same either way.</source>
        <translation>Recomputed layers keep almost none of their intermediate values for the backward pass and compute them again there (activation checkpointing): less memory for more time. The weights are the same either way.</translation>
    </message>
    <message>
        <source>The layers that save the most memory for the least computation, until the activations of one process fit the budget below</source>
        <translation>The layers that save the most memory for the least computation, until the activations of one process fit the budget below</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>The most the activations of one process may take (estimated)</source>
        <translation>The most the activations of one process may take (estimated)</translation>
    </message>
    <message>
        <source>Activation b&amp;udget:</source>
        <translation>Activation b&amp;udget:</translation>
    </message>
    <message>
        <source>Each trains on part of every batch</source>
        <translation>Each trains on part of every batch</translation>
    </message>
    <message>
        <source>Each holds a stage of the network</source>
        <translation>Each holds a stage of the network</translation>
    </message>
    <message>
        <source>Data parallel: every process holds the whole network and trains on its share of each batch; their gradients are averaged.</source>
        <translation>Data parallel: every process holds the whole network and trains on its share of each batch; their gradients are averaged.</translation>
    </message>
    <message>
        <source>Pipeline: the network is cut into consecutive stages, one per process, so that each holds only its stage&apos;s weights and optimizer state; each batch flows through them in micro-batches. For networks too large for one process.</source>
        <translation>Pipeline: the network is cut into consecutive stages, one per process, so that each holds only its stage's weights and optimizer state; each batch flows through them in micro-batches. For networks too large for one process.</translation>
    </message>
    <message>
        <source>How the processes share the training. The weights trained are the same either way (a pipeline&apos;s are those of one process adding up the micro-batches).</source>
        <translation>How the processes share the training. The weights trained are the same either way (a pipeline's are those of one process adding up the micro-batches).</translation>
    </message>
    <message>
        <source>Processes wor&amp;k as:</source>
        <translation>Processes wor&amp;k as:</translation>
    </message>
    <message>
        <source>Each batch is cut into this many micro-batches that follow each other through the stages; more keep the stages busier, fewer make each larger. Must divide the batch size. The cut balances the stages&apos; computation.</source>
        <translation>Each batch is cut into this many micro-batches that follow each other through the stages; more keep the stages busier, fewer make each larger. Must divide the batch size. The cut balances the stages' computation.</translation>
    </message>
    <message>
        <source>Micro-batc&amp;hes:</source>
        <translation>Micro-batc&amp;hes:</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ConfusionMatrixView</name>
    <message>
        <source>Rows: true class; columns: predicted class. Colour: share of the row.</source>
        <translation>Rows: true class; columns: predicted class. Colour: share of the row.</translation>
    </message>
    <message>
        <source>The confusion matrix appears when the run is evaluated.</source>
        <translation>The confusion matrix appears when the run is evaluated.</translation>
    </message>
    <message>
        <source>true</source>
        <translation>true</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>predicted</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ConnectServerDialog</name>
    <message>
        <source>Connect to a class server</source>
        <translation>Connect to a class server</translation>
    </message>
    <message>
        <source>Train on your course&apos;s server: the runs go there, the curves come back here. Your instructor gives you the address and your token.</source>
        <translation>Train on your course's server: the runs go there, the curves come back here. Your instructor gives you the address and your token.</translation>
    </message>
    <message>
        <source>the token diamondctl user add printed for you</source>
        <translation>the token diamondctl user add printed for you</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>&amp;Address:</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>&amp;Token:</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>&amp;Connect</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Connecting to %1…</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2).</source>
        <translation>Signed in as %1 (%2).</translation>
    </message>
</context>
<context>
    <name>diamond::ui::CurveChart</name>
    <message>
        <source>debiased EMA smoothing, weight %1</source>
        <translation>debiased EMA smoothing, weight %1</translation>
    </message>
</context>
<context>
    <name>diamond::ui::DatasetPreviewWidget</name>
    <message>
        <source>Loading preview…</source>
        <translation>Loading preview…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::DatasetsPage</name>
    <message>
        <source>Hashing %1 of %2…</source>
        <translation>Hashing %1 of %2…</translation>
    </message>
    <message>
        <source>Add &amp;file…</source>
        <translation>Add &amp;file…</translation>
    </message>
    <message>
        <source>Register a CSV, NumPy, HDF5 or IDX file (a new version when the name exists)</source>
        <translation>Register a CSV, NumPy, HDF5 or IDX file (a new version when the name exists)</translation>
    </message>
    <message>
        <source>Add f&amp;older…</source>
        <translation>Add f&amp;older…</translation>
    </message>
    <message>
        <source>Register a folder, e.g. images in one sub-folder per class</source>
        <translation>Register a folder, e.g. images in one sub-folder per class</translation>
    </message>
    <message>
        <source>&amp;New version…</source>
        <translation>&amp;New version…</translation>
    </message>
    <message>
        <source>Import a changed copy as the next version of the selected dataset; only changed content is stored</source>
        <translation>Import a changed copy as the next version of the selected dataset; only changed content is stored</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>&amp;Remove…</translation>
    </message>
    <message>
        <source>&amp;Use in run set-up</source>
        <translation>&amp;Use in run set-up</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>Version:</translation>
    </message>
    <message>
        <source>Checks before training</source>
        <translation>Checks before training</translation>
    </message>
    <message>
        <source>Class balance</source>
        <translation>Class balance</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Preview</translation>
    </message>
    <message numerus="yes">
        <source>%1
%2 · %3 · %n version(s)</source>
        <translation><numerusform>%1
%2 · %3 · %n version</numerusform><numerusform>%1
%2 · %3 · %n versions</numerusform></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>No dataset yet</source>
        <translation>No dataset yet</translation>
    </message>
    <message>
        <source>No workspace is open</source>
        <translation>No workspace is open</translation>
    </message>
    <message>
        <source>Add a file (CSV, NumPy, HDF5, IDX) or a folder of images in one sub-folder per class. Diamond keeps versions by content: a changed copy stores only what changed, and a cluster receives only what it does not hold yet.</source>
        <translation>Add a file (CSV, NumPy, HDF5, IDX) or a folder of images in one sub-folder per class. Diamond keeps versions by content: a changed copy stores only what changed, and a cluster receives only what it does not hold yet.</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 rows · %n file(s) · %3 (%4 new in this version)
From %5, added by %6 on %7
Content SHA-256 %8</source>
        <translation><numerusform>%1 · %2 rows · %n file · %3 (%4 new in this version)
From %5, added by %6 on %7
Content SHA-256 %8</numerusform><numerusform>%1 · %2 rows · %n files · %3 (%4 new in this version)
From %5, added by %6 on %7
Content SHA-256 %8</numerusform></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>unknown</translation>
    </message>
    <message>
        <source>Task: not inferred for this format.</source>
        <translation>Task: not inferred for this format.</translation>
    </message>
    <message>
        <source>Task: %1</source>
        <translation>Task: %1</translation>
    </message>
    <message numerus="yes">
        <source>classification, %n class(es)</source>
        <translation><numerusform>classification, %n class(es)</numerusform><numerusform>classification, %n class(es)</numerusform></translation>
    </message>
    <message>
        <source>regression</source>
        <translation>regression</translation>
    </message>
    <message>
        <source> · target column &apos;%1&apos;</source>
        <translation> · target column '%1'</translation>
    </message>
    <message>
        <source> · skip_rows %1</source>
        <translation> · skip_rows %1</translation>
    </message>
    <message>
        <source>✓ No problems found.</source>
        <translation>✓ No problems found.</translation>
    </message>
    <message>
        <source>New version of %1</source>
        <translation>New version of %1</translation>
    </message>
    <message>
        <source>Add a dataset</source>
        <translation>Add a dataset</translation>
    </message>
    <message>
        <source>Data files (*.csv *.tsv *.csv.gz *.npy *.npz *.h5 *.hdf5 *-ubyte *.idx *.gz)</source>
        <translation>Data files (*.csv *.tsv *.csv.gz *.npy *.npz *.h5 *.hdf5 *-ubyte *.idx *.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>All files (*)</translation>
    </message>
    <message>
        <source>Hashing %1…</source>
        <translation>Hashing %1…</translation>
    </message>
    <message>
        <source>%1 is unchanged; no new version.</source>
        <translation>%1 is unchanged; no new version.</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>Added %1.</translation>
    </message>
    <message>
        <source>The dataset was not added: %1</source>
        <translation>The dataset was not added: %1</translation>
    </message>
    <message>
        <source>Removed %1; %2 freed.</source>
        <translation>Removed %1; %2 freed.</translation>
    </message>
    <message>
        <source>Remove dataset</source>
        <translation>Remove dataset</translation>
    </message>
    <message>
        <source>Remove %1 and all its versions? Runs keep their settings but can no longer be resumed from this dataset.</source>
        <translation>Remove %1 and all its versions? Runs keep their settings but can no longer be resumed from this dataset.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::DesignerPage</name>
    <message>
        <source>Untitled</source>
        <translation>Untitled</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>Cannot open %1: %2</translation>
    </message>
    <message>
        <source>Cannot read the template %1.</source>
        <translation>Cannot read the template %1.</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>Cannot save %1: %2</translation>
    </message>
    <message>
        <source>There is nothing to export: the graph is empty.</source>
        <translation>There is nothing to export: the graph is empty.</translation>
    </message>
    <message>
        <source>Network diagram exported by Diamond</source>
        <translation>Network diagram exported by Diamond</translation>
    </message>
    <message>
        <source>Cannot export %1: use a .png or .svg file name.</source>
        <translation>Cannot export %1: use a .png or .svg file name.</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>Cannot write %1.</translation>
    </message>
    <message>
        <source>Select the layers to recompute in backward.</source>
        <translation>Select the layers to recompute in backward.</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) keep their activations again.</source>
        <translation><numerusform>%n layer keep their activations again.</numerusform><numerusform>%n layers keep their activations again.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) recompute their activations in backward: less memory, more time.</source>
        <translation><numerusform>%n layer recompute their activations in backward: less memory, more time.</numerusform><numerusform>%n layers recompute their activations in backward: less memory, more time.</numerusform></translation>
    </message>
    <message>
        <source>The layers marked already fit that budget.</source>
        <translation>The layers marked already fit that budget.</translation>
    </message>
    <message>
        <source>No layer needs recomputing for that budget; the marks are cleared.</source>
        <translation>No layer needs recomputing for that budget; the marks are cleared.</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) recompute their activations in backward to fit the budget.</source>
        <translation><numerusform>%n layer recompute their activations in backward to fit the budget.</numerusform><numerusform>%n layers recompute their activations in backward to fit the budget.</numerusform></translation>
    </message>
    <message>
        <source>The network cannot be cut into %1 stages (too few layers, or errors to fix first).</source>
        <translation>The network cannot be cut into %1 stages (too few layers, or errors to fix first).</translation>
    </message>
    <message>
        <source>%1 pipeline stages, cut where the computation balances. Select a layer and use Edit ▸ End the pipeline stage here to move a cut.</source>
        <translation>%1 pipeline stages, cut where the computation balances. Select a layer and use Edit ▸ End the pipeline stage here to move a cut.</translation>
    </message>
    <message>
        <source>Pipeline stages hidden.</source>
        <translation>Pipeline stages hidden.</translation>
    </message>
    <message>
        <source>Show the pipeline stages first (Edit ▸ Pipeline stages).</source>
        <translation>Show the pipeline stages first (Edit ▸ Pipeline stages).</translation>
    </message>
    <message>
        <source>Select one layer that does not already end its stage.</source>
        <translation>Select one layer that does not already end its stage.</translation>
    </message>
    <message>
        <source>The stage now ends at %1.</source>
        <translation>The stage now ends at %1.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryCardDelegate</name>
    <message>
        <source>No preview</source>
        <translation>No preview</translation>
    </message>
    <message>
        <source>no metric</source>
        <translation>no metric</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>✓ Consistent</source>
        <translation>✓ Consistent</translation>
    </message>
    <message>
        <source>Not consistent</source>
        <translation>Not consistent</translation>
    </message>
    <message>
        <source>✓ Trusted</source>
        <translation>✓ Trusted</translation>
    </message>
    <message>
        <source>Untrusted</source>
        <translation>Untrusted</translation>
    </message>
    <message>
        <source>Unsigned</source>
        <translation>Unsigned</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryDetailView</name>
    <message>
        <source>&amp;Download and import</source>
        <translation>&amp;Download and import</translation>
    </message>
    <message>
        <source>Download the package, check it, re-run its test inputs and add it to this workspace</source>
        <translation>Download the package, check it, re-run its test inputs and add it to this workspace</translation>
    </message>
    <message>
        <source>&amp;Export package…</source>
        <translation>&amp;Export package…</translation>
    </message>
    <message>
        <source>Open in &amp;designer</source>
        <translation>Open in &amp;designer</translation>
    </message>
    <message>
        <source>&amp;Fine-tune…</source>
        <translation>&amp;Fine-tune…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>&amp;Remove</translation>
    </message>
    <message>
        <source>Model card</source>
        <translation>Model card</translation>
    </message>
    <message>
        <source>Interface and metrics</source>
        <translation>Interface and metrics</translation>
    </message>
    <message>
        <source>Provenance and files</source>
        <translation>Provenance and files</translation>
    </message>
    <message>
        <source>Select a model to see its card.</source>
        <translation>Select a model to see its card.</translation>
    </message>
    <message>
        <source>version %1</source>
        <translation>version %1</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>by %1</translation>
    </message>
    <message>
        <source>Tags: %1</source>
        <translation>Tags: %1</translation>
    </message>
    <message>
        <source>*This model has no card.*</source>
        <translation>*This model has no card.*</translation>
    </message>
    <message>
        <source>Import the model into this workspace first</source>
        <translation>Import the model into this workspace first</translation>
    </message>
    <message>
        <source>Start a training run from these weights</source>
        <translation>Start a training run from these weights</translation>
    </message>
    <message>
        <source>The test inputs did not reproduce the stored outputs, or could not be re-run.</source>
        <translation>The test inputs did not reproduce the stored outputs, or could not be re-run.</translation>
    </message>
    <message>
        <source>none listed</source>
        <translation>none listed</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>Shape</translation>
    </message>
    <message>
        <source>Axes</source>
        <translation>Axes</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>Inputs</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>Outputs</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metrics</translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>none recorded</translation>
    </message>
    <message>
        <source>Training configuration</source>
        <translation>Training configuration</translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation>Provenance</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>%1 (&quot;%2&quot;)</source>
        <translation>%1 ("%2")</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Project</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Started</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Finished</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>Compute</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 hours</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Device</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>Threads</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>Machine</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Engine</translation>
    </message>
    <message>
        <source>libtorch</source>
        <translation>libtorch</translation>
    </message>
    <message>
        <source>Diamond</source>
        <translation>Diamond</translation>
    </message>
    <message>
        <source>Published</source>
        <translation>Published</translation>
    </message>
    <message>
        <source>Citation</source>
        <translation>Citation</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Dataset</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Reference</translation>
    </message>
    <message>
        <source>SHA-256 of the file</source>
        <translation>SHA-256 of the file</translation>
    </message>
    <message>
        <source>SHA-256 of the data configuration</source>
        <translation>SHA-256 of the data configuration</translation>
    </message>
    <message>
        <source>Files (SHA-256)</source>
        <translation>Files (SHA-256)</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>Package</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 minutes</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 seconds</translation>
    </message>
    <message>
        <source>Link not opened</source>
        <translation>Link not opened</translation>
    </message>
    <message>
        <source>The model card links to

%1

Diamond opens only web links (http, https) from model cards.</source>
        <translation>The model card links to

%1

Diamond opens only web links (http, https) from model cards.</translation>
    </message>
    <message>
        <source>Open link</source>
        <translation>Open link</translation>
    </message>
    <message>
        <source>Open this address from the model card in your browser?

%1</source>
        <translation>Open this address from the model card in your browser?

%1</translation>
    </message>
    <message>
        <source>Stop &amp;trusting</source>
        <translation>Stop &amp;trusting</translation>
    </message>
    <message>
        <source>&amp;Trust this publisher</source>
        <translation>&amp;Trust this publisher</translation>
    </message>
    <message>
        <source>Remove %1&apos;s key from this gallery&apos;s trust list</source>
        <translation>Remove %1's key from this gallery's trust list</translation>
    </message>
    <message>
        <source>Add %1&apos;s key (%2) to this gallery&apos;s trust list</source>
        <translation>Add %1's key (%2) to this gallery's trust list</translation>
    </message>
    <message>
        <source>✓ Consistent</source>
        <translation>✓ Consistent</translation>
    </message>
    <message>
        <source>Not consistent</source>
        <translation>Not consistent</translation>
    </message>
    <message>
        <source>The test inputs were re-run through the engine and reproduce the outputs stored in the package. This shows the package agrees with itself, not who made it: see the signature.</source>
        <translation>The test inputs were re-run through the engine and reproduce the outputs stored in the package. This shows the package agrees with itself, not who made it: see the signature.</translation>
    </message>
    <message>
        <source>Unsigned: nothing says who made this package.</source>
        <translation>Unsigned: nothing says who made this package.</translation>
    </message>
    <message>
        <source>✓ Signed by %1, a publisher you trust (key %2)</source>
        <translation>✓ Signed by %1, a publisher you trust (key %2)</translation>
    </message>
    <message>
        <source>Key %1</source>
        <translation>Key %1</translation>
    </message>
    <message>
        <source>Signed by &quot;%1&quot;, not on your trust list (key %2)</source>
        <translation>Signed by "%1", not on your trust list (key %2)</translation>
    </message>
    <message>
        <source>Key %1
Anyone can sign with any name. Trust the key only if its owner gave you the same fingerprint (diamondctl gallery key prints it).</source>
        <translation>Key %1
Anyone can sign with any name. Trust the key only if its owner gave you the same fingerprint (diamondctl gallery key prints it).</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>Consistent: its test inputs reproduce its expected outputs</source>
        <translation>Consistent: its test inputs reproduce its expected outputs</translation>
    </message>
    <message>
        <source>Not consistent: its test inputs did not reproduce its outputs</source>
        <translation>Not consistent: its test inputs did not reproduce its outputs</translation>
    </message>
    <message>
        <source>Unsigned: nothing says who made it</source>
        <translation>Unsigned: nothing says who made it</translation>
    </message>
    <message>
        <source>Signed by %1, a publisher you trust</source>
        <translation>Signed by %1, a publisher you trust</translation>
    </message>
    <message>
        <source>Signed by %1, not on your trust list</source>
        <translation>Signed by %1, not on your trust list</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryPage</name>
    <message>
        <source>Cannot create a temporary folder.</source>
        <translation>Cannot create a temporary folder.</translation>
    </message>
    <message>
        <source>The package was refused (%1): %2</source>
        <translation>The package was refused (%1): %2</translation>
    </message>
    <message>
        <source>The package&apos;s spec.json is not a JSON object.</source>
        <translation>The package's spec.json is not a JSON object.</translation>
    </message>
    <message>
        <source>%1
No token stored: add the gallery again with its token.</source>
        <translation>%1
No token stored: add the gallery again with its token.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Galleries&lt;/b&gt;</source>
        <translation>&lt;b&gt;Galleries&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&amp;Add remote…</source>
        <translation>&amp;Add remote…</translation>
    </message>
    <message>
        <source>Browse a gallery served by another Diamond (diamondctl serve)</source>
        <translation>Browse a gallery served by another Diamond (diamondctl serve)</translation>
    </message>
    <message>
        <source>Forget remote</source>
        <translation>Forget remote</translation>
    </message>
    <message>
        <source>This workspace</source>
        <translation>This workspace</translation>
    </message>
    <message>
        <source>Search names, cards and tags…</source>
        <translation>Search names, cards and tags…</translation>
    </message>
    <message>
        <source>Best match</source>
        <translation>Best match</translation>
    </message>
    <message>
        <source>Highest metric</source>
        <translation>Highest metric</translation>
    </message>
    <message>
        <source>Lowest metric</source>
        <translation>Lowest metric</translation>
    </message>
    <message>
        <source>Newest</source>
        <translation>Newest</translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation>Oldest</translation>
    </message>
    <message>
        <source>Name A–Z</source>
        <translation>Name A–Z</translation>
    </message>
    <message>
        <source>Name Z–A</source>
        <translation>Name Z–A</translation>
    </message>
    <message>
        <source>Sort:</source>
        <translation>Sort:</translation>
    </message>
    <message>
        <source>Any task</source>
        <translation>Any task</translation>
    </message>
    <message>
        <source>Any domain</source>
        <translation>Any domain</translation>
    </message>
    <message>
        <source>Any license</source>
        <translation>Any license</translation>
    </message>
    <message>
        <source>&amp;Import package…</source>
        <translation>&amp;Import package…</translation>
    </message>
    <message>
        <source>Add a .diamond file to this workspace&apos;s gallery</source>
        <translation>Add a .diamond file to this workspace's gallery</translation>
    </message>
    <message>
        <source>Forget remote gallery</source>
        <translation>Forget remote gallery</translation>
    </message>
    <message>
        <source>Forget the gallery &quot;%1&quot; and its token?</source>
        <translation>Forget the gallery "%1" and its token?</translation>
    </message>
    <message>
        <source>Import a model package</source>
        <translation>Import a model package</translation>
    </message>
    <message>
        <source>Diamond model packages (*.diamond)</source>
        <translation>Diamond model packages (*.diamond)</translation>
    </message>
    <message>
        <source>Export model package</source>
        <translation>Export model package</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n model(s)</source>
        <translation><numerusform>%1 of %n model</numerusform><numerusform>%1 of %n models</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n model(s)</source>
        <translation><numerusform>%n model</numerusform><numerusform>%n models</numerusform></translation>
    </message>
    <message>
        <source>Could not remove entry %1: %2</source>
        <translation>Could not remove entry %1: %2</translation>
    </message>
    <message>
        <source>Removed entry %1 from this workspace&apos;s gallery.</source>
        <translation>Removed entry %1 from this workspace's gallery.</translation>
    </message>
    <message>
        <source>No workspace is open</source>
        <translation>No workspace is open</translation>
    </message>
    <message>
        <source>The token of &quot;%1&quot; is kept for this session only: %2</source>
        <translation>The token of "%1" is kept for this session only: %2</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>No workspace is open.</translation>
    </message>
    <message>
        <source>Open a workspace to import models into.</source>
        <translation>Open a workspace to import models into.</translation>
    </message>
    <message>
        <source>Downloading… %p%</source>
        <translation>Downloading… %p%</translation>
    </message>
    <message>
        <source>Downloading the package from &quot;%1&quot;…</source>
        <translation>Downloading the package from "%1"…</translation>
    </message>
    <message>
        <source>Downloaded %p%</source>
        <translation>Downloaded %p%</translation>
    </message>
    <message>
        <source>Checking the package and re-running its test inputs…</source>
        <translation>Checking the package and re-running its test inputs…</translation>
    </message>
    <message>
        <source>Importing %1: checking it and re-running its test inputs…</source>
        <translation>Importing %1: checking it and re-running its test inputs…</translation>
    </message>
    <message>
        <source>Already in this workspace&apos;s gallery as entry %1 (%2).</source>
        <translation>Already in this workspace's gallery as entry %1 (%2).</translation>
    </message>
    <message>
        <source>Exporting… %p%</source>
        <translation>Exporting… %p%</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>Exported to %1.</translation>
    </message>
    <message>
        <source>Reading the spec from the package…</source>
        <translation>Reading the spec from the package…</translation>
    </message>
    <message>
        <source>Opened &quot;%1&quot; in the designer.</source>
        <translation>Opened "%1" in the designer.</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>Remove model</translation>
    </message>
    <message>
        <source>Remove &quot;%1&quot; %2 from this workspace&apos;s gallery?</source>
        <translation>Remove "%1" %2 from this workspace's gallery?</translation>
    </message>
    <message>
        <source>&amp;Consistent only</source>
        <translation>&amp;Consistent only</translation>
    </message>
    <message>
        <source>Could not change the trust list: %1</source>
        <translation>Could not change the trust list: %1</translation>
    </message>
    <message>
        <source>The publisher of entry %1 is now on this gallery&apos;s trust list.</source>
        <translation>The publisher of entry %1 is now on this gallery's trust list.</translation>
    </message>
    <message>
        <source>The publisher of entry %1 is no longer trusted.</source>
        <translation>The publisher of entry %1 is no longer trusted.</translation>
    </message>
    <message>
        <source>Imported into this workspace as entry %1, consistent: %2</source>
        <translation>Imported into this workspace as entry %1, consistent: %2</translation>
    </message>
    <message>
        <source>Imported into this workspace as entry %1, NOT consistent: %2</source>
        <translation>Imported into this workspace as entry %1, NOT consistent: %2</translation>
    </message>
    <message>
        <source>Trust publisher</source>
        <translation>Trust publisher</translation>
    </message>
    <message>
        <source>Stop trusting publisher</source>
        <translation>Stop trusting publisher</translation>
    </message>
    <message>
        <source>Trust every package signed with this key?

Name in the signature: %1
Key: %2

Anyone can sign with any name. Compare the key with the one its owner gave you (diamondctl gallery key prints it).</source>
        <translation>Trust every package signed with this key?

Name in the signature: %1
Key: %2

Anyone can sign with any name. Compare the key with the one its owner gave you (diamondctl gallery key prints it).</translation>
    </message>
    <message>
        <source>Stop trusting packages signed with this key?

Name in the signature: %1
Key: %2</source>
        <translation>Stop trusting packages signed with this key?

Name in the signature: %1
Key: %2</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphDocument</name>
    <message>
        <source>Add %1</source>
        <translation>Add %1</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>Delete %1</translation>
    </message>
    <message>
        <source>Set %1 of %2</source>
        <translation>Set %1 of %2</translation>
    </message>
    <message numerus="yes">
        <source>Move %n node(s)</source>
        <translation><numerusform>Move %n node</numerusform><numerusform>Move %n nodes</numerusform></translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation>Rename %1 to %2</translation>
    </message>
    <message>
        <source>line %1, column %2: </source>
        <translation>line %1, column %2: </translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is used twice; ids must be unique.</source>
        <translation>The id "%1" is used twice; ids must be unique.</translation>
    </message>
    <message>
        <source>The output &quot;%1&quot; is not connected.</source>
        <translation>The output "%1" is not connected.</translation>
    </message>
    <message>
        <source>Drag from a layer&apos;s output port to this output.</source>
        <translation>Drag from a layer's output port to this output.</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n node(s)</source>
        <translation><numerusform>Delete %n node</numerusform><numerusform>Delete %n nodes</numerusform></translation>
    </message>
    <message>
        <source>There is no node &quot;%1&quot;.</source>
        <translation>There is no node "%1".</translation>
    </message>
    <message>
        <source>%1 has no output port &quot;%2&quot;.</source>
        <translation>%1 has no output port "%2".</translation>
    </message>
    <message>
        <source>%1 has no outputs.</source>
        <translation>%1 has no outputs.</translation>
    </message>
    <message>
        <source>%1 takes no inputs.</source>
        <translation>%1 takes no inputs.</translation>
    </message>
    <message>
        <source>%1 has no input %2.</source>
        <translation>%1 has no input %2.</translation>
    </message>
    <message>
        <source>A layer cannot feed itself.</source>
        <translation>A layer cannot feed itself.</translation>
    </message>
    <message>
        <source>Connecting %1 to %2 would create a cycle; networks must be acyclic.</source>
        <translation>Connecting %1 to %2 would create a cycle; networks must be acyclic.</translation>
    </message>
    <message>
        <source>These ports are already connected.</source>
        <translation>These ports are already connected.</translation>
    </message>
    <message>
        <source>Connect %1 to %2</source>
        <translation>Connect %1 to %2</translation>
    </message>
    <message>
        <source>Disconnect %1 from %2</source>
        <translation>Disconnect %1 from %2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid id: use 1 to 128 characters without spaces or &apos;:&apos;.</source>
        <translation>"%1" is not a valid id: use 1 to 128 characters without spaces or ':'.</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is already used.</source>
        <translation>The id "%1" is already used.</translation>
    </message>
    <message numerus="yes">
        <source>Paste %n node(s)</source>
        <translation><numerusform>Paste %n node</numerusform><numerusform>Paste %n nodes</numerusform></translation>
    </message>
    <message>
        <source>Auto layout</source>
        <translation>Auto layout</translation>
    </message>
    <message numerus="yes">
        <source>Recompute %n node(s) in backward</source>
        <translation><numerusform>Recompute %n node in backward</numerusform><numerusform>Recompute %n nodes in backward</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Keep the activations of %n node(s)</source>
        <translation><numerusform>Keep the activations of %n node</numerusform><numerusform>Keep the activations of %n nodes</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Recompute %n layer(s) in backward</source>
        <translation><numerusform>Recompute %n layer in backward</numerusform><numerusform>Recompute %n layers in backward</numerusform></translation>
    </message>
    <message>
        <source>Show %1 pipeline stages</source>
        <translation>Show %1 pipeline stages</translation>
    </message>
    <message>
        <source>Hide the pipeline stages</source>
        <translation>Hide the pipeline stages</translation>
    </message>
    <message>
        <source>End pipeline stage %1 at %2</source>
        <translation>End pipeline stage %1 at %2</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphLayout</name>
    <message>
        <source>Graphviz could not lay out the graph.</source>
        <translation>Graphviz could not lay out the graph.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphScene</name>
    <message>
        <source>Delete selection</source>
        <translation>Delete selection</translation>
    </message>
    <message>
        <source>Connecting %1 to %2 would create a cycle; networks must be acyclic.</source>
        <translation>Connecting %1 to %2 would create a cycle; networks must be acyclic.</translation>
    </message>
    <message>
        <source>Reconnect %1</source>
        <translation>Reconnect %1</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphView</name>
    <message>
        <source>Unknown layer type &quot;%1&quot;.</source>
        <translation>Unknown layer type "%1".</translation>
    </message>
    <message>
        <source>Drag layers here from the palette, or start from a template.
Connect ports by dragging from an output to an input.</source>
        <translation>Drag layers here from the palette, or start from a template.
Connect ports by dragging from an output to an input.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::Inspector</name>
    <message>
        <source>%1 needs a value.</source>
        <translation>%1 needs a value.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number.</source>
        <translation>"%1" is not a whole number.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number.</source>
        <translation>"%1" is not a number.</translation>
    </message>
    <message>
        <source>Write true or false.</source>
        <translation>Write true or false.</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes selected.</source>
        <translation><numerusform>%n nodes selected.</numerusform><numerusform>%n nodes selected.</numerusform></translation>
    </message>
    <message>
        <source>Select a layer on the canvas to edit its parameters.</source>
        <translation>Select a layer on the canvas to edit its parameters.</translation>
    </message>
    <message>
        <source>A network output.</source>
        <translation>A network output.</translation>
    </message>
    <message>
        <source>Unknown layer type.</source>
        <translation>Unknown layer type.</translation>
    </message>
    <message>
        <source>Unique id of this layer: 1 to 128 characters, no spaces or &apos;:&apos;.</source>
        <translation>Unique id of this layer: 1 to 128 characters, no spaces or ':'.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameters</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>Analysis</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Output</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>Size</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>not set</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 to %2</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>at least %1</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>at most %1</translation>
    </message>
    <message>
        <source>%1 parameters, %2 per sample</source>
        <translation>%1 parameters, %2 per sample</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>Error:</translation>
    </message>
    <message>
        <source>Warning:</source>
        <translation>Warning:</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>Memory</translation>
    </message>
    <message>
        <source>↻ Recompute in backward</source>
        <translation>↻ Recompute in backward</translation>
    </message>
    <message>
        <source>Training keeps none of this layer&apos;s intermediate values for the backward pass and computes them again there: much less memory for about one more forward pass. Mark consecutive layers (or use Edit ▸ Recompute in backward on a selection); the trained weights do not change.</source>
        <translation>Training keeps none of this layer's intermediate values for the backward pass and computes them again there: much less memory for about one more forward pass. Mark consecutive layers (or use Edit ▸ Recompute in backward on a selection); the trained weights do not change.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::JobChainChart</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 d</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>Job %1</translation>
    </message>
    <message>
        <source>Jobs %1–%2</source>
        <translation>Jobs %1–%2</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s), about %1 in all (queue waits not included)</source>
        <translation><numerusform>%n job, about %1 in all (queue waits not included)</numerusform><numerusform>%n jobs, about %1 in all (queue waits not included)</numerusform></translation>
    </message>
    <message>
        <source>time limit per job: %1</source>
        <translation>time limit per job: %1</translation>
    </message>
    <message>
        <source>No job plan yet</source>
        <translation>No job plan yet</translation>
    </message>
</context>
<context>
    <name>diamond::ui::JobQueueModel</name>
    <message>
        <source>Job</source>
        <translation>Job</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>Reason</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>Elapsed</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>Time limit</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
</context>
<context>
    <name>diamond::ui::LayerPalette</name>
    <message>
        <source>Search layers…</source>
        <translation>Search layers…</translation>
    </message>
    <message>
        <source>Filter by name, family or description; Enter adds the first match.</source>
        <translation>Filter by name, family or description; Enter adds the first match.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::LayerPaletteModel</name>
    <message>
        <source>A network output: connect the layer whose result the network returns (e.g. the logits).</source>
        <translation>A network output: connect the layer whose result the network returns (e.g. the logits).</translation>
    </message>
    <message>
        <source>Inputs and outputs</source>
        <translation>Inputs and outputs</translation>
    </message>
    <message>
        <source>Drag onto the canvas, or double-click to add.</source>
        <translation>Drag onto the canvas, or double-click to add.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::LearnPage</name>
    <message>
        <source>%v of %m steps done</source>
        <translation>%v of %m steps done</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>&amp;Back</translation>
    </message>
    <message>
        <source>&amp;Show me</source>
        <translation>&amp;Show me</translation>
    </message>
    <message>
        <source>Show the page of this step and highlight what to use</source>
        <translation>Show the page of this step and highlight what to use</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>&amp;Next</translation>
    </message>
    <message>
        <source>Start &amp;over</source>
        <translation>Start &amp;over</translation>
    </message>
    <message>
        <source>Forget this lesson&apos;s progress and take it again</source>
        <translation>Forget this lesson's progress and take it again</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>Who</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Best</translation>
    </message>
    <message numerus="yes">
        <source>%1. %2
%n min</source>
        <translation><numerusform>%1. %2
%n min</numerusform><numerusform>%1. %2
%n min</numerusform></translation>
    </message>
    <message>
        <source> · ✓ done</source>
        <translation> · ✓ done</translation>
    </message>
    <message>
        <source> · %1 of %2 steps</source>
        <translation> · %1 of %2 steps</translation>
    </message>
    <message>
        <source> · needs a cluster</source>
        <translation> · needs a cluster</translation>
    </message>
    <message>
        <source>Learn Diamond</source>
        <translation>Learn Diamond</translation>
    </message>
    <message>
        <source>Short lessons that check your work as you go. Choose one on the left; each takes a few minutes and your progress is saved in the workspace.</source>
        <translation>Short lessons that check your work as you go. Choose one on the left; each takes a few minutes and your progress is saved in the workspace.</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>Step %1 of %2: %3</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>&amp;Finish</translation>
    </message>
    <message>
        <source>✓ Done: %1</source>
        <translation>✓ Done: %1</translation>
    </message>
    <message>
        <source>Not yet: %1</source>
        <translation>Not yet: %1</translation>
    </message>
    <message>
        <source>Not yet: %1
Hint: %2</source>
        <translation>Not yet: %1
Hint: %2</translation>
    </message>
    <message>
        <source>✓ Lesson complete. Choose the next lesson on the left.</source>
        <translation>✓ Lesson complete. Choose the next lesson on the left.</translation>
    </message>
    <message>
        <source>Leaderboard of this lesson: no finished run yet.</source>
        <translation>Leaderboard of this lesson: no finished run yet.</translation>
    </message>
    <message>
        <source>Leaderboard of this lesson (%1)</source>
        <translation>Leaderboard of this lesson (%1)</translation>
    </message>
    <message>
        <source>you</source>
        <translation>you</translation>
    </message>
</context>
<context>
    <name>diamond::ui::MainWindow</name>
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
        <source>Could not open the workspace: %1</source>
        <translation>Could not open the workspace: %1</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>Workspace: %1</translation>
    </message>
    <message>
        <source>Designer</source>
        <translation>Designer</translation>
    </message>
    <message>
        <source>Run set-up</source>
        <translation>Run set-up</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>Examples</translation>
    </message>
    <message>
        <source>&amp;New from template</source>
        <translation>&amp;New from template</translation>
    </message>
    <message>
        <source>&amp;Open network…</source>
        <translation>&amp;Open network…</translation>
    </message>
    <message>
        <source>&amp;Save network</source>
        <translation>&amp;Save network</translation>
    </message>
    <message>
        <source>Save network &amp;as…</source>
        <translation>Save network &amp;as…</translation>
    </message>
    <message>
        <source>&amp;Export graph image…</source>
        <translation>&amp;Export graph image…</translation>
    </message>
    <message>
        <source>Open &amp;workspace…</source>
        <translation>Open &amp;workspace…</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>&amp;Undo</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>&amp;Redo</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>Cu&amp;t</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>&amp;Copy</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>&amp;Paste</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Delete</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>Select &amp;all</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>&amp;Preferences…</translation>
    </message>
    <message>
        <source>&amp;Fit network in view</source>
        <translation>&amp;Fit network in view</translation>
    </message>
    <message>
        <source>&amp;Automatic layout</source>
        <translation>&amp;Automatic layout</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>&amp;Run</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>&amp;Train</translation>
    </message>
    <message>
        <source>&amp;Compare selected runs</source>
        <translation>&amp;Compare selected runs</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>Summary</translation>
    </message>
    <message>
        <source>Open workspace folder</source>
        <translation>Open workspace folder</translation>
    </message>
    <message>
        <source>Loaded &quot;%1&quot;: press Train to run it.</source>
        <translation>Loaded "%1": press Train to run it.</translation>
    </message>
    <message>
        <source>Cannot train</source>
        <translation>Cannot train</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>No workspace is open.</translation>
    </message>
    <message numerus="yes">
        <source>The network has %n error(s); the designer marks them in red.</source>
        <translation><numerusform>The network has %n error; the designer marks them in red.</numerusform><numerusform>The network has %n errors; the designer marks them in red.</numerusform></translation>
    </message>
    <message>
        <source>My runs</source>
        <translation>My runs</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Compare</translation>
    </message>
    <message>
        <source>Discard changes?</source>
        <translation>Discard changes?</translation>
    </message>
    <message>
        <source>The network has unsaved changes. Discard them?</source>
        <translation>The network has unsaved changes. Discard them?</translation>
    </message>
    <message>
        <source>Open network</source>
        <translation>Open network</translation>
    </message>
    <message>
        <source>Diamond networks (*.json)</source>
        <translation>Diamond networks (*.json)</translation>
    </message>
    <message>
        <source>Cannot open the network</source>
        <translation>Cannot open the network</translation>
    </message>
    <message>
        <source>Save network</source>
        <translation>Save network</translation>
    </message>
    <message>
        <source>Cannot save the network</source>
        <translation>Cannot save the network</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>Saved %1</translation>
    </message>
    <message>
        <source>Export graph image</source>
        <translation>Export graph image</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG image (*.png);;SVG drawing (*.svg)</translation>
    </message>
    <message>
        <source>Cannot export the image</source>
        <translation>Cannot export the image</translation>
    </message>
    <message>
        <source>%1%2 — Diamond</source>
        <translation>%1%2 — Diamond</translation>
    </message>
    <message>
        <source>The new language is applied when Diamond starts again.</source>
        <translation>The new language is applied when Diamond starts again.</translation>
    </message>
    <message>
        <source>Stop training?</source>
        <translation>Stop training?</translation>
    </message>
    <message>
        <source>Gallery</source>
        <translation>Gallery</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>Clusters</translation>
    </message>
    <message>
        <source>New sweep</source>
        <translation>New sweep</translation>
    </message>
    <message>
        <source>Sweep %1</source>
        <translation>Sweep %1</translation>
    </message>
    <message>
        <source>Cannot fine-tune</source>
        <translation>Cannot fine-tune</translation>
    </message>
    <message>
        <source>Fine-tuning &quot;%1&quot;: adjust the settings and press Train.</source>
        <translation>Fine-tuning "%1": adjust the settings and press Train.</translation>
    </message>
    <message>
        <source>&amp;Designer</source>
        <translation>&amp;Designer</translation>
    </message>
    <message>
        <source>&amp;Run set-up</source>
        <translation>&amp;Run set-up</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>S&amp;weeps</translation>
    </message>
    <message>
        <source>&amp;Clusters</source>
        <translation>&amp;Clusters</translation>
    </message>
    <message>
        <source>&amp;Gallery</source>
        <translation>&amp;Gallery</translation>
    </message>
    <message>
        <source>New &amp;sweep…</source>
        <translation>New &amp;sweep…</translation>
    </message>
    <message>
        <source>Search hyper-parameters of the network and run set-up on screen</source>
        <translation>Search hyper-parameters of the network and run set-up on screen</translation>
    </message>
    <message numerus="yes">
        <source>Closing Diamond stops %n run(s) on this computer. They can be resumed later from their newest checkpoint. Close anyway?</source>
        <translation><numerusform>Closing Diamond stops %n run on this computer. They can be resumed later from their newest checkpoint. Close anyway?</numerusform><numerusform>Closing Diamond stops %n runs on this computer. They can be resumed later from their newest checkpoint. Close anyway?</numerusform></translation>
    </message>
    <message>
        <source>Sweeps</source>
        <translation>Sweeps</translation>
    </message>
    <message>
        <source>Run %1 was not stopped: %2</source>
        <translation>Run %1 was not stopped: %2</translation>
    </message>
    <message>
        <source>Published to the gallery (entry %1).</source>
        <translation>Published to the gallery (entry %1).</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>Delete runs</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) with their curves, checkpoints and folder? This cannot be undone.</source>
        <translation><numerusform>Delete %n run with their curves, checkpoints and folder? This cannot be undone.</numerusform><numerusform>Delete %n runs with their curves, checkpoints and folder? This cannot be undone.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s).</source>
        <translation><numerusform>Deleted %n run.</numerusform><numerusform>Deleted %n runs.</numerusform></translation>
    </message>
    <message>
        <source>Published to the gallery (entry %1, signed and consistent).</source>
        <translation>Published to the gallery (entry %1, signed and consistent).</translation>
    </message>
    <message>
        <source>D&amp;ata</source>
        <translation>D&amp;ata</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>Presenter mode: press F5 to leave it.</source>
        <translation>Presenter mode: press F5 to leave it.</translation>
    </message>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>&amp;Presenter mode</translation>
    </message>
    <message>
        <source>Large fonts, thick chart lines and high contrast for a projector (F5)</source>
        <translation>Large fonts, thick chart lines and high contrast for a projector (F5)</translation>
    </message>
    <message>
        <source>✓ %1: step &quot;%2&quot; done.</source>
        <translation>✓ %1: step "%2" done.</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>&amp;Lessons</translation>
    </message>
    <message>
        <source>Short lessons that check your work as you go (F1)</source>
        <translation>Short lessons that check your work as you go (F1)</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>Learn</translation>
    </message>
    <message>
        <source>Look for &quot;%1&quot; on this page.</source>
        <translation>Look for "%1" on this page.</translation>
    </message>
    <message>
        <source>&amp;Connect to class server…</source>
        <translation>&amp;Connect to class server…</translation>
    </message>
    <message>
        <source>Train on your course&apos;s server with your token; the curves come back here</source>
        <translation>Train on your course's server with your token; the curves come back here</translation>
    </message>
    <message>
        <source>Class server: %1 (%2)</source>
        <translation>Class server: %1 (%2)</translation>
    </message>
    <message>
        <source>Signed in to %1 as %2. Train now runs there; choose &quot;This computer&quot; in the run set-up to train here.</source>
        <translation>Signed in to %1 as %2. Train now runs there; choose "This computer" in the run set-up to train here.</translation>
    </message>
    <message>
        <source>Published to the class gallery (entry %1).</source>
        <translation>Published to the class gallery (entry %1).</translation>
    </message>
    <message>
        <source>This computer&apos;s speed is measured: plans now predict step times.</source>
        <translation>This computer's speed is measured: plans now predict step times.</translation>
    </message>
    <message>
        <source>Could not measure this computer&apos;s speed: %1</source>
        <translation>Could not measure this computer's speed: %1</translation>
    </message>
    <message>
        <source>Measuring the step time with 1, 2, 4 … processes (a few seconds each)…</source>
        <translation>Measuring the step time with 1, 2, 4 … processes (a few seconds each)…</translation>
    </message>
    <message>
        <source>Processes measured: the recommendation now uses the measured step times.</source>
        <translation>Processes measured: the recommendation now uses the measured step times.</translation>
    </message>
    <message>
        <source>Could not measure the processes: %1</source>
        <translation>Could not measure the processes: %1</translation>
    </message>
    <message>
        <source>Run %1 moved from %2 to %3.</source>
        <translation>Run %1 moved from %2 to %3.</translation>
    </message>
    <message>
        <source>Run %1 started first on %2; the other jobs are cancelled.</source>
        <translation>Run %1 started first on %2; the other jobs are cancelled.</translation>
    </message>
    <message>
        <source>Run %1 did not start: %2</source>
        <translation>Run %1 did not start: %2</translation>
    </message>
    <message>
        <source>Run %1 was not moved: %2</source>
        <translation>Run %1 was not moved: %2</translation>
    </message>
    <message>
        <source>Run %1 submitted to %2; the first to start keeps it.</source>
        <translation>Run %1 submitted to %2; the first to start keeps it.</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>This computer</translation>
    </message>
    <message>
        <source>There is no other cluster to move run %1 to; add one on the Clusters page.</source>
        <translation>There is no other cluster to move run %1 to; add one on the Clusters page.</translation>
    </message>
    <message>
        <source>Move run</source>
        <translation>Move run</translation>
    </message>
    <message>
        <source>Run %1 &quot;%2&quot; is on %3.
It stops at a checkpoint, the checkpoint comes to this computer, and the run continues from it on:</source>
        <translation>Run %1 "%2" is on %3.
It stops at a checkpoint, the checkpoint comes to this computer, and the run continues from it on:</translation>
    </message>
    <message>
        <source>&amp;Move</source>
        <translation>&amp;Move</translation>
    </message>
    <message>
        <source>Stopping run %1 at a checkpoint to move it to %2…</source>
        <translation>Stopping run %1 at a checkpoint to move it to %2…</translation>
    </message>
    <message>
        <source>Run %1 moved to %2.</source>
        <translation>Run %1 moved to %2.</translation>
    </message>
    <message>
        <source>↻ Rec&amp;ompute in backward</source>
        <translation>↻ Rec&amp;ompute in backward</translation>
    </message>
    <message>
        <source>Mark the selected layers to recompute their activations in backward (less memory, about one more forward pass), or unmark them (Ctrl+Shift+R)</source>
        <translation>Mark the selected layers to recompute their activations in backward (less memory, about one more forward pass), or unmark them (Ctrl+Shift+R)</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Undo</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Redo</translation>
    </message>
    <message>
        <source>Recompute to fit a memory &amp;budget…</source>
        <translation>Recompute to fit a memory &amp;budget…</translation>
    </message>
    <message>
        <source>Mark the layers that save the most activation memory for the least computation, so that training fits a budget you give</source>
        <translation>Mark the layers that save the most activation memory for the least computation, so that training fits a budget you give</translation>
    </message>
    <message>
        <source>Pipeline &amp;stages</source>
        <translation>Pipeline &amp;stages</translation>
    </message>
    <message>
        <source>Show how the network is cut into stages, one process each, for a pipeline run</source>
        <translation>Show how the network is cut into stages, one process each, for a pipeline run</translation>
    </message>
    <message>
        <source>&amp;None</source>
        <translation>&amp;None</translation>
    </message>
    <message>
        <source>&amp;%1 stages</source>
        <translation>&amp;%1 stages</translation>
    </message>
    <message>
        <source>&amp;End the pipeline stage here</source>
        <translation>&amp;End the pipeline stage here</translation>
    </message>
    <message>
        <source>Move the cut so that the selected layer&apos;s stage ends at it (Ctrl+Shift+E)</source>
        <translation>Move the cut so that the selected layer's stage ends at it (Ctrl+Shift+E)</translation>
    </message>
</context>
<context>
    <name>diamond::ui::NodeItem</name>
    <message>
        <source>on</source>
        <translation>on</translation>
    </message>
    <message>
        <source>off</source>
        <translation>off</translation>
    </message>
</context>
<context>
    <name>diamond::ui::PartitionsModel</name>
    <message>
        <source>unlimited</source>
        <translation>unlimited</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>GPUs per node</translation>
    </message>
    <message>
        <source>CPU cores per node</source>
        <translation>CPU cores per node</translation>
    </message>
    <message>
        <source>Memory per node in MB</source>
        <translation>Memory per node in MB</translation>
    </message>
    <message>
        <source>Longest run time a job may ask for, in minutes (0: unlimited)</source>
        <translation>Longest run time a job may ask for, in minutes (0: unlimited)</translation>
    </message>
    <message>
        <source>Jobs go to the default partition unless the run names another</source>
        <translation>Jobs go to the default partition unless the run names another</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>Partition</translation>
    </message>
    <message>
        <source>GPU type</source>
        <translation>GPU type</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPUs</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPUs</translation>
    </message>
    <message>
        <source>Memory (MB)</source>
        <translation>Memory (MB)</translation>
    </message>
    <message>
        <source>Max time</source>
        <translation>Max time</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nodes</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>Default</translation>
    </message>
</context>
<context>
    <name>diamond::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>Preferences</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>System language</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>&amp;Language:</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>all cores</translation>
    </message>
    <message>
        <source>Engine &amp;threads:</source>
        <translation>Engine &amp;threads:</translation>
    </message>
    <message>
        <source>A new language is applied when Diamond starts again.</source>
        <translation>A new language is applied when Diamond starts again.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::PublishDialog</name>
    <message>
        <source>Trained in Diamond (project &quot;%1&quot;, run %2 &quot;%3&quot;), finished %4.</source>
        <translation>Trained in Diamond (project "%1", run %2 "%3"), finished %4.</translation>
    </message>
    <message>
        <source>- Input `%1`: %2 %3</source>
        <translation>- Input `%1`: %2 %3</translation>
    </message>
    <message>
        <source>- Output `%1`: %2 %3</source>
        <translation>- Output `%1`: %2 %3</translation>
    </message>
    <message>
        <source>*Describe what the model is for, the data it was trained on and where it should not be used.*</source>
        <translation>*Describe what the model is for, the data it was trained on and where it should not be used.*</translation>
    </message>
    <message>
        <source>Publish run %1 to the gallery</source>
        <translation>Publish run %1 to the gallery</translation>
    </message>
    <message>
        <source>Reading run %1…</source>
        <translation>Reading run %1…</translation>
    </message>
    <message>
        <source>Ada Lovelace, Alan Turing</source>
        <translation>Ada Lovelace, Alan Turing</translation>
    </message>
    <message>
        <source>An SPDX license identifier</source>
        <translation>An SPDX license identifier</translation>
    </message>
    <message>
        <source>spirals, mlp, teaching</source>
        <translation>spirals, mlp, teaching</translation>
    </message>
    <message>
        <source>e.g. vision, audio, toy</source>
        <translation>e.g. vision, audio, toy</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Version:</source>
        <translation>&amp;Version:</translation>
    </message>
    <message>
        <source>&amp;Authors:</source>
        <translation>&amp;Authors:</translation>
    </message>
    <message>
        <source>&amp;License:</source>
        <translation>&amp;License:</translation>
    </message>
    <message>
        <source>Ta&amp;gs:</source>
        <translation>Ta&amp;gs:</translation>
    </message>
    <message>
        <source>&amp;Domain:</source>
        <translation>&amp;Domain:</translation>
    </message>
    <message>
        <source>&amp;Task:</source>
        <translation>&amp;Task:</translation>
    </message>
    <message>
        <source>Model card (Markdown)</source>
        <translation>Model card (Markdown)</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Preview</translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation>&amp;Publish</translation>
    </message>
    <message>
        <source>Run %1 is %2: only finished runs can be published.</source>
        <translation>Run %1 is %2: only finished runs can be published.</translation>
    </message>
    <message>
        <source>This run cannot be published.</source>
        <translation>This run cannot be published.</translation>
    </message>
    <message>
        <source>The package holds the spec, the weights, test inputs with their expected outputs and this card. Edit the card: it is what others read first.</source>
        <translation>The package holds the spec, the weights, test inputs with their expected outputs and this card. Edit the card: it is what others read first.</translation>
    </message>
    <message>
        <source>The name is required.</source>
        <translation>The name is required.</translation>
    </message>
    <message>
        <source>The version is required (e.g. 1.0.0).</source>
        <translation>The version is required (e.g. 1.0.0).</translation>
    </message>
    <message>
        <source>The model card is empty: describe the model.</source>
        <translation>The model card is empty: describe the model.</translation>
    </message>
    <message>
        <source>Publishing: the engine exports the weights, then the package&apos;s test inputs are re-run to verify it…</source>
        <translation>Publishing: the engine exports the weights, then the package's test inputs are re-run to verify it…</translation>
    </message>
    <message>
        <source>Publishing failed (%1): %2</source>
        <translation>Publishing failed (%1): %2</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>Interface</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>Metrics</translation>
    </message>
    <message>
        <source>Intended use and limitations</source>
        <translation>Intended use and limitations</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Include this computer&apos;s &amp;details (data file paths, operating system, core count)</source>
        <translation>Include this computer's &amp;details (data file paths, operating system, core count)</translation>
    </message>
    <message>
        <source>Off: the package names data files by their file name only and says nothing about this computer.</source>
        <translation>Off: the package names data files by their file name only and says nothing about this computer.</translation>
    </message>
    <message>
        <source>What is &amp;shared</source>
        <translation>What is &amp;shared</translation>
    </message>
    <message>
        <source>Signed with your publisher key %1 (%2).</source>
        <translation>Signed with your publisher key %1 (%2).</translation>
    </message>
    <message>
        <source>Signed with a publisher key made for you on first publish (%1).</source>
        <translation>Signed with a publisher key made for you on first publish (%1).</translation>
    </message>
    <message>
        <source>Your publisher key cannot be used: %1</source>
        <translation>Your publisher key cannot be used: %1</translation>
    </message>
    <message>
        <source>Reading the run…</source>
        <translation>Reading the run…</translation>
    </message>
    <message numerus="yes">
        <source>(the model card, %n character(s))</source>
        <translation><numerusform>(the model card, %n character)</numerusform><numerusform>(the model card, %n characters)</numerusform></translation>
    </message>
    <message>
        <source>Anyone who receives the package gets:</source>
        <translation>Anyone who receives the package gets:</translation>
    </message>
    <message>
        <source>the network (spec.json) and its trained weights (weights.safetensors)</source>
        <translation>the network (spec.json) and its trained weights (weights.safetensors)</translation>
    </message>
    <message>
        <source>a few test inputs with the outputs this model gives for them (to check the package)</source>
        <translation>a few test inputs with the outputs this model gives for them (to check the package)</translation>
    </message>
    <message>
        <source>a picture of the architecture and the model card</source>
        <translation>a picture of the architecture and the model card</translation>
    </message>
    <message>
        <source>the manifest below</source>
        <translation>the manifest below</translation>
    </message>
    <message>
        <source>This computer&apos;s details are included: data file paths, operating system and core count.</source>
        <translation>This computer's details are included: data file paths, operating system and core count.</translation>
    </message>
    <message>
        <source>Data files are named by their file name only; nothing about this computer is included.</source>
        <translation>Data files are named by their file name only; nothing about this computer is included.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RecomputeBudgetDialog</name>
    <message>
        <source>Recompute to Fit a Memory Budget</source>
        <translation>Recompute to Fit a Memory Budget</translation>
    </message>
    <message>
        <source>Layers marked ↻ keep none of their activations for the backward pass and compute them again there. Diamond marks the layers that save the most memory for the least computation, so that the activations of one process stay within the budget.</source>
        <translation>Layers marked ↻ keep none of their activations for the backward pass and compute them again there. Diamond marks the layers that save the most memory for the least computation, so that the activations of one process stay within the budget.</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>&amp;Batch size per process:</source>
        <translation>&amp;Batch size per process:</translation>
    </message>
    <message>
        <source>&amp;Activations at most:</source>
        <translation>&amp;Activations at most:</translation>
    </message>
    <message>
        <source>&amp;Mark layers</source>
        <translation>&amp;Mark layers</translation>
    </message>
    <message>
        <source>Nothing recomputed: %1 · every layer recomputed: %2</source>
        <translation>Nothing recomputed: %1 · every layer recomputed: %2</translation>
    </message>
    <message>
        <source>Choosing…</source>
        <translation>Choosing…</translation>
    </message>
    <message>
        <source>Nothing needs recomputing: the activations take %1.</source>
        <translation>Nothing needs recomputing: the activations take %1.</translation>
    </message>
    <message>
        <source>&lt;b&gt;Even with every layer recomputed the activations take %1.&lt;/b&gt; Every layer will be marked; lower the batch size to go further.</source>
        <translation>&lt;b&gt;Even with every layer recomputed the activations take %1.&lt;/b&gt; Every layer will be marked; lower the batch size to go further.</translation>
    </message>
    <message>
        <source>%1 of %2 layers recompute: the activations take %3, and %4 % of the network&apos;s forward FLOPs are computed again in backward.</source>
        <translation>%1 of %2 layers recompute: the activations take %3, and %4 % of the network's forward FLOPs are computed again in backward.</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunMonitorPage</name>
    <message>
        <source>draft</source>
        <translation>draft</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>queued</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>finished</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>preempted</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>resumed</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p%</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stop</translation>
    </message>
    <message>
        <source>Stop the run; its newest checkpoint is kept so that it can be resumed.</source>
        <translation>Stop the run; its newest checkpoint is kept so that it can be resumed.</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Resume</translation>
    </message>
    <message>
        <source>Continue the run from its newest checkpoint.</source>
        <translation>Continue the run from its newest checkpoint.</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>X axis:</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>Epoch</translation>
    </message>
    <message>
        <source>Wall time (s)</source>
        <translation>Wall time (s)</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>&amp;Log scale</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>Smoothing:</translation>
    </message>
    <message>
        <source>Debiased exponential moving average; the raw curve stays faintly visible.</source>
        <translation>Debiased exponential moving average; the raw curve stays faintly visible.</translation>
    </message>
    <message>
        <source>Engine events appear here.</source>
        <translation>Engine events appear here.</translation>
    </message>
    <message>
        <source>Confusion matrix</source>
        <translation>Confusion matrix</translation>
    </message>
    <message>
        <source>Cannot stop: %1</source>
        <translation>Cannot stop: %1</translation>
    </message>
    <message>
        <source>Cannot resume: %1</source>
        <translation>Cannot resume: %1</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>Run %1</translation>
    </message>
    <message>
        <source>%1 (run %2)</source>
        <translation>%1 (run %2)</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>Loss</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>Learning rate</translation>
    </message>
    <message>
        <source>train</source>
        <translation>train</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validation</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>ETA %1</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 steps/s</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 samples/s</translation>
    </message>
    <message numerus="yes">
        <source>started: %1 parameters on %2, %n thread(s), %3 steps</source>
        <translation><numerusform>started: %1 parameters on %2, %n thread, %3 steps</numerusform><numerusform>started: %1 parameters on %2, %n threads, %3 steps</numerusform></translation>
    </message>
    <message>
        <source>checkpoint at step %1</source>
        <translation>checkpoint at step %1</translation>
    </message>
    <message>
        <source>evaluated at step %1</source>
        <translation>evaluated at step %1</translation>
    </message>
    <message>
        <source>finished: %1</source>
        <translation>finished: %1</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>error: %1</translation>
    </message>
    <message>
        <source>[cluster] %1</source>
        <translation>[cluster] %1</translation>
    </message>
    <message>
        <source>&amp;Publish…</source>
        <translation>&amp;Publish…</translation>
    </message>
    <message>
        <source>queued on the cluster</source>
        <translation>queued on the cluster</translation>
    </message>
    <message>
        <source>Cluster %1 · job %2 · %3</source>
        <translation>Cluster %1 · job %2 · %3</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation> (%1)</translation>
    </message>
    <message>
        <source> · continuation</source>
        <translation> · continuation</translation>
    </message>
    <message>
        <source>Submitted %1, last seen %2</source>
        <translation>Submitted %1, last seen %2</translation>
    </message>
    <message>
        <source>Publish the finished run to the model gallery as a signed package that others can check.</source>
        <translation>Publish the finished run to the model gallery as a signed package that others can check.</translation>
    </message>
    <message>
        <source>Dataset: verifying on the cluster…</source>
        <translation>Dataset: verifying on the cluster…</translation>
    </message>
    <message>
        <source>Dataset: %1 of %2 MiB sent</source>
        <translation>Dataset: %1 of %2 MiB sent</translation>
    </message>
    <message>
        <source>Dataset: %1</source>
        <translation>Dataset: %1</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>Accuracy</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunRecommendationView</name>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation><numerusform>%n second</numerusform><numerusform>%n seconds</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation><numerusform>%n minute</numerusform><numerusform>%n minutes</numerusform></translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 hours</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 days</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>&amp;Use these settings</source>
        <translation>&amp;Use these settings</translation>
    </message>
    <message>
        <source>Copy the recommended processes, time limit, chain and checkpoint interval into the form</source>
        <translation>Copy the recommended processes, time limit, chain and checkpoint interval into the form</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>this computer</translation>
    </message>
    <message>
        <source>%1, partition %2</source>
        <translation>%1, partition %2</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) of %1</source>
        <translation><numerusform>%n job of %1</numerusform><numerusform>%n jobs of %1</numerusform></translation>
    </message>
    <message>
        <source>one run on this computer, no time limit</source>
        <translation>one run on this computer, no time limit</translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;&lt;small&gt;%n option(s) do not fit in memory.&lt;/small&gt;</source>
        <translation><numerusform>&lt;br&gt;&lt;small&gt;%n option do not fit in memory.&lt;/small&gt;</numerusform><numerusform>&lt;br&gt;&lt;small&gt;%n options do not fit in memory.&lt;/small&gt;</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Recommended:&lt;/b&gt; %1, &lt;b&gt;%n process(es)&lt;/b&gt;</source>
        <translation><numerusform>&lt;b&gt;Recommended:&lt;/b&gt; %1, &lt;b&gt;%n process(es)&lt;/b&gt;</numerusform><numerusform>&lt;b&gt;Recommended:&lt;/b&gt; %1, &lt;b&gt;%n process(es)&lt;/b&gt;</numerusform></translation>
    </message>
    <message>
        <source>&amp;Measure processes</source>
        <translation>&amp;Measure processes</translation>
    </message>
    <message>
        <source>Train a few seconds with 1, 2, 4 … processes on this computer and recommend from the measured times instead of the predicted ones</source>
        <translation>Train a few seconds with 1, 2, 4 … processes on this computer and recommend from the measured times instead of the predicted ones</translation>
    </message>
    <message>
        <source>Measuring processes…</source>
        <translation>Measuring processes…</translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;&lt;small&gt;Measured: %n process(es)</source>
        <translation><numerusform>&lt;br&gt;&lt;small&gt;Measured: %n process(es)</numerusform><numerusform>&lt;br&gt;&lt;small&gt;Measured: %n process(es)</numerusform></translation>
    </message>
    <message numerus="yes">
        <source> of %n thread(s): %1 per step&lt;/small&gt;</source>
        <translation><numerusform> of %n thread: %1 per step&lt;/small&gt;</numerusform><numerusform> of %n threads: %1 per step&lt;/small&gt;</numerusform></translation>
    </message>
    <message numerus="yes">
        <source> of %n thread(s)</source>
        <translation><numerusform> of %n thread</numerusform><numerusform> of %n threads</numerusform></translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>predicted</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>measured</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, of which %2 waiting in the queue (the scheduler&apos;s estimate)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, of which %2 waiting in the queue (the scheduler's estimate)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, queue waits not included</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;, queue waits not included</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 MiB per process</source>
        <translation>%1 MiB per process</translation>
    </message>
    <message>
        <source>, with the optimizer state split over the processes</source>
        <translation>, with the optimizer state split over the processes</translation>
    </message>
    <message>
        <source>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Per step&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt; (%8; %2 measured here in the dry run)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;To finish&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Memory&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Jobs&lt;/td&gt;&lt;td&gt;%5; checkpoint every %6 steps&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Confidence&lt;/td&gt;&lt;td&gt;%7&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Per step&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt; (%8; %2 measured here in the dry run)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;To finish&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Memory&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Jobs&lt;/td&gt;&lt;td&gt;%5; checkpoint every %6 steps&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Confidence&lt;/td&gt;&lt;td&gt;%7&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>, recomputing every layer&apos;s activations in backward</source>
        <translation>, recomputing every layer's activations in backward</translation>
    </message>
    <message>
        <source>, with the optimizer state and the gradients split over the processes</source>
        <translation>, with the optimizer state and the gradients split over the processes</translation>
    </message>
    <message>
        <source>, recomputing in backward the layers that keep the activations within %1 MiB</source>
        <translation>, recomputing in backward the layers that keep the activations within %1 MiB</translation>
    </message>
    <message>
        <source>, each process holding one of %1 pipeline stages (cut after %2; %3 micro-batches)</source>
        <translation>, each process holding one of %1 pipeline stages (cut after %2; %3 micro-batches)</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunSetupPage</name>
    <message>
        <source>Spirals (synthetic)</source>
        <translation>Spirals (synthetic)</translation>
    </message>
    <message>
        <source>Moons (synthetic)</source>
        <translation>Moons (synthetic)</translation>
    </message>
    <message>
        <source>Gaussian blobs (synthetic)</source>
        <translation>Gaussian blobs (synthetic)</translation>
    </message>
    <message>
        <source>Checkerboard (synthetic)</source>
        <translation>Checkerboard (synthetic)</translation>
    </message>
    <message>
        <source>Sine regression (synthetic)</source>
        <translation>Sine regression (synthetic)</translation>
    </message>
    <message>
        <source>Shapes images (synthetic)</source>
        <translation>Shapes images (synthetic)</translation>
    </message>
    <message>
        <source>CSV file</source>
        <translation>CSV file</translation>
    </message>
    <message>
        <source>NumPy arrays (.npy)</source>
        <translation>NumPy arrays (.npy)</translation>
    </message>
    <message>
        <source>NumPy archive (.npz)</source>
        <translation>NumPy archive (.npz)</translation>
    </message>
    <message>
        <source>HDF5 file</source>
        <translation>HDF5 file</translation>
    </message>
    <message>
        <source>MNIST-style IDX file</source>
        <translation>MNIST-style IDX file</translation>
    </message>
    <message>
        <source>Image folder (one folder per class)</source>
        <translation>Image folder (one folder per class)</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>Data</translation>
    </message>
    <message>
        <source>&amp;Dataset:</source>
        <translation>&amp;Dataset:</translation>
    </message>
    <message>
        <source>File or folder</source>
        <translation>File or folder</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>&amp;Browse…</translation>
    </message>
    <message>
        <source>&amp;Path:</source>
        <translation>&amp;Path:</translation>
    </message>
    <message>
        <source>column to predict (name or index)</source>
        <translation>column to predict (name or index)</translation>
    </message>
    <message>
        <source>&amp;Target column:</source>
        <translation>&amp;Target column:</translation>
    </message>
    <message>
        <source>Number of samples the synthetic source generates</source>
        <translation>Number of samples the synthetic source generates</translation>
    </message>
    <message>
        <source>&amp;Samples:</source>
        <translation>&amp;Samples:</translation>
    </message>
    <message>
        <source>Fraction of the samples held out for validation</source>
        <translation>Fraction of the samples held out for validation</translation>
    </message>
    <message>
        <source>&amp;Validation split:</source>
        <translation>&amp;Validation split:</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>&amp;Optimizer:</source>
        <translation>&amp;Optimizer:</translation>
    </message>
    <message>
        <source>Learning rate (the peak rate for one-cycle)</source>
        <translation>Learning rate (the peak rate for one-cycle)</translation>
    </message>
    <message>
        <source>&amp;Learning rate:</source>
        <translation>&amp;Learning rate:</translation>
    </message>
    <message>
        <source>&amp;Weight decay:</source>
        <translation>&amp;Weight decay:</translation>
    </message>
    <message>
        <source>&amp;Momentum:</source>
        <translation>&amp;Momentum:</translation>
    </message>
    <message>
        <source>S&amp;chedule:</source>
        <translation>S&amp;chedule:</translation>
    </message>
    <message>
        <source>Warm-up ste&amp;ps:</source>
        <translation>Warm-up ste&amp;ps:</translation>
    </message>
    <message>
        <source>by task</source>
        <translation>by task</translation>
    </message>
    <message>
        <source>Lo&amp;ss:</source>
        <translation>Lo&amp;ss:</translation>
    </message>
    <message>
        <source>Metrics:</source>
        <translation>Metrics:</translation>
    </message>
    <message>
        <source>&amp;Epochs:</source>
        <translation>&amp;Epochs:</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>&amp;Batch size:</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>S&amp;eed:</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>Where</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>This computer</translation>
    </message>
    <message>
        <source>&amp;Run on:</source>
        <translation>&amp;Run on:</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>all cores</translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation>&amp;Threads:</translation>
    </message>
    <message>
        <source>&amp;Processes:</source>
        <translation>&amp;Processes:</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Preview</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>Plan</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>&amp;Train</translation>
    </message>
    <message>
        <source>Start training (Ctrl+Return)</source>
        <translation>Start training (Ctrl+Return)</translation>
    </message>
    <message>
        <source>Cluster: %1</source>
        <translation>Cluster: %1</translation>
    </message>
    <message>
        <source>This run cannot start:</source>
        <translation>This run cannot start:</translation>
    </message>
    <message>
        <source>The plan appears here once the network and the settings are complete.</source>
        <translation>The plan appears here once the network and the settings are complete.</translation>
    </message>
    <message numerus="yes">
        <source>about %n minute(s)</source>
        <translation><numerusform>about %n minute</numerusform><numerusform>about %n minutes</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>about %n second(s)</source>
        <translation><numerusform>about %n second</numerusform><numerusform>about %n seconds</numerusform></translation>
    </message>
    <message>
        <source>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Data&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Samples&lt;/td&gt;&lt;td&gt;%2 train, %3 validation&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Parameters&lt;/td&gt;&lt;td&gt;&lt;b&gt;%4&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Memory&lt;/td&gt;&lt;td&gt;%5 MiB&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Steps&lt;/td&gt;&lt;td&gt;%6&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Device&lt;/td&gt;&lt;td&gt;%7, %8 thread(s)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Time&lt;/td&gt;&lt;td&gt;&lt;b&gt;%9&lt;/b&gt; (%10 ms per step)&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Data&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Samples&lt;/td&gt;&lt;td&gt;%2 train, %3 validation&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Parameters&lt;/td&gt;&lt;td&gt;&lt;b&gt;%4&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Memory&lt;/td&gt;&lt;td&gt;%5 MiB&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Steps&lt;/td&gt;&lt;td&gt;%6&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Device&lt;/td&gt;&lt;td&gt;%7, %8 thread(s)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Time&lt;/td&gt;&lt;td&gt;&lt;b&gt;%9&lt;/b&gt; (%10 ms per step)&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>Choose the dataset</source>
        <translation>Choose the dataset</translation>
    </message>
    <message>
        <source>Open or draw a network in the designer to see the plan.</source>
        <translation>Open or draw a network in the designer to see the plan.</translation>
    </message>
    <message>
        <source>Computing the plan…</source>
        <translation>Computing the plan…</translation>
    </message>
    <message>
        <source>fresh (random initialisation)</source>
        <translation>fresh (random initialisation)</translation>
    </message>
    <message>
        <source>Start fresh</source>
        <translation>Start fresh</translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation>Weights:</translation>
    </message>
    <message>
        <source>the cluster&apos;s default</source>
        <translation>the cluster's default</translation>
    </message>
    <message>
        <source>P&amp;artition:</source>
        <translation>P&amp;artition:</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Job time limit; the run checkpoints before it and continues in a new job</source>
        <translation>Job time limit; the run checkpoints before it and continues in a new job</translation>
    </message>
    <message>
        <source>Time &amp;limit:</source>
        <translation>Time &amp;limit:</translation>
    </message>
    <message>
        <source>fine-tune from %1</source>
        <translation>fine-tune from %1</translation>
    </message>
    <message>
        <source>%1 (registered)</source>
        <translation>%1 (registered)</translation>
    </message>
    <message>
        <source>registered dataset %1@%2 (%3)</source>
        <translation>registered dataset %1@%2 (%3)</translation>
    </message>
    <message>
        <source>%1 (registered, %2)</source>
        <translation>%1 (registered, %2)</translation>
    </message>
    <message>
        <source>&amp;Inputs array:</source>
        <translation>&amp;Inputs array:</translation>
    </message>
    <message>
        <source>T&amp;argets array:</source>
        <translation>T&amp;argets array:</translation>
    </message>
    <message>
        <source>The array of the file the network reads (one row per sample)</source>
        <translation>The array of the file the network reads (one row per sample)</translation>
    </message>
    <message>
        <source>The array of the file the network learns to predict (one row per sample)</source>
        <translation>The array of the file the network learns to predict (one row per sample)</translation>
    </message>
    <message>
        <source>Class server: %1</source>
        <translation>Class server: %1</translation>
    </message>
    <message>
        <source>Class server: %1 › %2</source>
        <translation>Class server: %1 › %2</translation>
    </message>
    <message>
        <source> job(s)</source>
        <translation> job(s)</translation>
    </message>
    <message>
        <source>Jobs queued at once, each continuing from the last checkpoint when the one before reaches its time limit: the run goes on with Diamond closed</source>
        <translation>Jobs queued at once, each continuing from the last checkpoint when the one before reaches its time limit: the run goes on with Diamond closed</translation>
    </message>
    <message>
        <source>C&amp;hain:</source>
        <translation>C&amp;hain:</translation>
    </message>
    <message>
        <source>The class server decides where this run goes.</source>
        <translation>The class server decides where this run goes.</translation>
    </message>
    <message>
        <source>Measuring is not available here.</source>
        <translation>Measuring is not available here.</translation>
    </message>
    <message>
        <source>Measure processes</source>
        <translation>Measure processes</translation>
    </message>
    <message>
        <source>First of %1 to start (submitted to all)</source>
        <translation>First of %1 to start (submitted to all)</translation>
    </message>
    <message>
        <source>The run&apos;s job is submitted to %1 at once; the first cluster to start it keeps the run and the other jobs are cancelled.</source>
        <translation>The run's job is submitted to %1 at once; the first cluster to start it keeps the run and the other jobs are cancelled.</translation>
    </message>
    <message>
        <source>Processes that train together (on a cluster: tasks of the job)</source>
        <translation>Processes that train together (on a cluster: tasks of the job)</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunsPanel</name>
    <message>
        <source>Filter runs (name, project, state, target)…</source>
        <translation>Filter runs (name, project, state, target)…</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Open</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>&amp;Compare</translation>
    </message>
    <message>
        <source>Overlay the curves of the selected runs</source>
        <translation>Overlay the curves of the selected runs</translation>
    </message>
    <message>
        <source>&amp;Open monitor</source>
        <translation>&amp;Open monitor</translation>
    </message>
    <message>
        <source>&amp;Publish to gallery…</source>
        <translation>&amp;Publish to gallery…</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stop</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>&amp;Resume</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>&amp;Delete…</translation>
    </message>
    <message>
        <source>&amp;Move to another cluster…</source>
        <translation>&amp;Move to another cluster…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunsTableModel</name>
    <message>
        <source>draft</source>
        <translation>draft</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>queued</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>finished</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>preempted</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>resumed</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>this computer</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Project</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Target</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Duration</translation>
    </message>
    <message>
        <source>Best metric</source>
        <translation>Best metric</translation>
    </message>
    <message>
        <source>queued on the cluster</source>
        <translation>queued on the cluster</translation>
    </message>
    <message>
        <source>class server %1</source>
        <translation>class server %1</translation>
    </message>
    <message>
        <source>class server %1 › %2</source>
        <translation>class server %1 › %2</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ServerPublishDialog</name>
    <message>
        <source>Publish to the class gallery</source>
        <translation>Publish to the class gallery</translation>
    </message>
    <message>
        <source>This run trained on the class server, so it is published there: everyone in the class can open it in the gallery.</source>
        <translation>This run trained on the class server, so it is published there: everyone in the class can open it in the gallery.</translation>
    </message>
    <message>
        <source>comma-separated, e.g. lesson 1, spirals</source>
        <translation>comma-separated, e.g. lesson 1, spirals</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>&amp;Title:</translation>
    </message>
    <message>
        <source>&amp;Licence:</source>
        <translation>&amp;Licence:</translation>
    </message>
    <message>
        <source>T&amp;ags:</source>
        <translation>T&amp;ags:</translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation>&amp;Publish</translation>
    </message>
    <message>
        <source>Publishing…</source>
        <translation>Publishing…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::SignInPrompter</name>
    <message>
        <source>Unknown host key</source>
        <translation>Unknown host key</translation>
    </message>
    <message>
        <source>The authenticity of %1 cannot be established.</source>
        <translation>The authenticity of %1 cannot be established.</translation>
    </message>
    <message>
        <source>Its %1 key fingerprint is:

%2

Compare it with the fingerprint your cluster&apos;s administrators publish. Accept only if they match: the key is then remembered in the known hosts file.</source>
        <translation>Its %1 key fingerprint is:

%2

Compare it with the fingerprint your cluster's administrators publish. Accept only if they match: the key is then remembered in the known hosts file.</translation>
    </message>
    <message>
        <source>Accept and connect</source>
        <translation>Accept and connect</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancel</translation>
    </message>
    <message>
        <source>Waiting for you to check the host key of %1…</source>
        <translation>Waiting for you to check the host key of %1…</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Cluster &lt;b&gt;%1&lt;/b&gt; asks you to sign in.</source>
        <translation>Cluster &lt;b&gt;%1&lt;/b&gt; asks you to sign in.</translation>
    </message>
    <message>
        <source>Signing in to %1…</source>
        <translation>Signing in to %1…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::SummaryPanel</name>
    <message>
        <source>Samples per training step used for the memory estimate.</source>
        <translation>Samples per training step used for the memory estimate.</translation>
    </message>
    <message>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <source>AdamW</source>
        <translation>AdamW</translation>
    </message>
    <message>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <source>SGD with momentum</source>
        <translation>SGD with momentum</translation>
    </message>
    <message>
        <source>RMSprop</source>
        <translation>RMSprop</translation>
    </message>
    <message>
        <source>The optimizer&apos;s state adds 0× (SGD), 1× (momentum, RMSprop) or 2× (Adam) the weights.</source>
        <translation>The optimizer's state adds 0× (SGD), 1× (momentum, RMSprop) or 2× (Adam) the weights.</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>Layers</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameters</translation>
    </message>
    <message>
        <source>FLOPs per sample</source>
        <translation>FLOPs per sample</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>Batch size</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>Optimizer</translation>
    </message>
    <message>
        <source>Training memory</source>
        <translation>Training memory</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>Problems</translation>
    </message>
    <message>
        <source>%1 trainable parameters</source>
        <translation>%1 trainable parameters</translation>
    </message>
    <message>
        <source>weights %1 · gradients %2 · optimizer %3 · activations %4</source>
        <translation>weights %1 · gradients %2 · optimizer %3 · activations %4</translation>
    </message>
    <message>
        <source>None</source>
        <translation>None</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation><numerusform>%n error</numerusform><numerusform>%n errors</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation><numerusform>%n warning</numerusform><numerusform>%n warnings</numerusform></translation>
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
<context>
    <name>diamond::ui::style</name>
    <message>
        <source>%1 FLOPs</source>
        <translation>%1 FLOPs</translation>
    </message>
    <message>
        <source>%1 kFLOPs</source>
        <translation>%1 kFLOPs</translation>
    </message>
    <message>
        <source>%1 MFLOPs</source>
        <translation>%1 MFLOPs</translation>
    </message>
    <message>
        <source>%1 GFLOPs</source>
        <translation>%1 GFLOPs</translation>
    </message>
    <message>
        <source>%1 TFLOPs</source>
        <translation>%1 TFLOPs</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>Input</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Output</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>Linear</translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation>Convolution</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>Pooling</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>Normalization</translation>
    </message>
    <message>
        <source>Regularization</source>
        <translation>Regularization</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>Activation</translation>
    </message>
    <message>
        <source>Reshaping</source>
        <translation>Reshaping</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>Embedding</translation>
    </message>
    <message>
        <source>Recurrent</source>
        <translation>Recurrent</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>Attention</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Merge</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::ImportanceBars</name>
    <message>
        <source>Needs at least 4 finished trials</source>
        <translation>Needs at least 4 finished trials</translation>
    </message>
    <message>
        <source>Parameter importance (η²)</source>
        <translation>Parameter importance (η²)</translation>
    </message>
    <message numerus="yes">
        <source>Share of the objective&apos;s variance explained by each parameter&apos;s binned means; %n finished trial(s).</source>
        <translation><numerusform>Share of the objective's variance explained by each parameter's binned means; %n finished trial.</numerusform><numerusform>Share of the objective's variance explained by each parameter's binned means; %n finished trials.</numerusform></translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::ObjectiveScatterPlot</name>
    <message>
        <source>%1 by trial</source>
        <translation>%1 by trial</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>trial</translation>
    </message>
    <message>
        <source>best so far</source>
        <translation>best so far</translation>
    </message>
    <message>
        <source>No results yet</source>
        <translation>No results yet</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::ParallelCoordinatesPlot</name>
    <message>
        <source>Parallel coordinates</source>
        <translation>Parallel coordinates</translation>
    </message>
    <message>
        <source>log</source>
        <translation>log</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>worse</translation>
    </message>
    <message>
        <source>better</source>
        <translation>better</translation>
    </message>
    <message>
        <source>No trials yet</source>
        <translation>No trials yet</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepEditor</name>
    <message>
        <source>sweep</source>
        <translation>sweep</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Start</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>Project</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Target</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Distribution</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>Low</translation>
    </message>
    <message>
        <source>High</source>
        <translation>High</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>Values</translation>
    </message>
    <message>
        <source>Grid points</source>
        <translation>Grid points</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Add</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remove</translation>
    </message>
    <message>
        <source>Parameter:</source>
        <translation>Parameter:</translation>
    </message>
    <message>
        <source>Search space</source>
        <translation>Search space</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>Grid</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>Random</translation>
    </message>
    <message>
        <source>TPE (Bergstra et al. 2011)</source>
        <translation>TPE (Bergstra et al. 2011)</translation>
    </message>
    <message>
        <source>ASHA (Li et al. 2020)</source>
        <translation>ASHA (Li et al. 2020)</translation>
    </message>
    <message>
        <source>Hyperband (brackets of ASHA)</source>
        <translation>Hyperband (brackets of ASHA)</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>Algorithm</translation>
    </message>
    <message>
        <source>Grid points per parameter</source>
        <translation>Grid points per parameter</translation>
    </message>
    <message>
        <source>Random start-up trials</source>
        <translation>Random start-up trials</translation>
    </message>
    <message>
        <source>Good fraction γ</source>
        <translation>Good fraction γ</translation>
    </message>
    <message>
        <source>Candidates per proposal</source>
        <translation>Candidates per proposal</translation>
    </message>
    <message>
        <source>Prior weight</source>
        <translation>Prior weight</translation>
    </message>
    <message>
        <source>Reduction factor η</source>
        <translation>Reduction factor η</translation>
    </message>
    <message>
        <source>Minimum budget r</source>
        <translation>Minimum budget r</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>validation</translation>
    </message>
    <message>
        <source>training</source>
        <translation>training</translation>
    </message>
    <message>
        <source>minimise</source>
        <translation>minimise</translation>
    </message>
    <message>
        <source>maximise</source>
        <translation>maximise</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Objective</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>Metric</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>Split</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>Goal</translation>
    </message>
    <message>
        <source>config&apos;s</source>
        <translation>config's</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unlimited</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>epochs</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>steps</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>Limits</translation>
    </message>
    <message>
        <source>Max trials</source>
        <translation>Max trials</translation>
    </message>
    <message>
        <source>Concurrent trials</source>
        <translation>Concurrent trials</translation>
    </message>
    <message>
        <source>Budget per trial</source>
        <translation>Budget per trial</translation>
    </message>
    <message>
        <source>Total budget</source>
        <translation>Total budget</translation>
    </message>
    <message>
        <source>Threads per trial</source>
        <translation>Threads per trial</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Seed</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>not set</translation>
    </message>
    <message>
        <source>%1 (now %2)</source>
        <translation>%1 (now %2)</translation>
    </message>
    <message>
        <source>%1 sweep</source>
        <translation>%1 sweep</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>choice</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>uniform</translation>
    </message>
    <message>
        <source>log-uniform</source>
        <translation>log-uniform</translation>
    </message>
    <message>
        <source>integer</source>
        <translation>integer</translation>
    </message>
    <message>
        <source>integer (log)</source>
        <translation>integer (log)</translation>
    </message>
    <message>
        <source>space[%1].%2: &quot;%3&quot; is not a number</source>
        <translation>space[%1].%2: "%3" is not a number</translation>
    </message>
    <message>
        <source>space[%1].grid_points: &quot;%2&quot; is not an integer</source>
        <translation>space[%1].grid_points: "%2" is not an integer</translation>
    </message>
    <message>
        <source>space: add at least one parameter</source>
        <translation>space: add at least one parameter</translation>
    </message>
    <message>
        <source>Pack small trials into one engine process</source>
        <translation>Pack small trials into one engine process</translation>
    </message>
    <message>
        <source>Trials started together train one after another in one diamond-train process, so the engine start-up is paid once (docs/trial-packing.md)</source>
        <translation>Trials started together train one after another in one diamond-train process, so the engine start-up is paid once (docs/trial-packing.md)</translation>
    </message>
    <message>
        <source>up to</source>
        <translation>up to</translation>
    </message>
    <message>
        <source>Packing</source>
        <translation>Packing</translation>
    </message>
    <message>
        <source>Every point of the discretised space once.</source>
        <translation>Every point of the discretised space once.</translation>
    </message>
    <message>
        <source>Independent draws from each parameter&apos;s distribution.</source>
        <translation>Independent draws from each parameter's distribution.</translation>
    </message>
    <message>
        <source>After the start-up trials, proposes where good results are denser than bad ones.</source>
        <translation>After the start-up trials, proposes where good results are denser than bad ones.</translation>
    </message>
    <message>
        <source>Trains trials with a small budget first and promotes the best 1/η of each rung to η times the budget; the others stop early.</source>
        <translation>Trains trials with a small budget first and promotes the best 1/η of each rung to η times the budget; the others stop early.</translation>
    </message>
    <message>
        <source>Several ASHA brackets with different starting budgets, hedging against stopping too early.</source>
        <translation>Several ASHA brackets with different starting budgets, hedging against stopping too early.</translation>
    </message>
    <message>
        <source>Several clusters: each trial goes where it is predicted to finish first, and trials move to the others when one cannot be reached</source>
        <translation>Several clusters: each trial goes where it is predicted to finish first, and trials move to the others when one cannot be reached</translation>
    </message>
    <message>
        <source>Most trials queued or running on one cluster at once</source>
        <translation>Most trials queued or running on one cluster at once</translation>
    </message>
    <message>
        <source>Run trials on</source>
        <translation>Run trials on</translation>
    </message>
    <message>
        <source>Trials per cluster</source>
        <translation>Trials per cluster</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>This computer</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepTrialsModel</name>
    <message>
        <source>pending</source>
        <translation>pending</translation>
    </message>
    <message>
        <source>running</source>
        <translation>running</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>paused</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>completed</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>stopped</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>failed</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>stopping</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>Trial</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Rung</source>
        <translation>Rung</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>Budget</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>Objective</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Run</translation>
    </message>
    <message>
        <source>%1, moved from %2</source>
        <translation>%1, moved from %2</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>Cluster</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepViewPage</name>
    <message>
        <source>Pause</source>
        <translation>Pause</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Stop</translation>
    </message>
    <message>
        <source>Promote best</source>
        <translation>Promote best</translation>
    </message>
    <message>
        <source>Create a normal run from the best trial, with the full budget</source>
        <translation>Create a normal run from the best trial, with the full budget</translation>
    </message>
    <message>
        <source>Click a trial to open its run</source>
        <translation>Click a trial to open its run</translation>
    </message>
    <message>
        <source>Sweep %1 has an invalid stored definition: %2</source>
        <translation>Sweep %1 has an invalid stored definition: %2</translation>
    </message>
    <message>
        <source>Sweep %1: %2</source>
        <translation>Sweep %1: %2</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>steps</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>epochs</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 of %4 trials (%5 running, %6 ended) · %7 %8 used</source>
        <translation>%1 · %2 · %3 of %4 trials (%5 running, %6 ended) · %7 %8 used</translation>
    </message>
    <message>
        <source> · best: trial %1, %2 = %3</source>
        <translation> · best: trial %1, %2 = %3</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Resume</translation>
    </message>
    <message>
        <source>No trial of sweep %1 has a result yet.</source>
        <translation>No trial of sweep %1 has a result yet.</translation>
    </message>
    <message>
        <source>Trial %1: %2</source>
        <translation>Trial %1: %2</translation>
    </message>
    <message>
        <source>%1 best (trial %2)</source>
        <translation>%1 best (trial %2)</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepsPage</name>
    <message>
        <source>&amp;New sweep…</source>
        <translation>&amp;New sweep…</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>&amp;Open</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>&amp;Pause</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>&amp;Stop</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>Target</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>Algorithm</translation>
    </message>
    <message>
        <source>State</source>
        <translation>State</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>Trials</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>Best</translation>
    </message>
    <message>
        <source>Vary the network and run set-up on the canvas: learning rate, widths, batch size…</source>
        <translation>Vary the network and run set-up on the canvas: learning rate, widths, batch size…</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Sweeps&lt;/h2&gt;Hyper-parameter searches of this workspace. Each trial is a run; open a sweep to see its trials, plots and the best setting.</source>
        <translation>&lt;h2&gt;Sweeps&lt;/h2&gt;Hyper-parameter searches of this workspace. Each trial is a run; open a sweep to see its trials, plots and the best setting.</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>Sweep</translation>
    </message>
    <message>
        <source>Controlled by this window</source>
        <translation>Controlled by this window</translation>
    </message>
    <message numerus="yes">
        <source>%n sweep(s)</source>
        <translation><numerusform>%n sweep</numerusform><numerusform>%n sweeps</numerusform></translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>&amp;Continue</translation>
    </message>
</context>
<context>
    <name>remote</name>
    <message>
        <source>cancelled</source>
        <translation>cancelled</translation>
    </message>
    <message>
        <source>Cannot reach cluster &apos;%1&apos;.</source>
        <translation>Cannot reach cluster '%1'.</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>Connecting to %1…</translation>
    </message>
    <message>
        <source>Cannot connect to %1.</source>
        <translation>Cannot connect to %1.</translation>
    </message>
    <message>
        <source>Cluster &apos;%1&apos; has no batch scheduler Diamond can use (scheduler %2).</source>
        <translation>Cluster '%1' has no batch scheduler Diamond can use (scheduler %2).</translation>
    </message>
</context>
</TS>
