<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DatasetPreview</name>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 rows × %2 columns</source>
        <translation>%1 行 × %2 列</translation>
    </message>
    <message>
        <source>The folder %1 does not exist.</source>
        <translation>文件夹 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 has no class sub-folders (one folder of images per class).</source>
        <translation>%1 中没有类别子文件夹（每个类别一个图像文件夹）。</translation>
    </message>
    <message>
        <source>%1 images in %2 classes</source>
        <translation>%1 张图像，共 %2 个类别</translation>
    </message>
    <message>
        <source>%1 is not a NumPy .npy file.</source>
        <translation>%1 不是 NumPy .npy 文件。</translation>
    </message>
    <message>
        <source>shape (%1), dtype %2</source>
        <translation>形状 (%1)，dtype %2</translation>
    </message>
    <message>
        <source>Points on interleaved spiral arms; one class per arm.</source>
        <translation>交错螺旋臂上的点；每条臂一个类别。</translation>
    </message>
    <message>
        <source>Two interleaving half circles; two classes.</source>
        <translation>两个交错的半圆；两个类别。</translation>
    </message>
    <message>
        <source>Gaussian clusters; one class per centre.</source>
        <translation>高斯簇；每个中心一个类别。</translation>
    </message>
    <message>
        <source>Points on a checkerboard; two classes by tile colour.</source>
        <translation>棋盘上的点；按格子颜色分为两个类别。</translation>
    </message>
    <message>
        <source>Noisy samples of a sine wave; a regression task.</source>
        <translation>带噪声的正弦波样本；回归任务。</translation>
    </message>
    <message>
        <source>Small synthetic images of circles, squares and triangles.</source>
        <translation>圆形、正方形和三角形的小型合成图像。</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>请选择一个文件。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>%1, %2 bytes</source>
        <translation>%1，%2 字节</translation>
    </message>
    <message>
        <source>inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>targets</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>not readable</source>
        <translation>不可读取</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>用途</translation>
    </message>
    <message numerus="yes">
        <source>, %n the engine reads</source>
        <translation><numerusform>，引擎可读取 %n 个</numerusform></translation>
    </message>
    <message>
        <source>%1 holds no uncompressed IDX images file.</source>
        <translation>%1 中没有未压缩的 IDX 图像文件。</translation>
    </message>
    <message>
        <source>%1: %2 (IDX)</source>
        <translation>%1：%2（IDX）</translation>
    </message>
    <message>
        <source>Array</source>
        <translation>数组</translation>
    </message>
    <message numerus="yes">
        <source>%1: %n array(s)</source>
        <translation><numerusform>%1：%n 个数组</numerusform></translation>
    </message>
</context>
<context>
    <name>EdgeItem</name>
    <message>
        <source>%1 → %2: %3</source>
        <translation>%1 → %2：%3</translation>
    </message>
</context>
<context>
    <name>NodeItem</name>
    <message>
        <source>not connected</source>
        <translation>未连接</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <source>Input %1</source>
        <translation>输入 %1</translation>
    </message>
    <message>
        <source>Output &quot;%1&quot;</source>
        <translation>输出“%1”</translation>
    </message>
    <message numerus="yes">
        <source>%n value(s) per sample</source>
        <translation><numerusform>每个样本 %n 个值</numerusform></translation>
    </message>
    <message>
        <source>%1 params · %2</source>
        <translation>%1 个参数 · %2</translation>
    </message>
    <message>
        <source>defaults</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Recomputed in backward: saves memory, costs time.</source>
        <translation>在反向传播中重新计算：节省内存，耗费时间。</translation>
    </message>
</context>
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
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Cluster profile &apos;%1&apos; is invalid: %2</source>
        <translation>集群配置“%1”无效：%2</translation>
    </message>
    <message>
        <source>Run %1 does not exist.</source>
        <translation>运行 %1 不存在。</translation>
    </message>
    <message>
        <source>%1 has fewer than two rows.</source>
        <translation>%1 少于两行。</translation>
    </message>
    <message>
        <source>%1: line 1 (%2 fields) is not part of the table below (%3 columns); it looks like a metadata line: use &quot;skip_rows&quot;: 1.</source>
        <translation>%1：第 1 行（%2 个字段）不属于下面的表格（%3 列）；它看起来是元数据行：请使用 "skip_rows": 1。</translation>
    </message>
    <message>
        <source>Column &apos;%1&apos; has %2 missing values.</source>
        <translation>列“%1”有 %2 个缺失值。</translation>
    </message>
    <message>
        <source>Column &apos;%1&apos; has the same value in every row.</source>
        <translation>列“%1”在每一行的值都相同。</translation>
    </message>
    <message>
        <source>Label imbalance: the largest class has %1 rows, the smallest %2.</source>
        <translation>标签不平衡：最大的类别有 %1 行，最小的有 %2 行。</translation>
    </message>
    <message>
        <source>%1 is not a NumPy .npy file.</source>
        <translation>%1 不是 NumPy .npy 文件。</translation>
    </message>
    <message>
        <source>Label imbalance: the largest class has %1 images, the smallest %2.</source>
        <translation>标签不平衡：最大的类别有 %1 张图像，最小的有 %2 张。</translation>
    </message>
    <message>
        <source>%1 has no array of one value per sample to use as targets.</source>
        <translation>%1 中没有每个样本一个值、可用作目标的数组。</translation>
    </message>
    <message>
        <source>In %1, the inputs %2 have %3 rows but the targets %4 have %5.</source>
        <translation>在 %1 中，输入 %2 有 %3 行，而目标 %4 有 %5 行。</translation>
    </message>
    <message>
        <source>the engine stopped while reading it (damaged file?)</source>
        <translation>引擎在读取时中止（文件已损坏？）</translation>
    </message>
    <message>
        <source>%1 has no labels file beside it (an IDX file of rank 1).</source>
        <translation>%1 旁边没有标签文件（秩为 1 的 IDX 文件）。</translation>
    </message>
    <message>
        <source>%1 has %2 labels for %3 images in %4.</source>
        <translation>%1 有 %2 个标签，而 %4 中有 %3 张图像。</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: the engine %2 is missing.</source>
        <translation>无法列出 %1 的数组：缺少引擎 %2。</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: the listing is larger than %2 MiB.</source>
        <translation>无法列出 %1 的数组：列表大于 %2 MiB。</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: the engine did not answer within %2 s.</source>
        <translation>无法列出 %1 的数组：引擎未在 %2 秒内响应。</translation>
    </message>
    <message>
        <source>Cannot list the arrays of %1: %2</source>
        <translation>无法列出 %1 的数组：%2</translation>
    </message>
    <message>
        <source>%1 holds more arrays than the %2 listed.</source>
        <translation>%1 包含的数组多于已列出的 %2 个。</translation>
    </message>
    <message>
        <source>%1 has no array the engine reads (float32, float64, int64, int32 or uint8 arrays).</source>
        <translation>%1 中没有引擎可读取的数组（float32、float64、int64、int32 或 uint8 数组）。</translation>
    </message>
    <message>
        <source>There is no project %1.</source>
        <translation>没有项目 %1。</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder for the sample datasets: %1</source>
        <translation>无法为示例数据集创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>Cannot copy the sample dataset %1 to %2.</source>
        <translation>无法将示例数据集 %1 复制到 %2。</translation>
    </message>
    <message>
        <source>Cannot register the sample dataset %1: %2</source>
        <translation>无法登记示例数据集 %1：%2</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; must be an object of language -&gt; text.</source>
        <translation>%1："%2" 必须是“语言 -&gt; 文本”的对象。</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot;.%3 must be text.</source>
        <translation>%1："%2".%3 必须是文本。</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; has no English (&quot;en&quot;) text.</source>
        <translation>%1："%2" 没有英文（"en"）文本。</translation>
    </message>
    <message>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <source>%1 is not an object.</source>
        <translation>%1 不是对象。</translation>
    </message>
    <message>
        <source>%1: &quot;id&quot; must be 1-64 characters a-z, 0-9 and &apos;-&apos;.</source>
        <translation>%1："id" 必须是 1–64 个字符，只含 a-z、0-9 和 '-'。</translation>
    </message>
    <message>
        <source>step %1 (%2)</source>
        <translation>第 %1 步（%2）</translation>
    </message>
    <message>
        <source>%1: the id is used by an earlier step.</source>
        <translation>%1：该 id 已被前面的步骤使用。</translation>
    </message>
    <message>
        <source>%1: show.page &quot;%2&quot; is not one of %3.</source>
        <translation>%1：show.page "%2" 不是 %3 之一。</translation>
    </message>
    <message>
        <source>%1: &quot;check&quot; must be an object with a &quot;kind&quot;.</source>
        <translation>%1："check" 必须是带有 "kind" 的对象。</translation>
    </message>
    <message>
        <source>%1: check: %2</source>
        <translation>%1：检查：%2</translation>
    </message>
    <message>
        <source>the file has %1 bytes, more than the %2 a lesson may have.</source>
        <translation>文件有 %1 字节，超过了课程允许的 %2 字节。</translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <source>the lesson must be a JSON object.</source>
        <translation>课程必须是一个 JSON 对象。</translation>
    </message>
    <message>
        <source>&quot;format&quot; must be &quot;diamond.lesson/1&quot;.</source>
        <translation>"format" 必须是 "diamond.lesson/1"。</translation>
    </message>
    <message>
        <source>&quot;id&quot; must be 1-64 characters a-z, 0-9 and &apos;-&apos;.</source>
        <translation>"id" 必须是 1–64 个字符，只含 a-z、0-9 和 '-'。</translation>
    </message>
    <message>
        <source>&quot;project&quot; is longer than 200 characters.</source>
        <translation>"project" 超过 200 个字符。</translation>
    </message>
    <message>
        <source>lesson</source>
        <translation>课程</translation>
    </message>
    <message>
        <source>&quot;steps&quot; must be a non-empty array.</source>
        <translation>"steps" 必须是非空数组。</translation>
    </message>
    <message>
        <source>a lesson has at most 100 steps, this one %1.</source>
        <translation>一节课最多 100 步，这一节有 %1 步。</translation>
    </message>
    <message>
        <source>unknown parameter &quot;%1&quot;.</source>
        <translation>未知参数 "%1"。</translation>
    </message>
    <message>
        <source>parameter &quot;%1&quot; has the wrong type.</source>
        <translation>参数 "%1" 的类型不对。</translation>
    </message>
    <message>
        <source>No network is open in the designer.</source>
        <translation>设计器中没有打开网络。</translation>
    </message>
    <message>
        <source>The network open is &quot;%1&quot;.</source>
        <translation>当前打开的网络是“%1”。</translation>
    </message>
    <message>
        <source>The input has %1 features; the data has %2.</source>
        <translation>输入有 %1 个特征；数据有 %2 个。</translation>
    </message>
    <message>
        <source>no fixed number of</source>
        <translation>不固定数量的</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2：%3</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>The network &quot;%1&quot; matches.</source>
        <translation>网络“%1”符合要求。</translation>
    </message>
    <message>
        <source>Best %1: %2.</source>
        <translation>最佳 %1：%2。</translation>
    </message>
    <message>
        <source>%1 of %2 runs with different %3 finished.</source>
        <translation>%3 不同的运行已完成 %1 个，共需 %2 个。</translation>
    </message>
    <message>
        <source>Best %1 so far: %2; the step needs %3.</source>
        <translation>目前最佳 %1：%2；这一步需要 %3。</translation>
    </message>
    <message>
        <source>No run has finished since the lesson started.</source>
        <translation>课程开始以来还没有运行完成。</translation>
    </message>
    <message>
        <source>%1 of %2 runs finished.</source>
        <translation>已完成 %1 个运行，共需 %2 个。</translation>
    </message>
    <message>
        <source>No runs compared yet.</source>
        <translation>还没有比较过运行。</translation>
    </message>
    <message>
        <source>No sweep started since the lesson started.</source>
        <translation>课程开始以来还没有开始扫描。</translation>
    </message>
    <message>
        <source>%1 of %2 trials finished; the sweep has not finished yet.</source>
        <translation>已完成 %1 个试验，共需 %2 个；扫描尚未结束。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is in the gallery.</source>
        <translation>“%1”已在模型库中。</translation>
    </message>
    <message>
        <source>No model published since the lesson started.</source>
        <translation>课程开始以来还没有发布模型。</translation>
    </message>
    <message>
        <source>No cluster is configured.</source>
        <translation>还没有配置集群。</translation>
    </message>
    <message>
        <source>Run %1 uses %2.</source>
        <translation>运行 %1 使用 %2。</translation>
    </message>
    <message>
        <source>No run has used a registered dataset yet.</source>
        <translation>还没有运行使用已登记的数据集。</translation>
    </message>
    <message>
        <source>No run has used the dataset %1 yet.</source>
        <translation>还没有运行使用数据集 %1。</translation>
    </message>
    <message>
        <source>unknown kind &quot;%1&quot;; known kinds: %2.</source>
        <translation>未知类型 "%1"；已知类型：%2。</translation>
    </message>
    <message>
        <source>&quot;min&quot; and &quot;max&quot; need a &quot;metric&quot;.</source>
        <translation>"min" 和 "max" 需要 "metric"。</translation>
    </message>
    <message>
        <source>Press Next when you are ready.</source>
        <translation>准备好后按“下一步”。</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>未打开工作区。</translation>
    </message>
    <message>
        <source>Unknown check &quot;%1&quot;.</source>
        <translation>未知检查 "%1"。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is larger than 8 MiB.</source>
        <translation>%1 大于 8 MiB。</translation>
    </message>
    <message>
        <source>%1 is not a JSON object.</source>
        <translation>%1 不是 JSON 对象。</translation>
    </message>
    <message>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <source>Nothing to plan: the run needs a positive number of steps and a step time.</source>
        <translation>无法规划：运行需要正的步数和每步时间。</translation>
    </message>
    <message>
        <source>A job of the partition&apos;s %1 s leaves no time to compute: start-up takes %2 s and the checkpoint signal needs %3 s.</source>
        <translation>该分区 %1 秒的作业没有留下计算时间：启动需要 %2 秒，检查点信号需要 %3 秒。</translation>
    </message>
    <message>
        <source>The spec is not valid.</source>
        <translation>网络描述无效。</translation>
    </message>
    <message>
        <source>The batch (%1) must be a multiple of the number of ranks (%2).</source>
        <translation>批大小（%1）必须是进程数（%2）的倍数。</translation>
    </message>
    <message>
        <source>The profile was measured with %1 threads, this run uses %2 per rank: scaled linearly.</source>
        <translation>性能档案以 %1 个线程测得，本次运行每个进程使用 %2 个：已按线性缩放。</translation>
    </message>
    <message>
        <source>The profile is a quick calibration (fewer shapes and repeats).</source>
        <translation>该性能档案是快速校准（形状和重复次数较少）。</translation>
    </message>
    <message>
        <source>Some layers are larger or smaller than every probed shape: extrapolated.</source>
        <translation>部分层比所有测量过的形状更大或更小：已外推。</translation>
    </message>
    <message>
        <source>The profile has no all-reduce timings (calibrate with --nproc 2): assumed 1 GB/s.</source>
        <translation>该性能档案没有 all-reduce 计时（请用 --nproc 2 校准）：按 1 GB/s 估算。</translation>
    </message>
    <message>
        <source>The profile has no reference step with several ranks (calibrate with --nproc 2).</source>
        <translation>该性能档案没有多进程的参考步（请用 --nproc 2 校准）。</translation>
    </message>
    <message>
        <source>needs %1 MiB, the node has %2 MiB</source>
        <translation>需要 %1 MiB，节点只有 %2 MiB</translation>
    </message>
    <message>
        <source>scaling efficiency %1 is below 0.7</source>
        <translation>扩展效率 %1 低于 0.7</translation>
    </message>
    <message>
        <source>No option fits: %1</source>
        <translation>没有可行的方案：%1</translation>
    </message>
    <message>
        <source>Calibrating &quot;%1&quot; needs Slurm (it runs one srun job step); this cluster uses %2.</source>
        <translation>校准“%1”需要 Slurm（它以一个 srun 作业步运行）；此集群使用 %2。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a partition name (letters, digits, &apos;_&apos; and &apos;-&apos;).</source>
        <translation>“%1”不是分区名（只能包含字母、数字、“_”和“-”）。</translation>
    </message>
    <message>
        <source>Calibration on &quot;%1&quot; failed (exit %2): %3</source>
        <translation>在“%1”上校准失败（退出码 %2）：%3</translation>
    </message>
    <message>
        <source>Calibration on &quot;%1&quot; printed more than 1 MiB.</source>
        <translation>在“%1”上的校准输出超过 1 MiB。</translation>
    </message>
    <message>
        <source>Calibration on &quot;%1&quot; printed no profile: %2</source>
        <translation>在“%1”上的校准没有输出设备配置：%2</translation>
    </message>
    <message>
        <source>The cluster &quot;%1&quot; is gone.</source>
        <translation>集群“%1”已不存在。</translation>
    </message>
    <message>
        <source>The measured step time is not valid.</source>
        <translation>测得的每步耗时无效。</translation>
    </message>
    <message numerus="yes">
        <source>Corrected ×%1 from %n similar finished run(s) on this device.</source>
        <translation><numerusform>已根据本设备上 %n 个相似的已完成运行校正 ×%1。</numerusform></translation>
    </message>
    <message>
        <source>Neither the profile nor a dry run measured the runtime&apos;s own memory (calibrate again): the predicted memory leaves it out.</source>
        <translation>设备档案和试运行都没有测量运行时自身的内存（请重新校准）：预测的内存不含这一部分。</translation>
    </message>
    <message>
        <source>Cannot create a folder for the width probes.</source>
        <translation>无法为进程数测试创建文件夹。</translation>
    </message>
    <message>
        <source>Cannot write the width probes&apos; files in %1.</source>
        <translation>无法在 %1 中写入进程数测试的文件。</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>The probe with %1 processes of %2 threads took longer than %3 s and was stopped.</source>
        <translation>%1 个进程（每个 %2 个线程）的测试超过 %3 秒，已停止。</translation>
    </message>
    <message>
        <source>The probe with %1 processes of %2 threads failed: %3</source>
        <translation>%1 个进程（每个 %2 个线程）的测试失败：%3</translation>
    </message>
    <message>
        <source>Cannot read the cluster&apos;s architecture: %1</source>
        <translation>无法读取集群的体系结构：%1</translation>
    </message>
    <message>
        <source>The cluster&apos;s CPUs are %1, this computer&apos;s %2: a bundle of this computer&apos;s engine cannot run there. Deploy a container (--container) instead.</source>
        <translation>集群的 CPU 是 %1，本机的是 %2：本机引擎的打包无法在那里运行。请改为部署容器（--container）。</translation>
    </message>
    <message>
        <source>The cluster&apos;s C library is glibc %1.%2, older than this computer&apos;s %3.%4: a bundle of this computer&apos;s engine would not start there. Deploy a container (--container) instead.</source>
        <translation>集群的 C 库是 glibc %1.%2，比本机的 %3.%4 旧：本机引擎的打包无法在那里启动。请改为部署容器（--container）。</translation>
    </message>
    <message>
        <source>Uploading %1: %2 %…</source>
        <translation>正在上传 %1：%2 %…</translation>
    </message>
    <message>
        <source>Uploading %1 failed: %2</source>
        <translation>上传 %1 失败：%2</translation>
    </message>
    <message>
        <source>%1 arrived damaged on the cluster (SHA-256 differs): %2</source>
        <translation>%1 到达集群时已损坏（SHA-256 不同）：%2</translation>
    </message>
    <message>
        <source>The deployed engine does not start on the cluster: %1</source>
        <translation>部署的引擎无法在集群上启动：%1</translation>
    </message>
    <message>
        <source>%1 is not an engine this computer can bundle.</source>
        <translation>%1 不是本机可以打包的引擎。</translation>
    </message>
    <message>
        <source>Checking the cluster&apos;s architecture…</source>
        <translation>正在检查集群的体系结构…</translation>
    </message>
    <message>
        <source>Cannot create a temporary folder: %1</source>
        <translation>无法创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>Packing the engine and its libraries…</source>
        <translation>正在打包引擎及其库…</translation>
    </message>
    <message>
        <source>Cannot create %1 on the cluster: %2</source>
        <translation>无法在集群上创建 %1：%2</translation>
    </message>
    <message>
        <source>Unpacking on the cluster…</source>
        <translation>正在集群上解包…</translation>
    </message>
    <message>
        <source>Unpacking the engine on the cluster failed: %1</source>
        <translation>在集群上解包引擎失败：%1</translation>
    </message>
    <message>
        <source>Starting the engine there…</source>
        <translation>正在那里启动引擎…</translation>
    </message>
    <message>
        <source>A container is built from Diamond&apos;s sources; %1 does not hold them (give the source folder).</source>
        <translation>容器由 Diamond 的源代码构建；%1 中没有源代码（请指定源代码文件夹）。</translation>
    </message>
    <message>
        <source>this installation</source>
        <translation>此安装</translation>
    </message>
    <message>
        <source>Packing the engine&apos;s sources…</source>
        <translation>正在打包引擎的源代码…</translation>
    </message>
    <message>
        <source>Cannot write %1 on the cluster: %2</source>
        <translation>无法在集群上写入 %1：%2</translation>
    </message>
    <message>
        <source>Building the image on the cluster (a job of up to %1 min; about 10 min once it runs)…</source>
        <translation>正在集群上构建镜像（一个最长 %1 分钟的作业；开始运行后约 10 分钟）…</translation>
    </message>
    <message>
        <source>Building the image failed (exit %1): %2</source>
        <translation>构建镜像失败（退出码 %1）：%2</translation>
    </message>
    <message>
        <source>The build left no image: %1</source>
        <translation>构建没有生成镜像：%1</translation>
    </message>
    <message>
        <source>Starting the engine in the image…</source>
        <translation>正在镜像中启动引擎…</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a partition name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;).</source>
        <translation>“%1”不是分区名（字母、数字、“.”、“_”和“-”）。</translation>
    </message>
    <message>
        <source>The build&apos;s time limit must be 1 to 1440 minutes.</source>
        <translation>构建的时间限制必须为 1 到 1440 分钟。</translation>
    </message>
    <message>
        <source>Building an image on &quot;%1&quot; needs Slurm (one srun job step) or no scheduler; it uses PBS.</source>
        <translation>在“%1”上构建镜像需要 Slurm（一个 srun 作业步）或不使用调度器；它使用的是 PBS。</translation>
    </message>
    <message>
        <source>Copying the engine&apos;s header libraries failed: %1</source>
        <translation>复制引擎的头文件库失败：%1</translation>
    </message>
    <message>
        <source>Packing the engine&apos;s sources failed: %1</source>
        <translation>打包引擎的源代码失败：%1</translation>
    </message>
    <message>
        <source>Cluster &quot;%1&quot; has no scratch folder to deploy into.</source>
        <translation>集群“%1”没有可部署的暂存文件夹。</translation>
    </message>
    <message>
        <source>step time predicted from a CPU profile: no GPU of this partition was calibrated</source>
        <translation>步时间由 CPU 配置文件预测：此分区的 GPU 尚未校准</translation>
    </message>
    <message>
        <source>this computer&apos;s engine runs on the CPU only; a GPU run needs a GPU cluster</source>
        <translation>本机的引擎只能在 CPU 上运行；GPU 运行需要 GPU 集群</translation>
    </message>
    <message>
        <source>partition %1 has no GPUs</source>
        <translation>分区 %1 没有 GPU</translation>
    </message>
    <message>
        <source>%1 processes need %1 GPUs, a node has %2</source>
        <translation>%1 个进程需要 %1 个 GPU，一个节点只有 %2 个</translation>
    </message>
    <message>
        <source>No batch scheduler: nothing to show but the profile.</source>
        <translation>没有批处理调度器：除配置外没有可显示的内容。</translation>
    </message>
    <message>
        <source>no answer within %1 s</source>
        <translation>%1 秒内无应答</translation>
    </message>
    <message>
        <source>needs %1 MiB of GPU memory per process, the GPU has %2 MiB usable</source>
        <translation>每个进程需要 %1 MiB 显存，该 GPU 可用 %2 MiB</translation>
    </message>
    <message>
        <source>needs %1 MiB of GPU memory per process, the GPU (%3) has %2 MiB usable</source>
        <translation>每个进程需要 %1 MiB 显存，该 GPU（%3）可用 %2 MiB</translation>
    </message>
    <message>
        <source>A pipeline needs at least 2 stages and micro-batches that divide the batch (%1).</source>
        <translation>流水线至少需要 2 个阶段，且微批次数必须整除批大小（%1）。</translation>
    </message>
    <message>
        <source>The network has too few layers for %1 stages.</source>
        <translation>网络的层数太少，无法分成 %1 个阶段。</translation>
    </message>
    <message>
        <source>Stage %1: %2</source>
        <translation>阶段 %1：%2</translation>
    </message>
    <message>
        <source>%1 pipeline stages of %2 micro-batches: the step and memory are the pipeline model&apos;s (docs/planning.md)</source>
        <translation>%1 个流水线阶段、%2 个微批次：每步时间和内存来自流水线模型（docs/planning.md）</translation>
    </message>
</context>
<context>
    <name>diamond::app::ChunkStore</name>
    <message>
        <source>Cannot create the folder of %1.</source>
        <translation>无法创建 %1 所在的文件夹。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot store %1.</source>
        <translation>无法存储 %1。</translation>
    </message>
    <message>
        <source>%1: the name of &quot;%2&quot; cannot be stored (control characters or a backslash).</source>
        <translation>%1：无法存储名称“%2”（含控制字符或反斜杠）。</translation>
    </message>
    <message>
        <source>%1 holds no files.</source>
        <translation>%1 中没有文件。</translation>
    </message>
    <message>
        <source>%1 is neither a file nor a folder.</source>
        <translation>%1 既不是文件也不是文件夹。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>The chunk %1 is missing from %2 or has the wrong size.</source>
        <translation>块 %1 在 %2 中缺失或大小错误。</translation>
    </message>
    <message>
        <source>The chunk %1 in %2 is damaged (its SHA-256 differs).</source>
        <translation>%2 中的块 %1 已损坏（其 SHA-256 不符）。</translation>
    </message>
    <message>
        <source>Cannot rename %1 to %2.</source>
        <translation>无法将 %1 重命名为 %2。</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClassServerClient</name>
    <message>
        <source>%1 did not answer in time or sent more than 8 MiB.</source>
        <translation>%1 没有及时应答，或发送了超过 8 MiB 的数据。</translation>
    </message>
    <message>
        <source>Cannot reach %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <source>The class server answered %1: %2</source>
        <translation>课程服务器返回 %1：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http:// or https:// address.</source>
        <translation>“%1”不是 http:// 或 https:// 地址。</translation>
    </message>
    <message>
        <source>The token is empty: ask your instructor for yours (diamondctl user add).</source>
        <translation>令牌为空：请向老师索取你的令牌（diamondctl user add）。</translation>
    </message>
    <message>
        <source>The class server does not accept this token.</source>
        <translation>课程服务器不接受这个令牌。</translation>
    </message>
    <message>
        <source>%1 did not answer like a Diamond class server.</source>
        <translation>%1 的应答不像 Diamond 课程服务器。</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterClient</name>
    <message>
        <source>Running the checks on %1…</source>
        <translation>正在 %1 上运行检查…</translation>
    </message>
    <message>
        <source>Calibrating a node of %1…</source>
        <translation>正在校准 %1 的一个节点…</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterExecutor</name>
    <message>
        <source>Run %1 is already running.</source>
        <translation>运行 %1 已在运行中。</translation>
    </message>
    <message>
        <source>Cluster profile &apos;%1&apos; is invalid: %2</source>
        <translation>集群配置“%1”无效：%2</translation>
    </message>
    <message>
        <source>Cluster &apos;%1&apos; has no batch scheduler; Diamond runs jobs through Slurm or PBS.</source>
        <translation>集群“%1”没有批处理调度器；Diamond 通过 Slurm 或 PBS 运行作业。</translation>
    </message>
    <message>
        <source>%1 does not exist.</source>
        <translation>%1 不存在。</translation>
    </message>
    <message>
        <source>Run %1 is already followed.</source>
        <translation>运行 %1 已在跟踪中。</translation>
    </message>
    <message>
        <source>Run %1 was submitted to cluster &apos;%2&apos;, not &apos;%3&apos;.</source>
        <translation>运行 %1 已提交到集群“%2”，而不是“%3”。</translation>
    </message>
    <message>
        <source>Run %1: %2</source>
        <translation>运行 %1：%2</translation>
    </message>
    <message>
        <source>Run %1 has no readable record of its cluster job in %2.</source>
        <translation>运行 %1 在 %2 中没有可读的集群作业记录。</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterLink</name>
    <message>
        <source>Sign-in to cluster &apos;%1&apos; was cancelled; connect again from the Clusters page.</source>
        <translation>已取消登录集群“%1”；请在“集群”页面重新连接。</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterOverview</name>
    <message>
        <source>No batch scheduler: nothing to show but the profile.</source>
        <translation>没有批处理调度器：除配置外没有可显示的内容。</translation>
    </message>
    <message>
        <source>no answer for %1 s</source>
        <translation>%1 秒无应答</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterPromptBridge</name>
    <message>
        <source>Unknown host key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>Key passphrase</source>
        <translation>密钥口令</translation>
    </message>
    <message>
        <source>The passphrase was wrong. Try again.</source>
        <translation>口令错误，请重试。</translation>
    </message>
    <message>
        <source>Passphrase for %1:</source>
        <translation>%1 的口令：</translation>
    </message>
    <message>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <source>The password was wrong. Try again.</source>
        <translation>密码错误，请重试。</translation>
    </message>
    <message>
        <source>Password for %1:</source>
        <translation>%1 的密码：</translation>
    </message>
    <message>
        <source>Sign-in</source>
        <translation>登录</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterRun</name>
    <message>
        <source>job: expected an object</source>
        <translation>job：应为对象</translation>
    </message>
</context>
<context>
    <name>diamond::app::ClusterStore</name>
    <message>
        <source>A cluster profile named &apos;%1&apos; exists already.</source>
        <translation>名为“%1”的集群配置已存在。</translation>
    </message>
    <message>
        <source>Cannot store cluster profile &apos;%1&apos;: %2</source>
        <translation>无法保存集群配置“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot update cluster profile &apos;%1&apos;: %2</source>
        <translation>无法更新集群配置“%1”：%2</translation>
    </message>
    <message>
        <source>There is no cluster profile named &apos;%1&apos;.</source>
        <translation>不存在名为“%1”的集群配置。</translation>
    </message>
    <message>
        <source>Cannot delete cluster profile &apos;%1&apos;: %2</source>
        <translation>无法删除集群配置“%1”：%2</translation>
    </message>
    <message>
        <source>Cannot read cluster profiles: %1</source>
        <translation>无法读取集群配置：%1</translation>
    </message>
</context>
<context>
    <name>diamond::app::ContentManifest</name>
    <message>
        <source>The manifest&apos;s format is not %1.</source>
        <translation>清单的格式不是 %1。</translation>
    </message>
    <message>
        <source>The manifest&apos;s chunk_size %1 is outside 4096 … 1073741824.</source>
        <translation>清单的 chunk_size %1 超出 4096 … 1073741824。</translation>
    </message>
    <message>
        <source>unsafe path</source>
        <translation>不安全的路径</translation>
    </message>
    <message>
        <source>paths not sorted or repeated</source>
        <translation>路径未排序或重复</translation>
    </message>
    <message>
        <source>bad size</source>
        <translation>大小无效</translation>
    </message>
    <message>
        <source>bad sha256</source>
        <translation>sha256 无效</translation>
    </message>
    <message>
        <source>%1 chunks where its size needs %2</source>
        <translation>有 %1 个块，而其大小需要 %2 个</translation>
    </message>
    <message>
        <source>its only chunk&apos;s hash differs from the file&apos;s</source>
        <translation>其唯一块的哈希与文件的哈希不同</translation>
    </message>
    <message>
        <source>bad chunk hash</source>
        <translation>块哈希无效</translation>
    </message>
    <message>
        <source>The manifest&apos;s file &quot;%1&quot; is invalid: %2.</source>
        <translation>清单中的文件“%1”无效：%2。</translation>
    </message>
</context>
<context>
    <name>diamond::app::DatasetCacheCleaner</name>
    <message>
        <source>Cannot list the dataset cache on %1: %2</source>
        <translation>无法列出 %1 上的数据集缓存：%2</translation>
    </message>
    <message>
        <source>Not a staged version: &quot;%1&quot; (NAME/HASH16).</source>
        <translation>不是已暂存的版本：“%1”（名称/HASH16）。</translation>
    </message>
    <message>
        <source>Cannot clean the dataset cache on %1: %2</source>
        <translation>无法清理 %1 上的数据集缓存：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::DatasetStager</name>
    <message>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <source>Cannot find the home folder on %1: %2</source>
        <translation>无法找到 %1 上的主文件夹：%2</translation>
    </message>
    <message>
        <source>Staging %1 to %2 failed %3 times; last: %4</source>
        <translation>将 %1 暂存到 %2 失败了 %3 次；最后一次：%4</translation>
    </message>
    <message>
        <source>cannot list the cache %1: %2</source>
        <translation>无法列出缓存 %1：%2</translation>
    </message>
    <message>
        <source>a shard of %1 bytes did not arrive: %2</source>
        <translation>一个 %1 字节的分片未送达：%2</translation>
    </message>
    <message>
        <source>cannot assemble %1 in %2: %3</source>
        <translation>无法在 %2 中组装 %1：%3</translation>
    </message>
    <message>
        <source>cannot complete %1: %2</source>
        <translation>无法完成 %1：%2</translation>
    </message>
    <message>
        <source>Staging %1 did not converge.</source>
        <translation>暂存 %1 未能完成。</translation>
    </message>
    <message>
        <source>%1 did not arrive: %2</source>
        <translation>%1 未能送达：%2</translation>
    </message>
    <message>
        <source>a pack of %1 bytes arrived damaged (the host read %2)</source>
        <translation>一个 %1 字节的包到达时已损坏（主机读到 %2）</translation>
    </message>
    <message>
        <source>%1 files and %2 packs differed from their SHA-256 on the host</source>
        <translation>主机上有 %1 个文件和 %2 个包与其 SHA-256 不符</translation>
    </message>
</context>
<context>
    <name>diamond::app::DatasetStore</name>
    <message>
        <source>The stored manifest of %1 is unreadable: %2</source>
        <translation>%1 的已存储清单无法读取：%2</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid dataset name (letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;, at most 64, starting with a letter or digit).</source>
        <translation>“%1”不是有效的数据集名称（字母、数字、“.”、“_”和“-”，最多 64 个，以字母或数字开头）。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a dataset reference (NAME or NAME@VERSION).</source>
        <translation>“%1”不是数据集引用（名称 或 名称@版本）。</translation>
    </message>
    <message>
        <source>There is no dataset &quot;%1&quot; in this workspace.</source>
        <translation>此工作区中没有数据集“%1”。</translation>
    </message>
    <message>
        <source>The dataset &quot;%1&quot; has no version %2 (newest: %3).</source>
        <translation>数据集“%1”没有版本 %2（最新：%3）。</translation>
    </message>
    <message>
        <source>There is no dataset version %1.</source>
        <translation>没有数据集版本 %1。</translation>
    </message>
    <message>
        <source>Kept every stored chunk: a stored manifest is unreadable (%1).</source>
        <translation>保留了所有已存储的块：有一个已存储的清单无法读取（%1）。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>diamond::app::DeviceProfile</name>
    <message>
        <source>Not a device profile: &quot;format&quot; must be diamond.device-profile/1.</source>
        <translation>不是设备性能档案：“format” 必须是 diamond.device-profile/1。</translation>
    </message>
    <message>
        <source>The device profile has no &quot;linear&quot; timings.</source>
        <translation>设备性能档案中没有 “linear” 计时。</translation>
    </message>
    <message>
        <source>The device profile has no &quot;elementwise&quot; timing.</source>
        <translation>设备性能档案中没有 “elementwise” 计时。</translation>
    </message>
</context>
<context>
    <name>diamond::app::DeviceProfileStore</name>
    <message>
        <source>Not a profile name: &quot;%1&quot;.</source>
        <translation>不是有效的档案名：“%1”。</translation>
    </message>
    <message>
        <source>No device profile &quot;%1&quot; yet.</source>
        <translation>还没有设备性能档案 “%1”。</translation>
    </message>
    <message>
        <source>%1 is larger than a device profile can be (1 MiB).</source>
        <translation>%1 超过设备性能档案的大小上限（1 MiB）。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is not a JSON object: %2</source>
        <translation>%1 不是 JSON 对象：%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>Calibration took longer than %1 s and was stopped.</source>
        <translation>校准超过 %1 秒，已停止。</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>校准失败：%1</translation>
    </message>
    <message>
        <source>Calibration printed no profile: %1</source>
        <translation>校准未输出性能档案：%1</translation>
    </message>
</context>
<context>
    <name>diamond::app::EnginePlanJob</name>
    <message>
        <source> (node &apos;%1&apos;)</source>
        <translation>（节点“%1”）</translation>
    </message>
    <message>
        <source> (field &apos;%1&apos;)</source>
        <translation>（字段“%1”）</translation>
    </message>
    <message>
        <source>Cannot write the files for the dry run in %1.</source>
        <translation>无法在 %1 中写入试运行所需的文件。</translation>
    </message>
    <message>
        <source>Cannot start the engine %1: %2</source>
        <translation>无法启动引擎 %1：%2</translation>
    </message>
    <message>
        <source>The engine&apos;s dry run ended with exit code %1: %2</source>
        <translation>引擎试运行结束，退出码 %1：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::LessonProgressStore</name>
    <message>
        <source>Cannot save the start of lesson %1: %2</source>
        <translation>无法保存课程 %1 的开始：%2</translation>
    </message>
    <message>
        <source>Cannot read the progress of lesson %1: %2</source>
        <translation>无法读取课程 %1 的进度：%2</translation>
    </message>
    <message>
        <source>Cannot reset lesson %1: %2</source>
        <translation>无法重置课程 %1：%2</translation>
    </message>
    <message>
        <source>A step id is empty.</source>
        <translation>步骤 id 为空。</translation>
    </message>
    <message>
        <source>Cannot save step %1 of lesson %2: %3</source>
        <translation>无法保存课程 %2 的步骤 %1：%3</translation>
    </message>
    <message>
        <source>Cannot read the lesson progress: %1</source>
        <translation>无法读取课程进度：%1</translation>
    </message>
    <message>
        <source>Cannot record the activity %1: %2</source>
        <translation>无法记录活动 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read the learning activity: %1</source>
        <translation>无法读取学习活动：%1</translation>
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
    <name>diamond::app::PackingLocalExecutor</name>
    <message>
        <source>Run %1 is already running.</source>
        <translation>运行 %1 已在运行中。</translation>
    </message>
    <message>
        <source>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</source>
        <translation>找不到训练引擎 %1（请将 DIAMOND_TRAIN 设为其路径）。</translation>
    </message>
    <message>
        <source>Cannot write the trial pack file %1.</source>
        <translation>无法写入试验打包文件 %1。</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>Skipped: %1</source>
        <translation>已跳过：%1</translation>
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
    <message>
        <source>Run %1 is not running.</source>
        <translation>运行 %1 未在运行。</translation>
    </message>
    <message>
        <source>The dataset %1 of run %2 is no longer in this workspace.</source>
        <translation>运行 %2 的数据集 %1 已不在此工作区中。</translation>
    </message>
    <message>
        <source>Cannot prepare the dataset %1: %2</source>
        <translation>无法准备数据集 %1：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunPlanner</name>
    <message>
        <source>Measuring the number of processes trains on this computer: it is offered for runs on this computer only, not on %1.</source>
        <translation>测量进程数需要在本机上训练：只适用于在本机运行，不适用于 %1。</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunRecommender</name>
    <message>
        <source>No workspace is open.</source>
        <translation>未打开工作区。</translation>
    </message>
    <message>
        <source>Measuring this computer&apos;s speed for the first time (about 10 s)…</source>
        <translation>正在首次测量本机速度（约 10 秒）…</translation>
    </message>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>校准失败：%1</translation>
    </message>
    <message>
        <source>The processes are being measured already.</source>
        <translation>正在测量进程数。</translation>
    </message>
    <message>
        <source>Measuring the number of processes trains on this computer: it is offered for runs on this computer only.</source>
        <translation>测量进程数需要在本机上训练：只适用于在本机运行。</translation>
    </message>
</context>
<context>
    <name>diamond::app::RunService</name>
    <message>
        <source>The cluster did not cancel the job: %1</source>
        <translation>集群未取消该作业：%1</translation>
    </message>
    <message>
        <source>Unknown target &apos;%1&apos;: the workspace has no such cluster profile.</source>
        <translation>未知目标“%1”：工作区中没有此集群配置。</translation>
    </message>
    <message>
        <source>job: expected an object</source>
        <translation>job：应为对象</translation>
    </message>
    <message>
        <source>Cannot reach the job of run %1 to cancel it: %2</source>
        <translation>无法访问运行 %1 的作业以取消它：%2</translation>
    </message>
    <message>
        <source>Run %1 is still running.</source>
        <translation>运行 %1 仍在进行中。</translation>
    </message>
    <message>
        <source>Cannot follow the cluster job: %1</source>
        <translation>无法跟踪集群作业：%1</translation>
    </message>
    <message>
        <source>Run %1 is %2; cancel it before deleting it.</source>
        <translation>运行 %1 处于 %2 状态；请先取消再删除。</translation>
    </message>
    <message>
        <source>Sweep %1 is %2, not running.</source>
        <translation>超参数搜索 %1 处于 %2 状态，未在运行。</translation>
    </message>
    <message>
        <source>Sweep %1 is %2 and cannot be continued.</source>
        <translation>超参数搜索 %1 处于 %2 状态，无法继续。</translation>
    </message>
    <message>
        <source>Sweep %1 is being run by process %2.</source>
        <translation>超参数搜索 %1 正由进程 %2 运行。</translation>
    </message>
    <message>
        <source>Sweep %1 is %2 already.</source>
        <translation>超参数搜索 %1 已处于 %2 状态。</translation>
    </message>
    <message>
        <source>Run %1 did not run on a class server.</source>
        <translation>运行 %1 不是在课程服务器上运行的。</translation>
    </message>
    <message>
        <source>Only a finished run can be published.</source>
        <translation>只有已完成的运行才能发布。</translation>
    </message>
    <message>
        <source>Not signed in to the class server %1 (File &gt; Connect to class server).</source>
        <translation>尚未登录课程服务器 %1（文件 &gt; 连接课程服务器）。</translation>
    </message>
    <message>
        <source>The class server %1 has no cluster &apos;%2&apos;.</source>
        <translation>课程服务器 %1 没有集群“%2”。</translation>
    </message>
    <message>
        <source>Run %1 finished before it could move.</source>
        <translation>运行 %1 在迁移前已完成。</translation>
    </message>
    <message>
        <source>Run %1 is racing already.</source>
        <translation>运行 %1 已在竞速提交中。</translation>
    </message>
    <message>
        <source>Cluster &apos;%1&apos; has no batch scheduler to race on.</source>
        <translation>集群“%1”没有可用于竞速提交的批处理调度器。</translation>
    </message>
    <message>
        <source>Run %1 is already moving.</source>
        <translation>运行 %1 已在迁移中。</translation>
    </message>
    <message>
        <source>Run %1 is on %2 already.</source>
        <translation>运行 %1 已在 %2 上。</translation>
    </message>
    <message>
        <source>Runs on a class server stay on that server.</source>
        <translation>课堂服务器上的运行只能留在该服务器上。</translation>
    </message>
    <message>
        <source>Run %1 has finished; there is nothing to move.</source>
        <translation>运行 %1 已完成，无需迁移。</translation>
    </message>
    <message>
        <source>job: resources are for cluster targets, not &apos;%1&apos;.</source>
        <translation>job：资源设置只适用于集群目标，不适用于“%1”。</translation>
    </message>
    <message>
        <source>job: %1</source>
        <translation>job：%1</translation>
    </message>
    <message>
        <source>Moving to %1: stopping the run at a checkpoint.</source>
        <translation>正在迁移到 %1：在检查点处停止运行。</translation>
    </message>
    <message>
        <source>Moved from %1 to %2 before it started.</source>
        <translation>在开始前已从 %1 迁移到 %2。</translation>
    </message>
    <message>
        <source>Moved from %1 to %2; no checkpoint was saved, so it starts from the beginning there.</source>
        <translation>已从 %1 迁移到 %2；没有保存的检查点，将在那里从头开始。</translation>
    </message>
    <message>
        <source>Moved from %1 to %2; it continues there from checkpoint %3.</source>
        <translation>已从 %1 迁移到 %2；将在那里从检查点 %3 继续。</translation>
    </message>
    <message>
        <source>Run %1 could not continue on %2: %3</source>
        <translation>运行 %1 无法在 %2 上继续：%3</translation>
    </message>
    <message>
        <source>Run %1 is trial %2 of sweep %3, which places its trials itself (give the sweep several &quot;targets&quot; to spread them).</source>
        <translation>运行 %1 是扫描 %3 的试验 %2，由该扫描自行安排位置（可为扫描设置多个“targets”以分散试验）。</translation>
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
    <message>
        <source>Untitled network</source>
        <translation>未命名网络</translation>
    </message>
    <message>
        <source>Run %1 was deleted, but its folder %2 could not be removed completely.</source>
        <translation>运行 %1 已删除，但其文件夹 %2 未能完全删除。</translation>
    </message>
    <message>
        <source>data.dataset: %1</source>
        <translation>data.dataset：%1</translation>
    </message>
    <message>
        <source>data.path &quot;%1&quot; must be a relative path inside the dataset %2.</source>
        <translation>data.path "%1" 必须是数据集 %2 内的相对路径。</translation>
    </message>
</context>
<context>
    <name>diamond::app::ServerExecutor</name>
    <message>
        <source>Runs on a class server are resumed on the server (diamondctl or the REST API).</source>
        <translation>课程服务器上的运行需在服务器上继续（diamondctl 或 REST API）。</translation>
    </message>
    <message>
        <source>The class server did not return the new run.</source>
        <translation>课程服务器没有返回新的运行。</translation>
    </message>
    <message>
        <source>Run %1 was started on %2 as %3; sign in there to follow it.</source>
        <translation>运行 %1 是以 %3 的身份在 %2 上启动的；请登录那里以跟踪它。</translation>
    </message>
    <message>
        <source>%1 names no run.</source>
        <translation>%1 没有指明运行。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The run failed on the class server.</source>
        <translation>运行在课程服务器上失败了。</translation>
    </message>
    <message>
        <source>This run has no run on the class server (%1 is missing).</source>
        <translation>这次运行在课程服务器上没有对应的运行（缺少 %1）。</translation>
    </message>
    <message>
        <source>The class server does not let you publish yet; ask your instructor (diamondctl user update NAME --publish).</source>
        <translation>课程服务器尚不允许你发布；请询问老师（diamondctl user update NAME --publish）。</translation>
    </message>
    <message>
        <source>Run %1 is not running on the class server.</source>
        <translation>运行 %1 没有在课程服务器上运行。</translation>
    </message>
</context>
<context>
    <name>diamond::app::StartRace</name>
    <message>
        <source>Run %1 has started already; only a new run can race.</source>
        <translation>运行 %1 已经开始；只有新运行可以竞速提交。</translation>
    </message>
    <message>
        <source>A race needs at least two clusters.</source>
        <translation>竞速提交至少需要两个集群。</translation>
    </message>
    <message>
        <source>submitted to %1; the first to start keeps the run</source>
        <translation>已提交到 %1；最先开始的集群保留此运行</translation>
    </message>
    <message>
        <source>No cluster could take run %1: %2</source>
        <translation>没有集群能接收运行 %1：%2</translation>
    </message>
    <message>
        <source>the job ended before it started</source>
        <translation>作业在开始前已结束</translation>
    </message>
    <message>
        <source>%1 started first</source>
        <translation>%1 最先开始</translation>
    </message>
    <message>
        <source>Submitted to %1; %2 started first and keeps the run, the other jobs are cancelled.</source>
        <translation>已提交到 %1；%2 最先开始并保留此运行，其他作业已取消。</translation>
    </message>
    <message>
        <source>Cannot follow the job on %1: %2</source>
        <translation>无法跟踪 %1 上的作业：%2</translation>
    </message>
    <message>
        <source>cancelled before any cluster started it</source>
        <translation>在任何集群开始前已取消</translation>
    </message>
</context>
<context>
    <name>diamond::app::StepObservationStore</name>
    <message>
        <source>Cannot create %1.</source>
        <translation>无法创建 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>diamond::app::StoredArray</name>
    <message>
        <source>scalar</source>
        <translation>标量</translation>
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
    <name>diamond::app::gallery</name>
    <message>
        <source>cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>%1 is too short for a safetensors file</source>
        <translation>%1 太短，不是有效的 safetensors 文件</translation>
    </message>
    <message>
        <source>%1: the safetensors header runs past the end of the file</source>
        <translation>%1：safetensors 文件头超出了文件末尾</translation>
    </message>
    <message>
        <source>%1: the safetensors header is not a JSON object</source>
        <translation>%1：safetensors 文件头不是 JSON 对象</translation>
    </message>
    <message>
        <source>%1: tensor &quot;%2&quot; has bad data offsets</source>
        <translation>%1：张量“%2”的数据偏移无效</translation>
    </message>
    <message>
        <source>%1 is not a file</source>
        <translation>%1 不是文件</translation>
    </message>
    <message>
        <source>%1 is %2 bytes; packages may be at most %3 bytes</source>
        <translation>%1 大小为 %2 字节；模型包最多 %3 字节</translation>
    </message>
    <message>
        <source>%1 has no manifest.json</source>
        <translation>%1 中没有 manifest.json</translation>
    </message>
    <message>
        <source>%1: manifest.json is not a JSON object: %2</source>
        <translation>%1：manifest.json 不是 JSON 对象：%2</translation>
    </message>
    <message>
        <source>%1: unknown package format &quot;%2&quot; (this version reads %3)</source>
        <translation>%1：未知的模型包格式“%2”（此版本支持 %3）</translation>
    </message>
    <message>
        <source>%1: manifest.json has no &quot;%2&quot;</source>
        <translation>%1：manifest.json 中没有“%2”</translation>
    </message>
    <message>
        <source>%1: manifest.json does not list %2</source>
        <translation>%1：manifest.json 未列出 %2</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is not listed in manifest.json</source>
        <translation>%1：“%2”未在 manifest.json 中列出</translation>
    </message>
    <message>
        <source>%1: &quot;%2&quot; is listed in manifest.json but missing</source>
        <translation>%1：“%2”已在 manifest.json 中列出，但文件缺失</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>%1: SHA-256 of &quot;%2&quot; is %3, the manifest says %4</source>
        <translation>%1：“%2”的 SHA-256 为 %3，清单中记录的是 %4</translation>
    </message>
    <message>
        <source>cannot create a temporary folder</source>
        <translation>无法创建临时文件夹</translation>
    </message>
    <message>
        <source>cannot run the engine %1: %2</source>
        <translation>无法运行引擎 %1：%2</translation>
    </message>
    <message>
        <source>the engine did not finish the test inputs in time</source>
        <translation>引擎未能按时处理完测试输入</translation>
    </message>
    <message>
        <source>the engine could not re-run the test inputs (`diamond-train predict`, exit code %1): %2</source>
        <translation>引擎无法重新运行测试输入（`diamond-train predict`，退出码 %1）：%2</translation>
    </message>
    <message>
        <source>the package has no expected outputs</source>
        <translation>模型包中没有预期输出</translation>
    </message>
    <message>
        <source>the engine produced no output &quot;%1&quot;</source>
        <translation>引擎没有产生输出“%1”</translation>
    </message>
    <message>
        <source>output &quot;%1&quot; differs in type or shape</source>
        <translation>输出“%1”的类型或形状不同</translation>
    </message>
    <message>
        <source>output &quot;%1&quot; differs</source>
        <translation>输出“%1”不一致</translation>
    </message>
    <message>
        <source>output &quot;%1&quot; element %2 is %3, expected %4 (tolerance %5 + %6 x |expected|)</source>
        <translation>输出“%1”的元素 %2 为 %3，预期为 %4（容差 %5 + %6 x |预期值|）</translation>
    </message>
    <message>
        <source>test outputs match (max abs diff %1)</source>
        <translation>测试输出一致（最大绝对误差 %1）</translation>
    </message>
    <message>
        <source>Trained in Diamond (project &quot;%1&quot;, run %2 &quot;%3&quot;), finished %4.

</source>
        <translation>在 Diamond 中训练（项目“%1”，运行 %2“%3”），完成于 %4。

</translation>
    </message>
    <message>
        <source>%1 `%2`: %3, shape %4</source>
        <translation>%1 `%2`：%3，形状 %4</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>接口</translation>
    </message>
    <message>
        <source>Input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>cannot sign the package</source>
        <translation>无法签名该包</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 is readable by other users; run chmod 600 on it</source>
        <translation>%1 可被其他用户读取；请对其运行 chmod 600</translation>
    </message>
    <message>
        <source>cannot read the publisher key %1</source>
        <translation>无法读取发布者密钥 %1</translation>
    </message>
    <message>
        <source>%1 is not an Ed25519 private key</source>
        <translation>%1 不是 Ed25519 私钥</translation>
    </message>
    <message>
        <source>cannot make a publisher key</source>
        <translation>无法生成发布者密钥</translation>
    </message>
    <message>
        <source>cannot write the publisher key %1</source>
        <translation>无法写入发布者密钥 %1</translation>
    </message>
    <message>
        <source>signature.json has an unknown format</source>
        <translation>signature.json 的格式未知</translation>
    </message>
    <message>
        <source>signature.json holds no Ed25519 key and signature</source>
        <translation>signature.json 中没有 Ed25519 密钥和签名</translation>
    </message>
    <message>
        <source>signature.json uses a weak Ed25519 key or signature</source>
        <translation>signature.json 使用了弱 Ed25519 密钥或签名</translation>
    </message>
    <message>
        <source>the signature does not match manifest.json: the package was changed after signing</source>
        <translation>签名与 manifest.json 不符：该包在签名后被修改过</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::GallerySource</name>
    <message>
        <source>Cannot open the workspace %1: %2</source>
        <translation>无法打开工作区 %1：%2</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::GalleryStore</name>
    <message>
        <source>no gallery entry %1</source>
        <translation>模型库中没有条目 %1</translation>
    </message>
    <message>
        <source>cannot create a folder in %1</source>
        <translation>无法在 %1 中创建文件夹</translation>
    </message>
    <message>
        <source>%1: spec.json is not a valid network spec: %2</source>
        <translation>%1：spec.json 不是有效的网络规格：%2</translation>
    </message>
    <message>
        <source>cannot copy %1 into the gallery (%2)</source>
        <translation>无法将 %1 复制到模型库（%2）</translation>
    </message>
    <message>
        <source>run %1 is %2; only finished runs can be published</source>
        <translation>运行 %1 处于 %2 状态；只能发布已完成的运行</translation>
    </message>
    <message>
        <source>the engine could not export run %1: %2</source>
        <translation>引擎无法导出运行 %1：%2</translation>
    </message>
    <message>
        <source>the engine&apos;s export has no %1</source>
        <translation>引擎的导出结果中没有 %1</translation>
    </message>
    <message>
        <source>already in the gallery (entry %1), consistent</source>
        <translation>已在模型库中（条目 %1），自洽</translation>
    </message>
    <message>
        <source>already in the gallery (entry %1), not consistent</source>
        <translation>已在模型库中（条目 %1），不自洽</translation>
    </message>
    <message>
        <source>not an Ed25519 public key</source>
        <translation>不是 Ed25519 公钥</translation>
    </message>
    <message>
        <source>no trusted key %1</source>
        <translation>没有受信任的密钥 %1</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a dataset name</source>
        <translation>"%1" 不是数据集名称</translation>
    </message>
    <message>
        <source>its dataset was not registered: %1</source>
        <translation>其数据集未注册：%1</translation>
    </message>
    <message>
        <source>its dataset was not registered: the manifest does not match its SHA-256</source>
        <translation>其数据集未注册：清单与其 SHA-256 不符</translation>
    </message>
    <message>
        <source>its dataset was not registered: larger than a package may ship</source>
        <translation>其数据集未注册：超过模型包可携带的大小</translation>
    </message>
    <message>
        <source>its dataset is registered already as %1</source>
        <translation>其数据集已注册为 %1</translation>
    </message>
    <message>
        <source>its dataset was not registered: cannot create a folder in %1</source>
        <translation>其数据集未注册：无法在 %1 中创建文件夹</translation>
    </message>
    <message>
        <source>its dataset was not registered: the package lacks the content of %1</source>
        <translation>其数据集未注册：模型包缺少 %1 的内容</translation>
    </message>
    <message>
        <source>its dataset was not registered: cannot write %1</source>
        <translation>其数据集未注册：无法写入 %1</translation>
    </message>
    <message>
        <source>gallery package %1 %2</source>
        <translation>模型库包 %1 %2</translation>
    </message>
    <message>
        <source>its dataset is registered as %1</source>
        <translation>其数据集已注册为 %1</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::LocalGallerySource</name>
    <message>
        <source>This workspace</source>
        <translation>此工作区</translation>
    </message>
    <message>
        <source>The package file of gallery entry %1 is missing.</source>
        <translation>模型库条目 %1 的模型包文件缺失。</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::RemoteGallerySource</name>
    <message>
        <source>Cannot reach the gallery &quot;%1&quot; at %2: %3</source>
        <translation>无法连接到位于 %2 的模型库“%1”：%3</translation>
    </message>
    <message>
        <source>The gallery &quot;%1&quot; refused the token (HTTP 401): check the token of this source.</source>
        <translation>模型库“%1”拒绝了令牌（HTTP 401）：请检查此来源的令牌。</translation>
    </message>
    <message>
        <source>The gallery &quot;%1&quot; answered HTTP %2 (%3): %4</source>
        <translation>模型库“%1”返回 HTTP %2（%3）：%4</translation>
    </message>
    <message>
        <source>The gallery &quot;%1&quot; answered HTTP %2: %3</source>
        <translation>模型库“%1”返回 HTTP %2：%3</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http:// or https:// address.</source>
        <translation>“%1”不是 http:// 或 https:// 地址。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>The package from &quot;%1&quot; arrived damaged (SHA-256 %2, expected %3).</source>
        <translation>来自“%1”的模型包已损坏（SHA-256 为 %2，预期为 %3）。</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::ZipReader</name>
    <message>
        <source>%1 holds two entries with the same name</source>
        <translation>%1 包含两个同名条目</translation>
    </message>
    <message>
        <source>%1 is an inconsistent zip archive (duplicate or mismatched entries): %2</source>
        <translation>%1 是不一致的 zip 归档（条目重复或不匹配）：%2</translation>
    </message>
    <message>
        <source>%1 is not a readable zip archive: %2</source>
        <translation>%1 不是可读取的 zip 归档：%2</translation>
    </message>
    <message>
        <source>%1 holds %2 entries; a package may hold at most %3</source>
        <translation>%1 包含 %2 个条目；一个模型包最多包含 %3 个</translation>
    </message>
    <message>
        <source>%1: cannot read entry %2</source>
        <translation>%1：无法读取条目 %2</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; has an absolute path</source>
        <translation>%1：条目“%2”使用了绝对路径</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; leaves the package folder (&quot;..&quot;)</source>
        <translation>%1：条目“%2”超出了模型包文件夹（".."）</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is a symbolic link</source>
        <translation>%1：条目“%2”是符号链接</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is not a regular file</source>
        <translation>%1：条目“%2”不是普通文件</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is not a plain file name (letters, digits, &apos;.&apos;, &apos;_&apos;, &apos;-&apos;)</source>
        <translation>%1：条目“%2”不是简单文件名（只能包含字母、数字、'.'、'_'、'-'）</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; appears twice</source>
        <translation>%1：条目“%2”出现了两次</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is %3 bytes; the limit for it is %4 bytes</source>
        <translation>%1：条目“%2”大小为 %3 字节；其上限为 %4 字节</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; expands more than 1000-fold (zip bomb?)</source>
        <translation>%1：条目“%2”解压后膨胀超过 1000 倍（zip 炸弹？）</translation>
    </message>
    <message>
        <source>%1: no entry &quot;%2&quot;</source>
        <translation>%1：没有条目“%2”</translation>
    </message>
    <message>
        <source>%1: cannot open entry &quot;%2&quot;: %3</source>
        <translation>%1：无法打开条目“%2”：%3</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is damaged: %3</source>
        <translation>%1：条目“%2”已损坏：%3</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is longer than declared</source>
        <translation>%1：条目“%2”比声明的长</translation>
    </message>
    <message>
        <source>%1: entry &quot;%2&quot; is shorter than declared</source>
        <translation>%1：条目“%2”比声明的短</translation>
    </message>
</context>
<context>
    <name>diamond::app::gallery::ZipWriter</name>
    <message>
        <source>cannot create %1 (libzip error %2)</source>
        <translation>无法创建 %1（libzip 错误 %2）</translation>
    </message>
    <message>
        <source>cannot add %1 to %2: %3</source>
        <translation>无法将 %1 添加到 %2：%3</translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>cannot rename %1 to %2</source>
        <translation>无法将 %1 重命名为 %2</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep</name>
    <message>
        <source>parameter &apos;%1&apos;: run-config field &apos;%2&apos; is not an object, so &apos;%3&apos; cannot be set</source>
        <translation>参数“%1”：运行配置字段“%2”不是对象，因此无法设置“%3”</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: &apos;%2&apos; of node &apos;%3&apos; is not an object</source>
        <translation>参数“%1”：节点“%3”的“%2”不是对象</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: the spec has no node &apos;%2&apos; (target &apos;%3&apos;)</source>
        <translation>参数“%1”：规格中没有节点“%2”（目标“%3”）</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: neither the spec nor the run config contains the placeholder &quot;%2&quot;</source>
        <translation>参数“%1”：规格和运行配置中都不包含占位符“%2”</translation>
    </message>
    <message>
        <source>%1: cannot read %2: %3</source>
        <translation>%1：无法读取 %2：%3</translation>
    </message>
    <message>
        <source>%1: %2 is not a JSON object: %3</source>
        <translation>%1：%2 不是 JSON 对象：%3</translation>
    </message>
    <message>
        <source>%1%2: unknown field (known: %3)</source>
        <translation>%1%2：未知字段（已知字段：%3）</translation>
    </message>
    <message>
        <source>%1%2: must be %3 &gt;= %4</source>
        <translation>%1%2：必须是 &gt;= %4 的%3</translation>
    </message>
    <message>
        <source>an integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>%1: unreachable</source>
        <translation>%1：无法连接</translation>
    </message>
    <message>
        <source>%1: full (%2 of %3 in flight)</source>
        <translation>%1：已满（%3 个中已有 %2 个在进行）</translation>
    </message>
    <message>
        <source>%1: finish in %2 s (queue %3 s + %4 s)</source>
        <translation>%1：%2 秒后完成（排队 %3 秒 + %4 秒）</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SearchSpace</name>
    <message>
        <source>space: must be a non-empty array of parameters</source>
        <translation>space：必须是非空的参数数组</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
    <message>
        <source>unknown field (known: %1)</source>
        <translation>未知字段（已知字段：%1）</translation>
    </message>
    <message>
        <source>required (a run-config path such as &quot;optimizer.lr&quot;, &quot;spec:&lt;node&gt;.&lt;param&gt;&quot; or &quot;template:&lt;name&gt;&quot;)</source>
        <translation>必填（运行配置路径，例如 "optimizer.lr"、"spec:&lt;node&gt;.&lt;param&gt;" 或 "template:&lt;name&gt;"）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is used twice</source>
        <translation>“%1”被使用了两次</translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be spec:&lt;node id&gt;.&lt;param&gt;</source>
        <translation>“%1”必须是 spec:&lt;node id&gt;.&lt;param&gt; 形式</translation>
    </message>
    <message>
        <source>&quot;%1&quot; needs a name</source>
        <translation>“%1”需要一个名称</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid field path</source>
        <translation>“%1”不是有效的字段路径</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a run-config field (known: %2)</source>
        <translation>“%1”不是运行配置字段（已知字段：%2）</translation>
    </message>
    <message>
        <source>a choice needs a non-empty array</source>
        <translation>choice 需要一个非空数组</translation>
    </message>
    <message>
        <source>required number</source>
        <translation>必填数值</translation>
    </message>
    <message>
        <source>an int parameter needs integer bounds</source>
        <translation>int 参数需要整数边界</translation>
    </message>
    <message>
        <source>must be greater than low (%1)</source>
        <translation>必须大于 low（%1）</translation>
    </message>
    <message>
        <source>must be &gt; 0 for a log-scale parameter</source>
        <translation>对数尺度参数必须 &gt; 0</translation>
    </message>
    <message>
        <source>only int parameters take &quot;log&quot; (use type log_uniform)</source>
        <translation>只有 int 参数接受 "log"（请使用类型 log_uniform）</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not one of choice, uniform, log_uniform, int</source>
        <translation>“%1”不是 choice、uniform、log_uniform、int 之一</translation>
    </message>
    <message>
        <source>must be a positive integer</source>
        <translation>必须是正整数</translation>
    </message>
    <message>
        <source>parameter &apos;%1&apos;: missing from the sample</source>
        <translation>参数“%1”：样本中缺失</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepAlgorithm</name>
    <message>
        <source>limits.max_trials: must be at least 1</source>
        <translation>limits.max_trials：至少为 1</translation>
    </message>
    <message>
        <source>limits.budget_per_trial: must be positive</source>
        <translation>limits.budget_per_trial：必须为正数</translation>
    </message>
    <message>
        <source>algorithm.gamma: must be in (0, 1)</source>
        <translation>algorithm.gamma：必须在 (0, 1) 之间</translation>
    </message>
    <message>
        <source>algorithm.candidates and algorithm.startup_trials: must be at least 1</source>
        <translation>algorithm.candidates 和 algorithm.startup_trials：至少为 1</translation>
    </message>
    <message>
        <source>algorithm.eta: must be an integer of at least 2</source>
        <translation>algorithm.eta：必须是不小于 2 的整数</translation>
    </message>
    <message>
        <source>algorithm.min_resource: must be positive and at most limits.budget_per_trial (%1)</source>
        <translation>algorithm.min_resource：必须为正数且不超过 limits.budget_per_trial（%1）</translation>
    </message>
    <message>
        <source>algorithm.name: &quot;%1&quot; is not one of grid, random, tpe, asha, hyperband</source>
        <translation>algorithm.name：“%1”不是 grid、random、tpe、asha、hyperband 之一</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepController</name>
    <message>
        <source>%1 [sweep %2, trial %3]</source>
        <translation>%1 [超参数搜索 %2，试验 %3]</translation>
    </message>
    <message>
        <source>Sweep %1 has an invalid stored definition: %2</source>
        <translation>超参数搜索 %1 存储的定义无效：%2</translation>
    </message>
    <message>
        <source>No sweep is loaded.</source>
        <translation>未加载超参数搜索。</translation>
    </message>
    <message>
        <source>Sweep %1 is %2.</source>
        <translation>超参数搜索 %1 处于 %2 状态。</translation>
    </message>
    <message>
        <source>Sweep %1 is being run by process %2.</source>
        <translation>超参数搜索 %1 正由进程 %2 运行。</translation>
    </message>
    <message>
        <source>stopped with the sweep</source>
        <translation>随超参数搜索一起停止</translation>
    </message>
    <message>
        <source>trial %1: %2</source>
        <translation>试验 %1：%2</translation>
    </message>
    <message>
        <source>The training engine %1 was not found (set DIAMOND_TRAIN to its path).</source>
        <translation>找不到训练引擎 %1（请将 DIAMOND_TRAIN 设为其路径）。</translation>
    </message>
    <message>
        <source>No trial %1 in sweep %2.</source>
        <translation>超参数搜索 %2 中没有试验 %1。</translation>
    </message>
    <message>
        <source>the run reported no %1 metric</source>
        <translation>该运行未报告 %1 指标</translation>
    </message>
    <message>
        <source>the run was marked finished outside the sweep</source>
        <translation>该运行在超参数搜索之外被标记为已完成</translation>
    </message>
    <message>
        <source>sweep: settled after a controller restart</source>
        <translation>超参数搜索：控制器重启后已确定状态</translation>
    </message>
    <message>
        <source>engine process lost</source>
        <translation>引擎进程丢失</translation>
    </message>
    <message>
        <source>target: the workspace has no cluster profile named &quot;%1&quot;</source>
        <translation>target：工作区中没有名为“%1”的集群配置</translation>
    </message>
    <message>
        <source>target &quot;%1&quot;: %2</source>
        <translation>target “%1”：%2</translation>
    </message>
    <message>
        <source>trial %1: every target is unreachable or full</source>
        <translation>试验 %1：所有目标都无法连接或已满</translation>
    </message>
    <message>
        <source>%1 could not take the trial&apos;s job (%2); it goes to another cluster</source>
        <translation>%1 无法接收该试验的作业（%2）；改投其他集群</translation>
    </message>
    <message>
        <source>%1 did not answer for %2 s (%3); the trial continues on another cluster</source>
        <translation>%1 已 %2 秒无应答（%3）；该试验在其他集群上继续</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepDefinition</name>
    <message>
        <source>format: must be &quot;%1&quot;</source>
        <translation>format：必须是 "%1"</translation>
    </message>
    <message>
        <source>name, project: must not be empty</source>
        <translation>name、project：不能为空</translation>
    </message>
    <message>
        <source>%1: required (a path relative to the sweep file, or an object)</source>
        <translation>%1：必填（相对于超参数搜索文件的路径，或一个对象）</translation>
    </message>
    <message>
        <source>objective: required object {&quot;metric&quot;, &quot;split&quot;, &quot;mode&quot;}</source>
        <translation>objective：必填对象 {"metric", "split", "mode"}</translation>
    </message>
    <message>
        <source>objective.metric: required (e.g. &quot;accuracy&quot; or &quot;loss&quot;)</source>
        <translation>objective.metric：必填（例如 "accuracy" 或 "loss"）</translation>
    </message>
    <message>
        <source>objective.split: must be &quot;val&quot; or &quot;train&quot;</source>
        <translation>objective.split：必须是 "val" 或 "train"</translation>
    </message>
    <message>
        <source>objective.mode: must be &quot;min&quot; or &quot;max&quot;</source>
        <translation>objective.mode：必须是 "min" 或 "max"</translation>
    </message>
    <message>
        <source>limits.budget_unit: must be &quot;epochs&quot; or &quot;steps&quot;</source>
        <translation>limits.budget_unit：必须是 "epochs" 或 "steps"</translation>
    </message>
    <message>
        <source>space[%1].target: %2 sets &quot;%3&quot;, which %4 controls as the trial budget</source>
        <translation>space[%1].target：%2 设置了 "%3"，但 %4 将其作为试验预算来控制</translation>
    </message>
    <message>
        <source>seed: must be a non-negative integer</source>
        <translation>seed：必须是非负整数</translation>
    </message>
    <message>
        <source>limits.packing: must be true or false</source>
        <translation>limits.packing：必须是 true 或 false</translation>
    </message>
    <message>
        <source>target: must be &quot;local&quot; or the name of a cluster profile of the workspace</source>
        <translation>target：必须是 "local" 或工作区中某个集群配置的名称</translation>
    </message>
    <message>
        <source>job: must be an object (partition, nodes, tasks_per_node, time_limit_minutes, ...)</source>
        <translation>job：必须是对象（partition、nodes、tasks_per_node、time_limit_minutes 等）</translation>
    </message>
    <message>
        <source>job: only for a cluster target (set &quot;target&quot; to a cluster profile)</source>
        <translation>job：仅适用于集群目标（请将 "target" 设为某个集群配置）</translation>
    </message>
    <message>
        <source>job: %1</source>
        <translation>job：%1</translation>
    </message>
    <message>
        <source>targets: &quot;target&quot; and &quot;targets&quot; exclude each other; list every cluster in &quot;targets&quot;</source>
        <translation>targets：“target”与“targets”不能同时使用；请在“targets”中列出所有集群</translation>
    </message>
    <message>
        <source>targets: must be a list of 1 to 64 cluster profile names</source>
        <translation>targets：必须是包含 1 到 64 个集群配置名称的列表</translation>
    </message>
    <message>
        <source>targets[%1]: must name a cluster profile of the workspace, each once (&quot;local&quot; is not one: trials of a multi-cluster sweep are batch jobs)</source>
        <translation>targets[%1]：必须是工作区中的集群配置名称，且每个只出现一次（“local”不是集群：多集群扫描的试验都是批处理作业）</translation>
    </message>
    <message>
        <source>target_jobs: an object of job resources by cluster name, with &quot;targets&quot;</source>
        <translation>target_jobs：按集群名称给出作业资源的对象，需与“targets”一起使用</translation>
    </message>
    <message>
        <source>target_jobs.%1: %2</source>
        <translation>target_jobs.%1：%2</translation>
    </message>
    <message>
        <source>not one of &quot;targets&quot;</source>
        <translation>不在“targets”中</translation>
    </message>
    <message>
        <source>must be an object</source>
        <translation>必须是对象</translation>
    </message>
</context>
<context>
    <name>diamond::app::sweep::SweepStore</name>
    <message>
        <source>Cannot create the sweep: %1</source>
        <translation>无法创建超参数搜索：%1</translation>
    </message>
    <message>
        <source>No sweep %1.</source>
        <translation>不存在超参数搜索 %1。</translation>
    </message>
    <message>
        <source>Cannot record trial %1 of sweep %2: %3</source>
        <translation>无法记录超参数搜索 %2 的试验 %1：%3</translation>
    </message>
    <message>
        <source>Cannot write the config of run %1: %2</source>
        <translation>无法写入运行 %1 的配置：%2</translation>
    </message>
</context>
<context>
    <name>diamond::gallery</name>
    <message>
        <source>the package is not signed</source>
        <translation>该包未签名</translation>
    </message>
</context>
<context>
    <name>diamond::remote</name>
    <message>
        <source>Cannot seek in %1</source>
        <translation>无法在 %1 中定位</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Transfer cancelled</source>
        <translation>传输已取消</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Command timed out after %1 ms</source>
        <translation>命令在 %1 毫秒后超时</translation>
    </message>
    <message>
        <source>Command crashed</source>
        <translation>命令崩溃</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>此计算机</translation>
    </message>
    <message>
        <source>ldd %1 failed: %2</source>
        <translation>ldd %1 失败：%2</translation>
    </message>
    <message>
        <source>%1 needs %2, which is not installed</source>
        <translation>%1 需要 %2，但它未安装</translation>
    </message>
    <message>
        <source>%1 is not a dynamically linked program</source>
        <translation>%1 不是动态链接的程序</translation>
    </message>
    <message>
        <source>The bundle folder %1 is not empty</source>
        <translation>打包文件夹 %1 不为空</translation>
    </message>
    <message>
        <source>Cannot create %1</source>
        <translation>无法创建 %1</translation>
    </message>
    <message>
        <source>Cannot copy %1 to %2</source>
        <translation>无法将 %1 复制到 %2</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>无法写入 %1</translation>
    </message>
    <message>
        <source>Cannot write the bundle manifest</source>
        <translation>无法写入打包清单</translation>
    </message>
    <message>
        <source>tar failed: %1</source>
        <translation>tar 失败：%1</translation>
    </message>
    <message>
        <source>%1: is required</source>
        <translation>%1：为必填项</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; must be an absolute path</source>
        <translation>%1：“%2”必须是绝对路径</translation>
    </message>
    <message>
        <source>%1: &apos;%2&apos; must not contain double quotes or line breaks</source>
        <translation>%1：“%2”不能包含双引号或换行</translation>
    </message>
    <message>
        <source>%1: expected a string</source>
        <translation>%1：应为字符串</translation>
    </message>
    <message>
        <source>%1: expected a whole number from 0</source>
        <translation>%1：应为不小于 0 的整数</translation>
    </message>
    <message>
        <source>%1: expected a list of strings</source>
        <translation>%1：应为字符串列表</translation>
    </message>
    <message>
        <source>%1: unknown field</source>
        <translation>%1：未知字段</translation>
    </message>
    <message>
        <source>job_name: &apos;%1&apos; must be 1-64 letters, digits, spaces, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;</source>
        <translation>job_name：“%1”必须由 1–64 个字母、数字、空格、“.”、“_”或“-”组成</translation>
    </message>
    <message>
        <source>partition: &apos;%1&apos; is not a partition name</source>
        <translation>partition：“%1”不是分区名称</translation>
    </message>
    <message>
        <source>account: &apos;%1&apos; is not an account name</source>
        <translation>account：“%1”不是账户名称</translation>
    </message>
    <message>
        <source>qos: &apos;%1&apos; is not a QOS name</source>
        <translation>qos：“%1”不是 QOS 名称</translation>
    </message>
    <message>
        <source>nodes: %1 is not from 1 to 100000</source>
        <translation>nodes：%1 不在 1 到 100000 之间</translation>
    </message>
    <message>
        <source>tasks_per_node: %1 is not from 1 to 1024</source>
        <translation>tasks_per_node：%1 不在 1 到 1024 之间</translation>
    </message>
    <message>
        <source>gpus_per_node: %1 is not from 0 to 1024</source>
        <translation>gpus_per_node：%1 不在 0 到 1024 之间</translation>
    </message>
    <message>
        <source>gpu_type: &apos;%1&apos; is not a GPU type</source>
        <translation>gpu_type：“%1”不是 GPU 类型</translation>
    </message>
    <message>
        <source>cpus_per_task: %1 is not from 0 to 4096</source>
        <translation>cpus_per_task：%1 不在 0 到 4096 之间</translation>
    </message>
    <message>
        <source>memory: &apos;%1&apos; is not a size like 4000M or 16G</source>
        <translation>memory：“%1”不是 4000M 或 16G 这样的大小</translation>
    </message>
    <message>
        <source>time_limit: must not be negative</source>
        <translation>time_limit：不能为负数</translation>
    </message>
    <message>
        <source>signal_seconds: %1 is not from 0 to 65535</source>
        <translation>signal_seconds：%1 不在 0 到 65535 之间</translation>
    </message>
    <message>
        <source>signal_seconds: %1 s is not shorter than the time limit (%2 min)</source>
        <translation>signal_seconds：%1 秒不短于时间限制（%2 分钟）</translation>
    </message>
    <message>
        <source>engine.path: is required</source>
        <translation>engine.path：为必填项</translation>
    </message>
    <message>
        <source>array: &apos;%1&apos; is not an index list like 0-9 or 1,3,5%2</source>
        <translation>array：“%1”不是 0-9 或 1,3,5 这样的索引列表%2</translation>
    </message>
    <message>
        <source>dependency[%1]: &apos;%2&apos; is not a job id</source>
        <translation>dependency[%1]：“%2”不是作业 ID</translation>
    </message>
    <message>
        <source>environment.%1: is not a valid variable name</source>
        <translation>environment.%1：不是有效的变量名</translation>
    </message>
    <message>
        <source>extra_directives[%1]: &apos;%2&apos; must be one option starting with &apos;-&apos;</source>
        <translation>extra_directives[%1]：“%2”必须是以“-”开头的单个选项</translation>
    </message>
    <message>
        <source>container.image: is required with a container runtime</source>
        <translation>container.image：使用容器运行时时为必填项</translation>
    </message>
    <message>
        <source>nodes: PBS jobs run on one node (the engine&apos;s --nproc starts the ranks)</source>
        <translation>nodes：PBS 作业在单个节点上运行（由引擎的 --nproc 启动各进程）</translation>
    </message>
    <message>
        <source>signal_seconds: PBS has no pre-timeout signal; the engine checkpoints on the walltime TERM</source>
        <translation>signal_seconds：PBS 没有超时前信号；引擎会在到达运行时限的 TERM 信号时保存检查点</translation>
    </message>
    <message>
        <source>The input of the command was stopped</source>
        <translation>命令的输入已被中止</translation>
    </message>
    <message>
        <source>chain_jobs: %1 is not from 1 to %2</source>
        <translation>chain_jobs：%1 不在 1 到 %2 之间</translation>
    </message>
    <message>
        <source>nodes, tasks_per_node: a job step command runs one task on one node</source>
        <translation>nodes, tasks_per_node：作业步命令只在一个节点上运行一个任务</translation>
    </message>
    <message>
        <source>tasks_per_node: %1 processes per node on %2 GPU(s) per node: each process of a cuda run takes a GPU of its own</source>
        <translation>tasks_per_node：每个节点 %1 个进程，但每个节点只有 %2 个 GPU：cuda 运行的每个进程都独占一个 GPU</translation>
    </message>
</context>
<context>
    <name>diamond::remote::ClusterProfile</name>
    <message>
        <source>name: &apos;%1&apos; must be 1-64 letters, digits, &apos;.&apos;, &apos;_&apos; or &apos;-&apos;, starting with a letter or digit</source>
        <translation>name：“%1”必须由 1–64 个字母、数字、“.”、“_”或“-”组成，并以字母或数字开头</translation>
    </message>
    <message>
        <source>host: is required</source>
        <translation>host：为必填项</translation>
    </message>
    <message>
        <source>host: &apos;%1&apos; is not a host name or address</source>
        <translation>host：“%1”不是主机名或地址</translation>
    </message>
    <message>
        <source>port: %1 is not from 1 to 65535</source>
        <translation>port：%1 不在 1 到 65535 之间</translation>
    </message>
    <message>
        <source>user: &apos;%1&apos; is not a user name</source>
        <translation>user：“%1”不是用户名</translation>
    </message>
    <message>
        <source>scratch_dir: is required (the run folders on the cluster go there)</source>
        <translation>scratch_dir：为必填项（集群上的运行文件夹存放于此）</translation>
    </message>
    <message>
        <source>scratch_dir: &apos;%1&apos; must be an absolute path</source>
        <translation>scratch_dir：“%1”必须是绝对路径</translation>
    </message>
    <message>
        <source>engine_path: is required (diamond-train on the cluster)</source>
        <translation>engine_path：为必填项（集群上的 diamond-train）</translation>
    </message>
    <message>
        <source>account: &apos;%1&apos; must not contain spaces</source>
        <translation>account：“%1”不能包含空格</translation>
    </message>
    <message>
        <source>partitions[%1].name: &apos;%2&apos; is not a partition name</source>
        <translation>partitions[%1].name：“%2”不是分区名称</translation>
    </message>
    <message>
        <source>partitions[%1].name: &apos;%2&apos; is listed twice</source>
        <translation>partitions[%1].name：“%2”出现了两次</translation>
    </message>
    <message>
        <source>partitions[%1].gpus_per_node: must not be negative</source>
        <translation>partitions[%1].gpus_per_node：不能为负数</translation>
    </message>
    <message>
        <source>partitions[%1].cpus_per_node: must not be negative</source>
        <translation>partitions[%1].cpus_per_node：不能为负数</translation>
    </message>
    <message>
        <source>partitions[%1].memory_mb: must not be negative</source>
        <translation>partitions[%1].memory_mb：不能为负数</translation>
    </message>
    <message>
        <source>partitions[%1].max_walltime_minutes: must not be negative</source>
        <translation>partitions[%1].max_walltime_minutes：不能为负数</translation>
    </message>
    <message>
        <source>partitions: more than one partition is marked default</source>
        <translation>partitions：有多个分区被标记为默认</translation>
    </message>
    <message>
        <source>modules[%1]: &apos;%2&apos; is not a module name</source>
        <translation>modules[%1]：“%2”不是模块名称</translation>
    </message>
    <message>
        <source>container.image: is required when container.runtime is %1</source>
        <translation>container.image：当 container.runtime 为 %1 时为必填项</translation>
    </message>
    <message>
        <source>environment.%1: is not a valid variable name</source>
        <translation>environment.%1：不是有效的变量名</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not one of %2</source>
        <translation>“%1”不是 %2 之一</translation>
    </message>
    <message>
        <source>expected a list of objects</source>
        <translation>应为对象列表</translation>
    </message>
    <message>
        <source>expected an object</source>
        <translation>应为对象</translation>
    </message>
    <message>
        <source>expected an object of strings</source>
        <translation>应为值均为字符串的对象</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>应为字符串</translation>
    </message>
    <message>
        <source>container.command: &apos;%1&apos; is not a program name or an absolute path</source>
        <translation>container.command：“%1”不是程序名或绝对路径</translation>
    </message>
    <message>
        <source>gpu_directive: &apos;%1&apos; is not gpus-per-node or gres</source>
        <translation>gpu_directive：“%1”不是 gpus-per-node 或 gres</translation>
    </message>
</context>
<context>
    <name>diamond::remote::PbsScheduler</name>
    <message>
        <source>qsub printed no job id: %1</source>
        <translation>qsub 未输出作业 ID：%1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a PBS job id</source>
        <translation>“%1”不是 PBS 作业 ID</translation>
    </message>
</context>
<context>
    <name>diamond::remote::Reader</name>
    <message>
        <source>unknown field (known: %1)</source>
        <translation>未知字段（已知字段：%1）</translation>
    </message>
    <message>
        <source>is required</source>
        <translation>为必填项</translation>
    </message>
    <message>
        <source>expected a string</source>
        <translation>应为字符串</translation>
    </message>
    <message>
        <source>must not be empty</source>
        <translation>不能为空</translation>
    </message>
    <message>
        <source>expected a whole number from %1 to %2</source>
        <translation>应为 %1 到 %2 之间的整数</translation>
    </message>
    <message>
        <source>expected true or false</source>
        <translation>应为 true 或 false</translation>
    </message>
    <message>
        <source>expected a list of strings</source>
        <translation>应为字符串列表</translation>
    </message>
</context>
<context>
    <name>diamond::remote::Scheduler</name>
    <message>
        <source>exit code %1</source>
        <translation>退出码 %1</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>The %1 scheduler gives no start-time estimate for a job not yet submitted.</source>
        <translation>%1 调度器无法为尚未提交的作业估计开始时间。</translation>
    </message>
    <message>
        <source>The %1 scheduler&apos;s load is not read.</source>
        <translation>不读取 %1 调度器的负载。</translation>
    </message>
    <message>
        <source>The %1 scheduler reports no fair share.</source>
        <translation>%1 调度器不报告公平份额。</translation>
    </message>
</context>
<context>
    <name>diamond::remote::SlurmScheduler</name>
    <message>
        <source>sbatch printed no job id: %1</source>
        <translation>sbatch 未输出作业 ID：%1</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a Slurm job id</source>
        <translation>“%1”不是 Slurm 作业 ID</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a valid value for %2</source>
        <translation>“%1”不是 %2 的有效值</translation>
    </message>
    <message>
        <source>The job&apos;s nodes, tasks, CPUs, GPUs or time limit are out of range.</source>
        <translation>作业的节点数、任务数、CPU、GPU 或时间限制超出范围。</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a GPU type</source>
        <translation>“%1”不是 GPU 类型</translation>
    </message>
    <message>
        <source>sbatch --test-only failed: %1</source>
        <translation>sbatch --test-only 失败：%1</translation>
    </message>
    <message>
        <source>sbatch --test-only printed no start time: %1</source>
        <translation>sbatch --test-only 没有给出开始时间：%1</translation>
    </message>
    <message>
        <source>This cluster keeps no fair-share accounting (sshare is empty).</source>
        <translation>此集群没有公平份额记账（sshare 为空）。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::AddRemoteDialog</name>
    <message>
        <source>Add a remote gallery</source>
        <translation>添加远程模型库</translation>
    </message>
    <message>
        <source>A remote gallery is a workspace served with &lt;code&gt;diamondctl serve&lt;/code&gt;. Its owner gives you the address and the token (&lt;code&gt;diamondctl serve --print-token&lt;/code&gt;).</source>
        <translation>远程模型库是通过 &lt;code&gt;diamondctl serve&lt;/code&gt; 提供服务的工作区。其所有者会告诉你地址和令牌（&lt;code&gt;diamondctl serve --print-token&lt;/code&gt;）。</translation>
    </message>
    <message>
        <source>Lab server</source>
        <translation>实验室服务器</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>令牌(&amp;T)：</translation>
    </message>
    <message>
        <source>The address must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8765.</source>
        <translation>地址必须是带主机名的 http:// 或 https:// URL，例如 http://127.0.0.1:8765。</translation>
    </message>
    <message>
        <source>The token is required: every request to a Diamond server carries it.</source>
        <translation>令牌为必填项：发往 Diamond 服务器的每个请求都会携带它。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ClusterManagerPage</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>取消作业</translation>
    </message>
    <message>
        <source>Refresh every 10 s</source>
        <translation>每 10 s 刷新一次</translation>
    </message>
    <message>
        <source>Cancel the job %1?</source>
        <translation>要取消作业 %1 吗？</translation>
    </message>
    <message>
        <source>Testing the connection to %1…</source>
        <translation>正在测试到 %1 的连接…</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Scheduler</source>
        <translation>调度器</translation>
    </message>
    <message>
        <source>Scratch folder</source>
        <translation>临时文件夹</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
    </message>
    <message>
        <source>Container</source>
        <translation>容器</translation>
    </message>
    <message numerus="yes">
        <source>Connection OK: all %n check(s) passed.</source>
        <translation><numerusform>连接正常：全部 %n 项检查均已通过。</numerusform></translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation>连接失败：%1</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n check(s) failed.</source>
        <translation><numerusform>%n 项检查中有 %1 项失败。</numerusform></translation>
    </message>
    <message>
        <source>Host key changed</source>
        <translation>主机密钥已更改</translation>
    </message>
    <message>
        <source>The host key of %1 does not match the one remembered in the known hosts file. Diamond refused to connect: someone may be intercepting the connection, or the cluster&apos;s key was changed. Check with the cluster&apos;s administrators, then remove the old key from the known hosts file.</source>
        <translation>%1 的主机密钥与 known hosts 文件中记录的不一致。Diamond 已拒绝连接：可能有人在拦截连接，或者集群的密钥已更改。请向集群管理员核实，然后从 known hosts 文件中删除旧密钥。</translation>
    </message>
    <message>
        <source>The scheduler is &quot;none&quot;: there are no partitions to probe.</source>
        <translation>调度器为 "none"：没有可探测的分区。</translation>
    </message>
    <message>
        <source>Probing the partitions of %1…</source>
        <translation>正在探测 %1 的分区…</translation>
    </message>
    <message numerus="yes">
        <source>Found %n partition(s). Save to keep them.</source>
        <translation><numerusform>找到 %n 个分区。保存后即可保留。</numerusform></translation>
    </message>
    <message>
        <source>Probe failed: %1</source>
        <translation>探测失败：%1</translation>
    </message>
    <message>
        <source>Cannot list jobs: %1</source>
        <translation>无法列出作业：%1</translation>
    </message>
    <message>
        <source>This cluster has no batch scheduler: there is no job queue.</source>
        <translation>此集群没有批处理调度器：没有作业队列。</translation>
    </message>
    <message>
        <source>Refreshing the jobs of %1…</source>
        <translation>正在刷新 %1 的作业…</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) queued or running — updated %1.</source>
        <translation><numerusform>%n 个作业正在排队或运行 — 更新于 %1。</numerusform></translation>
    </message>
    <message>
        <source>Cancelling the job %1…</source>
        <translation>正在取消作业 %1…</translation>
    </message>
    <message>
        <source>Job cancelled.</source>
        <translation>作业已取消。</translation>
    </message>
    <message>
        <source>Cancel failed: %1</source>
        <translation>取消失败：%1</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Duplicate</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Start a new cluster profile</source>
        <translation>新建集群配置</translation>
    </message>
    <message>
        <source>Start a new profile from a copy of this one</source>
        <translation>以此配置的副本新建配置</translation>
    </message>
    <message>
        <source>Remove this profile from the workspace</source>
        <translation>从工作区中移除此配置</translation>
    </message>
    <message>
        <source>e.g. hpc</source>
        <translation>例如 hpc</translation>
    </message>
    <message>
        <source>login.cluster.example, or &quot;local&quot; for this computer</source>
        <translation>login.cluster.example，或填 "local" 表示此计算机</translation>
    </message>
    <message>
        <source>your user name on the cluster</source>
        <translation>你在集群上的用户名</translation>
    </message>
    <message>
        <source>~/.ssh/id_ed25519 (empty: ssh-agent)</source>
        <translation>~/.ssh/id_ed25519（留空：使用 ssh-agent）</translation>
    </message>
    <message>
        <source>empty: ~/.ssh/known_hosts</source>
        <translation>留空：~/.ssh/known_hosts</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Identity file</source>
        <translation>身份文件</translation>
    </message>
    <message>
        <source>Known hosts file</source>
        <translation>known hosts 文件</translation>
    </message>
    <message>
        <source>Deployment</source>
        <translation>部署</translation>
    </message>
    <message>
        <source>/scratch/you/diamond</source>
        <translation>/scratch/you/diamond</translation>
    </message>
    <message>
        <source>path of diamond-train on the cluster</source>
        <translation>集群上 diamond-train 的路径</translation>
    </message>
    <message>
        <source>cuda/12.1, nccl (comma separated)</source>
        <translation>cuda/12.1, nccl（以逗号分隔）</translation>
    </message>
    <message>
        <source>none (bare engine)</source>
        <translation>无（直接使用引擎）</translation>
    </message>
    <message>
        <source>.sif path or image reference</source>
        <translation>.sif 路径或镜像引用</translation>
    </message>
    <message>
        <source>extra runtime arguments, space separated</source>
        <translation>额外的运行时参数，以空格分隔</translation>
    </message>
    <message>
        <source>NAME=value, one per line</source>
        <translation>NAME=value，每行一个</translation>
    </message>
    <message>
        <source>Engine path</source>
        <translation>引擎路径</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Container runtime</source>
        <translation>容器运行时</translation>
    </message>
    <message>
        <source>Container image</source>
        <translation>容器镜像</translation>
    </message>
    <message>
        <source>Container options</source>
        <translation>容器选项</translation>
    </message>
    <message>
        <source>Environment</source>
        <translation>环境变量</translation>
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
        <translation>无（直接运行）</translation>
    </message>
    <message>
        <source>project to charge (optional)</source>
        <translation>计费项目（可选）</translation>
    </message>
    <message>
        <source>Account</source>
        <translation>账户</translation>
    </message>
    <message>
        <source>Partitions</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>Add partition</source>
        <translation>添加分区</translation>
    </message>
    <message>
        <source>Remove partition</source>
        <translation>移除分区</translation>
    </message>
    <message>
        <source>Probe partitions</source>
        <translation>探测分区</translation>
    </message>
    <message>
        <source>Read the partitions from the scheduler (sinfo / scontrol, qstat)</source>
        <translation>从调度器读取分区（sinfo / scontrol、qstat）</translation>
    </message>
    <message>
        <source>Connection test</source>
        <translation>连接测试</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查项</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>测试连接</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Cannot open the workspace %1: %2</source>
        <translation>无法打开工作区 %1：%2</translation>
    </message>
    <message>
        <source>environment: line %1 (&quot;%2&quot;) is not NAME=value</source>
        <translation>environment：第 %1 行（"%2"）不是 NAME=value 格式</translation>
    </message>
    <message>
        <source>New cluster (not saved)</source>
        <translation>新集群（未保存）</translation>
    </message>
    <message>
        <source>New cluster (copy, not saved)</source>
        <translation>新集群（副本，未保存）</translation>
    </message>
    <message>
        <source>Remove cluster</source>
        <translation>移除集群</translation>
    </message>
    <message>
        <source>Remove the cluster profile &quot;%1&quot; from this workspace?
Runs already sent to it are kept.</source>
        <translation>要从此工作区中移除集群配置“%1”吗？
已发送到该集群的运行将会保留。</translation>
    </message>
    <message>
        <source>Removed the cluster &quot;%1&quot;.</source>
        <translation>已移除集群“%1”。</translation>
    </message>
    <message>
        <source>No workspace is open: the profile cannot be stored.</source>
        <translation>未打开工作区：无法保存配置。</translation>
    </message>
    <message>
        <source>Saved the cluster &quot;%1&quot;.</source>
        <translation>已保存集群“%1”。</translation>
    </message>
    <message>
        <source>Cannot save: %1</source>
        <translation>无法保存：%1</translation>
    </message>
    <message>
        <source>%1 (modified)</source>
        <translation>%1（已修改）</translation>
    </message>
    <message>
        <source>Save the profile before calibrating it.</source>
        <translation>请先保存配置再进行校准。</translation>
    </message>
    <message>
        <source>Calibration runs as a Slurm job step; this cluster&apos;s scheduler is not Slurm.</source>
        <translation>校准以 Slurm 作业步运行；此集群的调度器不是 Slurm。</translation>
    </message>
    <message>
        <source>Calibrating a node of %1&apos;s default partition…</source>
        <translation>正在校准 %1 默认分区的一个节点…</translation>
    </message>
    <message>
        <source>Calibrating a node of partition %1…</source>
        <translation>正在校准分区 %1 的一个节点…</translation>
    </message>
    <message>
        <source>Calibration failed: %1</source>
        <translation>校准失败：%1</translation>
    </message>
    <message>
        <source>Calibrated node %1 in %2 s; plans for this cluster now use it (saved as %3).</source>
        <translation>已在 %2 秒内校准节点 %1；此集群的计划现在会使用它（保存为 %3）。</translation>
    </message>
    <message>
        <source>The calibration could not be saved: %1</source>
        <translation>无法保存校准结果：%1</translation>
    </message>
    <message>
        <source>Calibrate</source>
        <translation>校准</translation>
    </message>
    <message>
        <source>Measure a node of the selected partition (a short srun job, about a minute) so that plans predict step times there</source>
        <translation>测量所选分区的一个节点（一个简短的 srun 作业，约一分钟），让计划能预测那里的每步耗时</translation>
    </message>
    <message>
        <source>Save the profile before deploying the engine.</source>
        <translation>请先保存配置，再部署引擎。</translation>
    </message>
    <message>
        <source>Building an engine image on %1…</source>
        <translation>正在 %1 上构建引擎镜像…</translation>
    </message>
    <message>
        <source>Copying this computer&apos;s engine to %1…</source>
        <translation>正在将本机的引擎复制到 %1…</translation>
    </message>
    <message>
        <source>Deploying the engine failed: %1</source>
        <translation>部署引擎失败：%1</translation>
    </message>
    <message>
        <source>The engine was deployed, but the profile could not be saved: %1</source>
        <translation>引擎已部署，但无法保存配置：%1</translation>
    </message>
    <message>
        <source>no workspace</source>
        <translation>没有工作区</translation>
    </message>
    <message>
        <source>Engine deployed in %1 s (%2 MB sent); this profile now uses it.</source>
        <translation>引擎已在 %1 秒内部署（发送 %2 MB）；此配置现在使用它。</translation>
    </message>
    <message>
        <source>empty: the runtime&apos;s name on PATH</source>
        <translation>留空：使用 PATH 中的运行时名称</translation>
    </message>
    <message>
        <source>Container program</source>
        <translation>容器程序</translation>
    </message>
    <message>
        <source>Deploy engine</source>
        <translation>部署引擎</translation>
    </message>
    <message>
        <source>Put a working diamond-train on the cluster and use it in this profile</source>
        <translation>在集群上放置可用的 diamond-train，并在此配置中使用它</translation>
    </message>
    <message>
        <source>Copy this computer&apos;s engine (CPU nodes)</source>
        <translation>复制本机的引擎（CPU 节点）</translation>
    </message>
    <message>
        <source>The engine and its libraries go into the scratch folder (about 200 MB)</source>
        <translation>引擎及其库放入暂存文件夹（约 200 MB）</translation>
    </message>
    <message>
        <source>Build an Apptainer image there (GPU nodes)</source>
        <translation>在那里构建 Apptainer 镜像（GPU 节点）</translation>
    </message>
    <message>
        <source>Built from source against PyTorch with CUDA, as a job on the selected partition</source>
        <translation>针对带 CUDA 的 PyTorch 从源代码构建，作为所选分区上的一个作业</translation>
    </message>
    <message>
        <source>--gpus-per-node (Slurm 19.05 and later)</source>
        <translation>--gpus-per-node（Slurm 19.05 及以后）</translation>
    </message>
    <message>
        <source>--gres=gpu (older sites)</source>
        <translation>--gres=gpu（较旧的站点）</translation>
    </message>
    <message>
        <source>GPU request</source>
        <translation>GPU 申请方式</translation>
    </message>
    <message>
        <source>All clusters</source>
        <translation>所有集群</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ClusterOverviewView</name>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Nodes idle / allocated</source>
        <translation>节点 空闲 / 已分配</translation>
    </message>
    <message>
        <source>CPUs in use</source>
        <translation>使用中的 CPU</translation>
    </message>
    <message>
        <source>Your jobs</source>
        <translation>您的作业</translation>
    </message>
    <message>
        <source>Fair share</source>
        <translation>公平份额</translation>
    </message>
    <message>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <source>Problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>&amp;Refresh all</source>
        <translation>全部刷新(&amp;R)</translation>
    </message>
    <message>
        <source>Read every cluster now (also every 30 s while this tab is shown)</source>
        <translation>立即读取每个集群（显示此标签页时也每 30 秒读取一次）</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n cluster(s)…</source>
        <translation><numerusform>正在读取 %n 个集群…</numerusform></translation>
    </message>
    <message>
        <source>reachable</source>
        <translation>可连接</translation>
    </message>
    <message>
        <source>reading…</source>
        <translation>读取中…</translation>
    </message>
    <message>
        <source>stale</source>
        <translation>过时</translation>
    </message>
    <message>
        <source>unreachable</source>
        <translation>无法连接</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>%1 / %2 of %3</source>
        <translation>%1 / %2，共 %3</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
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
        <translation>%1 %2（%3）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>not reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>%1 reachable, %2 stale, %3 reading</source>
        <translation>%1 个可连接，%2 个过时，%3 个读取中</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ClusterProfilesModel</name>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ComparePage</name>
    <message>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>对数坐标(&amp;L)</translation>
    </message>
    <message numerus="yes">
        <source>Loading %n run(s)…</source>
        <translation><numerusform>正在加载 %n 个运行…</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n run(s)</source>
        <translation><numerusform>%n 个运行</numerusform></translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
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
        <translation>GPU（CUDA）</translation>
    </message>
    <message>
        <source>On a GPU every process takes one GPU of its node</source>
        <translation>在 GPU 上，每个进程占用其节点的一个 GPU</translation>
    </message>
    <message>
        <source>De&amp;vice:</source>
        <translation>设备(&amp;V)：</translation>
    </message>
    <message>
        <source>fp32 (full precision)</source>
        <translation>fp32（全精度）</translation>
    </message>
    <message>
        <source>bf16 (mixed precision)</source>
        <translation>bf16（混合精度）</translation>
    </message>
    <message>
        <source>fp16 (mixed precision, GPU only)</source>
        <translation>fp16（混合精度，仅限 GPU）</translation>
    </message>
    <message>
        <source>Mixed precision computes layers in 16 bits (faster, less memory); the weights stay 32-bit</source>
        <translation>混合精度以 16 位计算各层（更快、更省内存）；权重仍为 32 位</translation>
    </message>
    <message>
        <source>Nodes of the job; the processes run on each of them</source>
        <translation>作业的节点数；进程在每个节点上运行</translation>
    </message>
    <message>
        <source>N&amp;odes:</source>
        <translation>节点数(&amp;O)：</translation>
    </message>
    <message>
        <source>one per process</source>
        <translation>每个进程一个</translation>
    </message>
    <message>
        <source>&amp;GPUs per node:</source>
        <translation>每节点 GPU 数(&amp;G)：</translation>
    </message>
    <message>
        <source>any</source>
        <translation>任意</translation>
    </message>
    <message>
        <source>Precisio&amp;n:</source>
        <translation>精度(&amp;N)：</translation>
    </message>
    <message>
        <source>GPU t&amp;ype:</source>
        <translation>GPU 类型(&amp;Y)：</translation>
    </message>
    <message>
        <source>Recompute every layer in backward</source>
        <translation>在反向传播中重新计算每一层</translation>
    </message>
    <message>
        <source>Act&amp;ivations:</source>
        <translation>激活值(&amp;I)：</translation>
    </message>
    <message>
        <source>Nothing: each process holds all of it</source>
        <translation>不拆分：每个进程各持有全部</translation>
    </message>
    <message>
        <source>The optimizer state</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <source>The optimizer state and the gradients</source>
        <translation>优化器状态和梯度</translation>
    </message>
    <message>
        <source>Every process keeps the whole optimizer state and all gradients (data parallel).</source>
        <translation>每个进程都保存完整的优化器状态和全部梯度（数据并行）。</translation>
    </message>
    <message>
        <source>Each process keeps only its share of the optimizer&apos;s state (ZeRO stage 1): Adam needs half the memory for it with 2 processes, a quarter with 4. Each step also gathers the updated weights.</source>
        <translation>每个进程只保存自己那一份优化器状态（ZeRO 第 1 阶段）：2 个进程时 Adam 的这部分内存减半，4 个进程时为四分之一。每一步还会汇集更新后的权重。</translation>
    </message>
    <message>
        <source>Each process also keeps only the gradients of its share (ZeRO stage 2): with Adam and 2 processes about half of what the optimizer state and the gradients take otherwise, for no more traffic between the processes.</source>
        <translation>每个进程还只保存自己那一份的梯度（ZeRO 第 2 阶段）：使用 Adam 和 2 个进程时，优化器状态与梯度约占原来的一半，进程间通信量不增加。</translation>
    </message>
    <message>
        <source>What the processes split between them instead of each holding all of it. The weights trained are the same either way.</source>
        <translation>各进程分摊而不是各自完整持有的内容。无论哪种方式，训练出的权重都相同。</translation>
    </message>
    <message>
        <source>Split (&amp;ZeRO):</source>
        <translation>拆分（&amp;ZeRO）：</translation>
    </message>
    <message>
        <source>Keep them (only layers marked ↻ recompute)</source>
        <translation>保留（仅标记 ↻ 的层重新计算）</translation>
    </message>
    <message>
        <source>Recompute what a memory budget needs</source>
        <translation>按内存预算重新计算所需的层</translation>
    </message>
    <message>
        <source>Keep them all (ignore the ↻ marks)</source>
        <translation>全部保留（忽略 ↻ 标记）</translation>
    </message>
    <message>
        <source>Recomputed layers keep almost none of their intermediate values for the backward pass and compute them again there (activation checkpointing): less memory for more time. The weights are the same either way.</source>
        <translation>重新计算的层几乎不为反向传播保留中间值，而是在反向传播时再算一遍（激活检查点）：用更多时间换更少内存。两种方式训练出的权重相同。</translation>
    </message>
    <message>
        <source>The layers that save the most memory for the least computation, until the activations of one process fit the budget below</source>
        <translation>以最少的计算节省最多内存的那些层，直到单个进程的激活值不超过下面的预算</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>The most the activations of one process may take (estimated)</source>
        <translation>单个进程的激活值最多可占用的内存（估计值）</translation>
    </message>
    <message>
        <source>Activation b&amp;udget:</source>
        <translation>激活值预算(&amp;U)：</translation>
    </message>
    <message>
        <source>Each trains on part of every batch</source>
        <translation>各自训练每个批次的一部分</translation>
    </message>
    <message>
        <source>Each holds a stage of the network</source>
        <translation>各自持有网络的一个阶段</translation>
    </message>
    <message>
        <source>Data parallel: every process holds the whole network and trains on its share of each batch; their gradients are averaged.</source>
        <translation>数据并行：每个进程持有整个网络，训练每个批次中属于自己的那一份；它们的梯度取平均。</translation>
    </message>
    <message>
        <source>Pipeline: the network is cut into consecutive stages, one per process, so that each holds only its stage&apos;s weights and optimizer state; each batch flows through them in micro-batches. For networks too large for one process.</source>
        <translation>流水线：网络被切分为连续的阶段，每个进程一个，各自只持有本阶段的权重和优化器状态；每个批次以微批次的形式依次流经各阶段。适用于单个进程放不下的网络。</translation>
    </message>
    <message>
        <source>How the processes share the training. The weights trained are the same either way (a pipeline&apos;s are those of one process adding up the micro-batches).</source>
        <translation>各进程如何分担训练。两种方式训练出的权重相同（流水线的权重等同于单个进程累加各微批次所得）。</translation>
    </message>
    <message>
        <source>Processes wor&amp;k as:</source>
        <translation>进程工作方式(&amp;K)：</translation>
    </message>
    <message>
        <source>Each batch is cut into this many micro-batches that follow each other through the stages; more keep the stages busier, fewer make each larger. Must divide the batch size. The cut balances the stages&apos; computation.</source>
        <translation>每个批次被切成这么多个微批次，依次流经各阶段；越多各阶段越忙碌，越少每个微批次越大。必须整除批大小。切分点会使各阶段的计算量均衡。</translation>
    </message>
    <message>
        <source>Micro-batc&amp;hes:</source>
        <translation>微批次(&amp;H)：</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ConfusionMatrixView</name>
    <message>
        <source>Rows: true class; columns: predicted class. Colour: share of the row.</source>
        <translation>行：真实类别；列：预测类别。颜色：占该行的比例。</translation>
    </message>
    <message>
        <source>The confusion matrix appears when the run is evaluated.</source>
        <translation>运行完成评估后将显示混淆矩阵。</translation>
    </message>
    <message>
        <source>true</source>
        <translation>真实</translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ConnectServerDialog</name>
    <message>
        <source>Connect to a class server</source>
        <translation>连接课程服务器</translation>
    </message>
    <message>
        <source>Train on your course&apos;s server: the runs go there, the curves come back here. Your instructor gives you the address and your token.</source>
        <translation>在课程服务器上训练：运行在那里进行，曲线回到这里显示。老师会给你地址和令牌。</translation>
    </message>
    <message>
        <source>the token diamondctl user add printed for you</source>
        <translation>diamondctl user add 为你打印的令牌</translation>
    </message>
    <message>
        <source>&amp;Address:</source>
        <translation>地址(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>令牌(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <source>Signed in as %1 (%2).</source>
        <translation>已登录为 %1（%2）。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::CurveChart</name>
    <message>
        <source>debiased EMA smoothing, weight %1</source>
        <translation>去偏 EMA 平滑，权重 %1</translation>
    </message>
</context>
<context>
    <name>diamond::ui::DatasetPreviewWidget</name>
    <message>
        <source>Loading preview…</source>
        <translation>正在加载预览…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::DatasetsPage</name>
    <message>
        <source>Hashing %1 of %2…</source>
        <translation>正在计算哈希：%1 / %2…</translation>
    </message>
    <message>
        <source>Add &amp;file…</source>
        <translation>添加文件(&amp;F)…</translation>
    </message>
    <message>
        <source>Register a CSV, NumPy, HDF5 or IDX file (a new version when the name exists)</source>
        <translation>注册 CSV、NumPy、HDF5 或 IDX 文件（名称已存在时作为新版本）</translation>
    </message>
    <message>
        <source>Add f&amp;older…</source>
        <translation>添加文件夹(&amp;O)…</translation>
    </message>
    <message>
        <source>Register a folder, e.g. images in one sub-folder per class</source>
        <translation>注册一个文件夹，例如每个类别一个子文件夹的图像</translation>
    </message>
    <message>
        <source>&amp;New version…</source>
        <translation>新版本(&amp;N)…</translation>
    </message>
    <message>
        <source>Import a changed copy as the next version of the selected dataset; only changed content is stored</source>
        <translation>将修改后的副本导入为所选数据集的下一个版本；只存储变化的内容</translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation>删除(&amp;R)…</translation>
    </message>
    <message>
        <source>&amp;Use in run set-up</source>
        <translation>在运行设置中使用(&amp;U)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Version:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <source>Checks before training</source>
        <translation>训练前检查</translation>
    </message>
    <message>
        <source>Class balance</source>
        <translation>类别分布</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message numerus="yes">
        <source>%1
%2 · %3 · %n version(s)</source>
        <translation><numerusform>%1
%2 · %3 · %n 个版本</numerusform></translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>No dataset yet</source>
        <translation>尚无数据集</translation>
    </message>
    <message>
        <source>No workspace is open</source>
        <translation>未打开工作区</translation>
    </message>
    <message>
        <source>Add a file (CSV, NumPy, HDF5, IDX) or a folder of images in one sub-folder per class. Diamond keeps versions by content: a changed copy stores only what changed, and a cluster receives only what it does not hold yet.</source>
        <translation>添加一个文件（CSV、NumPy、HDF5、IDX）或每个类别一个子文件夹的图像文件夹。Diamond 按内容管理版本：修改后的副本只存储变化部分，集群只接收它尚未拥有的内容。</translation>
    </message>
    <message numerus="yes">
        <source>%1 · %2 rows · %n file(s) · %3 (%4 new in this version)
From %5, added by %6 on %7
Content SHA-256 %8</source>
        <translation><numerusform>%1 · %2 行 · %n 个文件 · %3（此版本新增 %4）
来源 %5，由 %6 于 %7 添加
内容 SHA-256 %8</numerusform></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Task: not inferred for this format.</source>
        <translation>任务：此格式无法推断。</translation>
    </message>
    <message>
        <source>Task: %1</source>
        <translation>任务：%1</translation>
    </message>
    <message numerus="yes">
        <source>classification, %n class(es)</source>
        <translation><numerusform>分类，%n 个类别</numerusform></translation>
    </message>
    <message>
        <source>regression</source>
        <translation>回归</translation>
    </message>
    <message>
        <source> · target column &apos;%1&apos;</source>
        <translation> · 目标列“%1”</translation>
    </message>
    <message>
        <source> · skip_rows %1</source>
        <translation> · skip_rows %1</translation>
    </message>
    <message>
        <source>✓ No problems found.</source>
        <translation>✓ 未发现问题。</translation>
    </message>
    <message>
        <source>New version of %1</source>
        <translation>%1 的新版本</translation>
    </message>
    <message>
        <source>Add a dataset</source>
        <translation>添加数据集</translation>
    </message>
    <message>
        <source>Data files (*.csv *.tsv *.csv.gz *.npy *.npz *.h5 *.hdf5 *-ubyte *.idx *.gz)</source>
        <translation>数据文件 (*.csv *.tsv *.csv.gz *.npy *.npz *.h5 *.hdf5 *-ubyte *.idx *.gz)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>Hashing %1…</source>
        <translation>正在计算 %1 的哈希…</translation>
    </message>
    <message>
        <source>%1 is unchanged; no new version.</source>
        <translation>%1 未改变；未创建新版本。</translation>
    </message>
    <message>
        <source>Added %1.</source>
        <translation>已添加 %1。</translation>
    </message>
    <message>
        <source>The dataset was not added: %1</source>
        <translation>数据集未添加：%1</translation>
    </message>
    <message>
        <source>Removed %1; %2 freed.</source>
        <translation>已删除 %1；释放了 %2。</translation>
    </message>
    <message>
        <source>Remove dataset</source>
        <translation>删除数据集</translation>
    </message>
    <message>
        <source>Remove %1 and all its versions? Runs keep their settings but can no longer be resumed from this dataset.</source>
        <translation>删除 %1 及其所有版本？运行会保留其设置，但无法再从此数据集恢复。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::DesignerPage</name>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Cannot read the template %1.</source>
        <translation>无法读取模板 %1。</translation>
    </message>
    <message>
        <source>Cannot save %1: %2</source>
        <translation>无法保存 %1：%2</translation>
    </message>
    <message>
        <source>There is nothing to export: the graph is empty.</source>
        <translation>没有可导出的内容：图为空。</translation>
    </message>
    <message>
        <source>Network diagram exported by Diamond</source>
        <translation>由 Diamond 导出的网络图</translation>
    </message>
    <message>
        <source>Cannot export %1: use a .png or .svg file name.</source>
        <translation>无法导出 %1：请使用 .png 或 .svg 文件名。</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Select the layers to recompute in backward.</source>
        <translation>请选择要在反向传播中重新计算的层。</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) keep their activations again.</source>
        <translation><numerusform>%n 个层重新保留其激活值。</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) recompute their activations in backward: less memory, more time.</source>
        <translation><numerusform>%n 个层在反向传播中重新计算激活值：内存更少，时间更长。</numerusform></translation>
    </message>
    <message>
        <source>The layers marked already fit that budget.</source>
        <translation>已标记的层已经满足该预算。</translation>
    </message>
    <message>
        <source>No layer needs recomputing for that budget; the marks are cleared.</source>
        <translation>该预算下无需重新计算任何层；标记已清除。</translation>
    </message>
    <message numerus="yes">
        <source>%n layer(s) recompute their activations in backward to fit the budget.</source>
        <translation><numerusform>%n 个层在反向传播中重新计算激活值，以满足预算。</numerusform></translation>
    </message>
    <message>
        <source>The network cannot be cut into %1 stages (too few layers, or errors to fix first).</source>
        <translation>无法将网络切分为 %1 个阶段（层数太少，或需先修正错误）。</translation>
    </message>
    <message>
        <source>%1 pipeline stages, cut where the computation balances. Select a layer and use Edit ▸ End the pipeline stage here to move a cut.</source>
        <translation>%1 个流水线阶段，在计算量均衡处切分。选中一层并使用“编辑 ▸ 在此结束流水线阶段”来移动切分点。</translation>
    </message>
    <message>
        <source>Pipeline stages hidden.</source>
        <translation>已隐藏流水线阶段。</translation>
    </message>
    <message>
        <source>Show the pipeline stages first (Edit ▸ Pipeline stages).</source>
        <translation>请先显示流水线阶段（编辑 ▸ 流水线阶段）。</translation>
    </message>
    <message>
        <source>Select one layer that does not already end its stage.</source>
        <translation>请选择一个尚未作为其阶段结尾的层。</translation>
    </message>
    <message>
        <source>The stage now ends at %1.</source>
        <translation>该阶段现在结束于 %1。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryCardDelegate</name>
    <message>
        <source>No preview</source>
        <translation>无预览</translation>
    </message>
    <message>
        <source>no metric</source>
        <translation>无指标</translation>
    </message>
    <message>
        <source>+%1</source>
        <translation>+%1</translation>
    </message>
    <message>
        <source>✓ Consistent</source>
        <translation>✓ 自洽</translation>
    </message>
    <message>
        <source>Not consistent</source>
        <translation>不自洽</translation>
    </message>
    <message>
        <source>✓ Trusted</source>
        <translation>✓ 受信任</translation>
    </message>
    <message>
        <source>Untrusted</source>
        <translation>不受信任</translation>
    </message>
    <message>
        <source>Unsigned</source>
        <translation>未签名</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryDetailView</name>
    <message>
        <source>&amp;Download and import</source>
        <translation>下载并导入(&amp;D)</translation>
    </message>
    <message>
        <source>Download the package, check it, re-run its test inputs and add it to this workspace</source>
        <translation>下载模型包，检查它，重新运行其测试输入，并将其添加到此工作区</translation>
    </message>
    <message>
        <source>&amp;Export package…</source>
        <translation>导出模型包(&amp;E)…</translation>
    </message>
    <message>
        <source>Open in &amp;designer</source>
        <translation>在设计器中打开(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Fine-tune…</source>
        <translation>微调(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <source>Model card</source>
        <translation>模型卡片</translation>
    </message>
    <message>
        <source>Interface and metrics</source>
        <translation>接口与指标</translation>
    </message>
    <message>
        <source>Provenance and files</source>
        <translation>来源与文件</translation>
    </message>
    <message>
        <source>Select a model to see its card.</source>
        <translation>选择一个模型以查看其卡片。</translation>
    </message>
    <message>
        <source>version %1</source>
        <translation>版本 %1</translation>
    </message>
    <message>
        <source>by %1</source>
        <translation>作者：%1</translation>
    </message>
    <message>
        <source>Tags: %1</source>
        <translation>标签：%1</translation>
    </message>
    <message>
        <source>*This model has no card.*</source>
        <translation>*此模型没有卡片。*</translation>
    </message>
    <message>
        <source>Import the model into this workspace first</source>
        <translation>请先将模型导入此工作区</translation>
    </message>
    <message>
        <source>Start a training run from these weights</source>
        <translation>从这些权重开始一次训练运行</translation>
    </message>
    <message>
        <source>The test inputs did not reproduce the stored outputs, or could not be re-run.</source>
        <translation>测试输入未能复现存储的输出，或无法重新运行。</translation>
    </message>
    <message>
        <source>none listed</source>
        <translation>未列出</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Axes</source>
        <translation>轴</translation>
    </message>
    <message>
        <source>Inputs</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>Outputs</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>none recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Training configuration</source>
        <translation>训练配置</translation>
    </message>
    <message>
        <source>Provenance</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>%1 (&quot;%2&quot;)</source>
        <translation>%1（“%2”）</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Compute</source>
        <translation>计算量</translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Machine</source>
        <translation>机器</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>引擎</translation>
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
        <translation>发布时间</translation>
    </message>
    <message>
        <source>Citation</source>
        <translation>引用</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>参考</translation>
    </message>
    <message>
        <source>SHA-256 of the file</source>
        <translation>文件的 SHA-256</translation>
    </message>
    <message>
        <source>SHA-256 of the data configuration</source>
        <translation>数据配置的 SHA-256</translation>
    </message>
    <message>
        <source>Files (SHA-256)</source>
        <translation>文件（SHA-256）</translation>
    </message>
    <message>
        <source>Package</source>
        <translation>模型包</translation>
    </message>
    <message>
        <source>%1 minutes</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 seconds</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Link not opened</source>
        <translation>未打开链接</translation>
    </message>
    <message>
        <source>The model card links to

%1

Diamond opens only web links (http, https) from model cards.</source>
        <translation>模型卡片链接到

%1

Diamond 只打开模型卡片中的网页链接（http、https）。</translation>
    </message>
    <message>
        <source>Open link</source>
        <translation>打开链接</translation>
    </message>
    <message>
        <source>Open this address from the model card in your browser?

%1</source>
        <translation>在浏览器中打开模型卡片中的这个地址吗？

%1</translation>
    </message>
    <message>
        <source>Stop &amp;trusting</source>
        <translation>停止信任(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Trust this publisher</source>
        <translation>信任此发布者(&amp;T)</translation>
    </message>
    <message>
        <source>Remove %1&apos;s key from this gallery&apos;s trust list</source>
        <translation>从此模型库的信任列表中移除 %1 的密钥</translation>
    </message>
    <message>
        <source>Add %1&apos;s key (%2) to this gallery&apos;s trust list</source>
        <translation>将 %1 的密钥（%2）加入此模型库的信任列表</translation>
    </message>
    <message>
        <source>✓ Consistent</source>
        <translation>✓ 自洽</translation>
    </message>
    <message>
        <source>Not consistent</source>
        <translation>不自洽</translation>
    </message>
    <message>
        <source>The test inputs were re-run through the engine and reproduce the outputs stored in the package. This shows the package agrees with itself, not who made it: see the signature.</source>
        <translation>测试输入已由引擎重新运行，并复现了包中保存的输出。这只说明该包自身一致，并不说明是谁制作的：请查看签名。</translation>
    </message>
    <message>
        <source>Unsigned: nothing says who made this package.</source>
        <translation>未签名：无法得知是谁制作了这个包。</translation>
    </message>
    <message>
        <source>✓ Signed by %1, a publisher you trust (key %2)</source>
        <translation>✓ 由 %1 签名，是您信任的发布者（密钥 %2）</translation>
    </message>
    <message>
        <source>Key %1</source>
        <translation>密钥 %1</translation>
    </message>
    <message>
        <source>Signed by &quot;%1&quot;, not on your trust list (key %2)</source>
        <translation>由“%1”签名，不在您的信任列表中（密钥 %2）</translation>
    </message>
    <message>
        <source>Key %1
Anyone can sign with any name. Trust the key only if its owner gave you the same fingerprint (diamondctl gallery key prints it).</source>
        <translation>密钥 %1
任何人都可以用任意名字签名。只有当密钥的主人给您的指纹与此相同时才信任它（diamondctl gallery key 会打印指纹）。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryModel</name>
    <message>
        <source>%1 %</source>
        <translation>%1%</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>Consistent: its test inputs reproduce its expected outputs</source>
        <translation>自洽：其测试输入复现了预期输出</translation>
    </message>
    <message>
        <source>Not consistent: its test inputs did not reproduce its outputs</source>
        <translation>不自洽：其测试输入未能复现其输出</translation>
    </message>
    <message>
        <source>Unsigned: nothing says who made it</source>
        <translation>未签名：无法得知是谁制作的</translation>
    </message>
    <message>
        <source>Signed by %1, a publisher you trust</source>
        <translation>由 %1 签名，是您信任的发布者</translation>
    </message>
    <message>
        <source>Signed by %1, not on your trust list</source>
        <translation>由 %1 签名，不在您的信任列表中</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GalleryPage</name>
    <message>
        <source>Cannot create a temporary folder.</source>
        <translation>无法创建临时文件夹。</translation>
    </message>
    <message>
        <source>The package was refused (%1): %2</source>
        <translation>模型包被拒绝（%1）：%2</translation>
    </message>
    <message>
        <source>The package&apos;s spec.json is not a JSON object.</source>
        <translation>模型包的 spec.json 不是 JSON 对象。</translation>
    </message>
    <message>
        <source>%1
No token stored: add the gallery again with its token.</source>
        <translation>%1
未存储令牌：请使用其令牌重新添加该模型库。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Galleries&lt;/b&gt;</source>
        <translation>&lt;b&gt;模型库&lt;/b&gt;</translation>
    </message>
    <message>
        <source>&amp;Add remote…</source>
        <translation>添加远程模型库(&amp;A)…</translation>
    </message>
    <message>
        <source>Browse a gallery served by another Diamond (diamondctl serve)</source>
        <translation>浏览由另一个 Diamond 提供服务的模型库（diamondctl serve）</translation>
    </message>
    <message>
        <source>Forget remote</source>
        <translation>移除远程模型库</translation>
    </message>
    <message>
        <source>This workspace</source>
        <translation>此工作区</translation>
    </message>
    <message>
        <source>Search names, cards and tags…</source>
        <translation>搜索名称、卡片和标签…</translation>
    </message>
    <message>
        <source>Best match</source>
        <translation>最佳匹配</translation>
    </message>
    <message>
        <source>Highest metric</source>
        <translation>指标最高</translation>
    </message>
    <message>
        <source>Lowest metric</source>
        <translation>指标最低</translation>
    </message>
    <message>
        <source>Newest</source>
        <translation>最新</translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation>最旧</translation>
    </message>
    <message>
        <source>Name A–Z</source>
        <translation>名称 A–Z</translation>
    </message>
    <message>
        <source>Name Z–A</source>
        <translation>名称 Z–A</translation>
    </message>
    <message>
        <source>Sort:</source>
        <translation>排序：</translation>
    </message>
    <message>
        <source>Any task</source>
        <translation>任意任务</translation>
    </message>
    <message>
        <source>Any domain</source>
        <translation>任意领域</translation>
    </message>
    <message>
        <source>Any license</source>
        <translation>任意许可证</translation>
    </message>
    <message>
        <source>&amp;Import package…</source>
        <translation>导入模型包(&amp;I)…</translation>
    </message>
    <message>
        <source>Add a .diamond file to this workspace&apos;s gallery</source>
        <translation>将 .diamond 文件添加到此工作区的模型库</translation>
    </message>
    <message>
        <source>Forget remote gallery</source>
        <translation>移除远程模型库</translation>
    </message>
    <message>
        <source>Forget the gallery &quot;%1&quot; and its token?</source>
        <translation>要移除模型库“%1”及其令牌吗？</translation>
    </message>
    <message>
        <source>Import a model package</source>
        <translation>导入模型包</translation>
    </message>
    <message>
        <source>Diamond model packages (*.diamond)</source>
        <translation>Diamond 模型包 (*.diamond)</translation>
    </message>
    <message>
        <source>Export model package</source>
        <translation>导出模型包</translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n model(s)</source>
        <translation><numerusform>%1 / %n 个模型</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n model(s)</source>
        <translation><numerusform>%n 个模型</numerusform></translation>
    </message>
    <message>
        <source>Could not remove entry %1: %2</source>
        <translation>无法移除条目 %1：%2</translation>
    </message>
    <message>
        <source>Removed entry %1 from this workspace&apos;s gallery.</source>
        <translation>已从此工作区的模型库中移除条目 %1。</translation>
    </message>
    <message>
        <source>No workspace is open</source>
        <translation>未打开工作区</translation>
    </message>
    <message>
        <source>The token of &quot;%1&quot; is kept for this session only: %2</source>
        <translation>“%1”的令牌仅在本次会话中保留：%2</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>未打开工作区。</translation>
    </message>
    <message>
        <source>Open a workspace to import models into.</source>
        <translation>请打开一个工作区以导入模型。</translation>
    </message>
    <message>
        <source>Downloading… %p%</source>
        <translation>正在下载… %p%</translation>
    </message>
    <message>
        <source>Downloading the package from &quot;%1&quot;…</source>
        <translation>正在从“%1”下载模型包…</translation>
    </message>
    <message>
        <source>Downloaded %p%</source>
        <translation>已下载 %p%</translation>
    </message>
    <message>
        <source>Checking the package and re-running its test inputs…</source>
        <translation>正在检查模型包并重新运行其测试输入…</translation>
    </message>
    <message>
        <source>Importing %1: checking it and re-running its test inputs…</source>
        <translation>正在导入 %1：检查模型包并重新运行其测试输入…</translation>
    </message>
    <message>
        <source>Already in this workspace&apos;s gallery as entry %1 (%2).</source>
        <translation>已作为条目 %1 存在于此工作区的模型库中（%2）。</translation>
    </message>
    <message>
        <source>Exporting… %p%</source>
        <translation>正在导出… %p%</translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation>已导出到 %1。</translation>
    </message>
    <message>
        <source>Reading the spec from the package…</source>
        <translation>正在从模型包读取规格…</translation>
    </message>
    <message>
        <source>Opened &quot;%1&quot; in the designer.</source>
        <translation>已在设计器中打开“%1”。</translation>
    </message>
    <message>
        <source>Remove model</source>
        <translation>移除模型</translation>
    </message>
    <message>
        <source>Remove &quot;%1&quot; %2 from this workspace&apos;s gallery?</source>
        <translation>要从此工作区的模型库中移除“%1” %2 吗？</translation>
    </message>
    <message>
        <source>&amp;Consistent only</source>
        <translation>仅自洽(&amp;C)</translation>
    </message>
    <message>
        <source>Could not change the trust list: %1</source>
        <translation>无法更改信任列表：%1</translation>
    </message>
    <message>
        <source>The publisher of entry %1 is now on this gallery&apos;s trust list.</source>
        <translation>条目 %1 的发布者现已在此模型库的信任列表中。</translation>
    </message>
    <message>
        <source>The publisher of entry %1 is no longer trusted.</source>
        <translation>条目 %1 的发布者不再受信任。</translation>
    </message>
    <message>
        <source>Imported into this workspace as entry %1, consistent: %2</source>
        <translation>已作为条目 %1 导入此工作区，自洽：%2</translation>
    </message>
    <message>
        <source>Imported into this workspace as entry %1, NOT consistent: %2</source>
        <translation>已作为条目 %1 导入此工作区，不自洽：%2</translation>
    </message>
    <message>
        <source>Trust publisher</source>
        <translation>信任发布者</translation>
    </message>
    <message>
        <source>Stop trusting publisher</source>
        <translation>停止信任发布者</translation>
    </message>
    <message>
        <source>Trust every package signed with this key?

Name in the signature: %1
Key: %2

Anyone can sign with any name. Compare the key with the one its owner gave you (diamondctl gallery key prints it).</source>
        <translation>信任用此密钥签名的所有包吗？

签名中的名字：%1
密钥：%2

任何人都可以用任意名字签名。请将此密钥与其主人给您的密钥进行比对（diamondctl gallery key 会打印它）。</translation>
    </message>
    <message>
        <source>Stop trusting packages signed with this key?

Name in the signature: %1
Key: %2</source>
        <translation>停止信任用此密钥签名的包吗？

签名中的名字：%1
密钥：%2</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphDocument</name>
    <message>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>删除 %1</translation>
    </message>
    <message>
        <source>Set %1 of %2</source>
        <translation>设置 %2 的 %1</translation>
    </message>
    <message numerus="yes">
        <source>Move %n node(s)</source>
        <translation><numerusform>移动 %n 个节点</numerusform></translation>
    </message>
    <message>
        <source>Rename %1 to %2</source>
        <translation>将 %1 重命名为 %2</translation>
    </message>
    <message>
        <source>line %1, column %2: </source>
        <translation>第 %1 行，第 %2 列：</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is used twice; ids must be unique.</source>
        <translation>id“%1”被使用了两次；id 必须唯一。</translation>
    </message>
    <message>
        <source>The output &quot;%1&quot; is not connected.</source>
        <translation>输出“%1”未连接。</translation>
    </message>
    <message>
        <source>Drag from a layer&apos;s output port to this output.</source>
        <translation>请从某一层的输出端口拖动到此输出。</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n node(s)</source>
        <translation><numerusform>删除 %n 个节点</numerusform></translation>
    </message>
    <message>
        <source>There is no node &quot;%1&quot;.</source>
        <translation>不存在节点“%1”。</translation>
    </message>
    <message>
        <source>%1 has no output port &quot;%2&quot;.</source>
        <translation>%1 没有输出端口“%2”。</translation>
    </message>
    <message>
        <source>%1 has no outputs.</source>
        <translation>%1 没有输出。</translation>
    </message>
    <message>
        <source>%1 takes no inputs.</source>
        <translation>%1 不接受输入。</translation>
    </message>
    <message>
        <source>%1 has no input %2.</source>
        <translation>%1 没有输入 %2。</translation>
    </message>
    <message>
        <source>A layer cannot feed itself.</source>
        <translation>层不能连接到自身。</translation>
    </message>
    <message>
        <source>Connecting %1 to %2 would create a cycle; networks must be acyclic.</source>
        <translation>将 %1 连接到 %2 会形成环；网络必须是无环的。</translation>
    </message>
    <message>
        <source>These ports are already connected.</source>
        <translation>这些端口已经连接。</translation>
    </message>
    <message>
        <source>Connect %1 to %2</source>
        <translation>将 %1 连接到 %2</translation>
    </message>
    <message>
        <source>Disconnect %1 from %2</source>
        <translation>断开 %1 与 %2 的连接</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid id: use 1 to 128 characters without spaces or &apos;:&apos;.</source>
        <translation>“%1”不是有效的 id：请使用 1 到 128 个字符，不含空格或 ':'。</translation>
    </message>
    <message>
        <source>The id &quot;%1&quot; is already used.</source>
        <translation>id“%1”已被使用。</translation>
    </message>
    <message numerus="yes">
        <source>Paste %n node(s)</source>
        <translation><numerusform>粘贴 %n 个节点</numerusform></translation>
    </message>
    <message>
        <source>Auto layout</source>
        <translation>自动布局</translation>
    </message>
    <message numerus="yes">
        <source>Recompute %n node(s) in backward</source>
        <translation><numerusform>在反向传播中重新计算 %n 个节点</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Keep the activations of %n node(s)</source>
        <translation><numerusform>保留 %n 个节点的激活值</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Recompute %n layer(s) in backward</source>
        <translation><numerusform>在反向传播中重新计算 %n 个层</numerusform></translation>
    </message>
    <message>
        <source>Show %1 pipeline stages</source>
        <translation>显示 %1 个流水线阶段</translation>
    </message>
    <message>
        <source>Hide the pipeline stages</source>
        <translation>隐藏流水线阶段</translation>
    </message>
    <message>
        <source>End pipeline stage %1 at %2</source>
        <translation>流水线阶段 %1 结束于 %2</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphLayout</name>
    <message>
        <source>Graphviz could not lay out the graph.</source>
        <translation>Graphviz 无法对图进行布局。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphScene</name>
    <message>
        <source>Delete selection</source>
        <translation>删除所选内容</translation>
    </message>
    <message>
        <source>Connecting %1 to %2 would create a cycle; networks must be acyclic.</source>
        <translation>将 %1 连接到 %2 会形成环；网络必须是无环的。</translation>
    </message>
    <message>
        <source>Reconnect %1</source>
        <translation>重新连接 %1</translation>
    </message>
</context>
<context>
    <name>diamond::ui::GraphView</name>
    <message>
        <source>Unknown layer type &quot;%1&quot;.</source>
        <translation>未知的层类型“%1”。</translation>
    </message>
    <message>
        <source>Drag layers here from the palette, or start from a template.
Connect ports by dragging from an output to an input.</source>
        <translation>从层面板将层拖到这里，或从模板开始。
从输出拖动到输入即可连接端口。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::Inspector</name>
    <message>
        <source>%1 needs a value.</source>
        <translation>%1 需要一个值。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a whole number.</source>
        <translation>“%1”不是整数。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number.</source>
        <translation>“%1”不是数字。</translation>
    </message>
    <message>
        <source>Write true or false.</source>
        <translation>请填写 true 或 false。</translation>
    </message>
    <message numerus="yes">
        <source>%n nodes selected.</source>
        <translation><numerusform>已选中 %n 个节点。</numerusform></translation>
    </message>
    <message>
        <source>Select a layer on the canvas to edit its parameters.</source>
        <translation>在画布上选择一个层以编辑其参数。</translation>
    </message>
    <message>
        <source>A network output.</source>
        <translation>网络输出。</translation>
    </message>
    <message>
        <source>Unknown layer type.</source>
        <translation>未知的层类型。</translation>
    </message>
    <message>
        <source>Unique id of this layer: 1 to 128 characters, no spaces or &apos;:&apos;.</source>
        <translation>此层的唯一 id：1 到 128 个字符，不含空格或 ':'。</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>Id</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Analysis</source>
        <translation>分析</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>规模</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>%1 to %2</source>
        <translation>%1 到 %2</translation>
    </message>
    <message>
        <source>at least %1</source>
        <translation>至少 %1</translation>
    </message>
    <message>
        <source>at most %1</source>
        <translation>至多 %1</translation>
    </message>
    <message>
        <source>%1 parameters, %2 per sample</source>
        <translation>%1 个参数，每个样本 %2</translation>
    </message>
    <message>
        <source>Error:</source>
        <translation>错误：</translation>
    </message>
    <message>
        <source>Warning:</source>
        <translation>警告：</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>↻ Recompute in backward</source>
        <translation>↻ 在反向传播中重新计算</translation>
    </message>
    <message>
        <source>Training keeps none of this layer&apos;s intermediate values for the backward pass and computes them again there: much less memory for about one more forward pass. Mark consecutive layers (or use Edit ▸ Recompute in backward on a selection); the trained weights do not change.</source>
        <translation>训练不为反向传播保留该层的中间值，而是在反向传播时重新计算：内存大幅减少，代价约为多一次前向传播。请标记连续的多个层（或对所选内容使用“编辑 ▸ 在反向传播中重新计算”）；训练得到的权重不变。</translation>
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
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>Job %1</source>
        <translation>作业 %1</translation>
    </message>
    <message>
        <source>Jobs %1–%2</source>
        <translation>作业 %1–%2</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s), about %1 in all (queue waits not included)</source>
        <translation><numerusform>%n 个作业，共约 %1（不含排队等待）</numerusform></translation>
    </message>
    <message>
        <source>time limit per job: %1</source>
        <translation>每个作业的时间上限：%1</translation>
    </message>
    <message>
        <source>No job plan yet</source>
        <translation>尚无作业计划</translation>
    </message>
</context>
<context>
    <name>diamond::ui::JobQueueModel</name>
    <message>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Elapsed</source>
        <translation>已用时间</translation>
    </message>
    <message>
        <source>Time limit</source>
        <translation>时间限制</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
</context>
<context>
    <name>diamond::ui::LayerPalette</name>
    <message>
        <source>Search layers…</source>
        <translation>搜索层…</translation>
    </message>
    <message>
        <source>Filter by name, family or description; Enter adds the first match.</source>
        <translation>按名称、类别或描述筛选；按 Enter 添加第一个匹配项。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::LayerPaletteModel</name>
    <message>
        <source>A network output: connect the layer whose result the network returns (e.g. the logits).</source>
        <translation>网络输出：连接网络要返回其结果的层（例如 logits）。</translation>
    </message>
    <message>
        <source>Inputs and outputs</source>
        <translation>输入与输出</translation>
    </message>
    <message>
        <source>Drag onto the canvas, or double-click to add.</source>
        <translation>拖到画布上，或双击以添加。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::LearnPage</name>
    <message>
        <source>%v of %m steps done</source>
        <translation>已完成 %v / %m 步</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>上一步(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Show me</source>
        <translation>演示给我看(&amp;S)</translation>
    </message>
    <message>
        <source>Show the page of this step and highlight what to use</source>
        <translation>显示这一步的页面并高亮要使用的控件</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一步(&amp;N)</translation>
    </message>
    <message>
        <source>Start &amp;over</source>
        <translation>重新开始(&amp;O)</translation>
    </message>
    <message>
        <source>Forget this lesson&apos;s progress and take it again</source>
        <translation>清除这节课的进度并重新学习</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>名次</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>谁</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message numerus="yes">
        <source>%1. %2
%n min</source>
        <translation><numerusform>%1. %2
%n 分钟</numerusform></translation>
    </message>
    <message>
        <source> · ✓ done</source>
        <translation> · ✓ 已完成</translation>
    </message>
    <message>
        <source> · %1 of %2 steps</source>
        <translation> · 第 %1 / %2 步</translation>
    </message>
    <message>
        <source> · needs a cluster</source>
        <translation> · 需要集群</translation>
    </message>
    <message>
        <source>Learn Diamond</source>
        <translation>学习 Diamond</translation>
    </message>
    <message>
        <source>Short lessons that check your work as you go. Choose one on the left; each takes a few minutes and your progress is saved in the workspace.</source>
        <translation>边做边检查的小课程。在左侧选择一节；每节只需几分钟，进度保存在工作区中。</translation>
    </message>
    <message>
        <source>Step %1 of %2: %3</source>
        <translation>第 %1 / %2 步：%3</translation>
    </message>
    <message>
        <source>&amp;Finish</source>
        <translation>完成(&amp;F)</translation>
    </message>
    <message>
        <source>✓ Done: %1</source>
        <translation>✓ 完成：%1</translation>
    </message>
    <message>
        <source>Not yet: %1</source>
        <translation>尚未完成：%1</translation>
    </message>
    <message>
        <source>Not yet: %1
Hint: %2</source>
        <translation>尚未完成：%1
提示：%2</translation>
    </message>
    <message>
        <source>✓ Lesson complete. Choose the next lesson on the left.</source>
        <translation>✓ 课程完成。请在左侧选择下一节课。</translation>
    </message>
    <message>
        <source>Leaderboard of this lesson: no finished run yet.</source>
        <translation>本课排行榜：还没有完成的运行。</translation>
    </message>
    <message>
        <source>Leaderboard of this lesson (%1)</source>
        <translation>本课排行榜（%1）</translation>
    </message>
    <message>
        <source>you</source>
        <translation>你</translation>
    </message>
</context>
<context>
    <name>diamond::ui::MainWindow</name>
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
        <source>Could not open the workspace: %1</source>
        <translation>无法打开工作区：%1</translation>
    </message>
    <message>
        <source>Workspace: %1</source>
        <translation>工作区：%1</translation>
    </message>
    <message>
        <source>Designer</source>
        <translation>设计器</translation>
    </message>
    <message>
        <source>Run set-up</source>
        <translation>运行设置</translation>
    </message>
    <message>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <source>&amp;New from template</source>
        <translation>从模板新建(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open network…</source>
        <translation>打开网络(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save network</source>
        <translation>保存网络(&amp;S)</translation>
    </message>
    <message>
        <source>Save network &amp;as…</source>
        <translation>网络另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Export graph image…</source>
        <translation>导出网络图图像(&amp;E)…</translation>
    </message>
    <message>
        <source>Open &amp;workspace…</source>
        <translation>打开工作区(&amp;W)…</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <source>Select &amp;all</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Fit network in view</source>
        <translation>使网络适合视图(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Automatic layout</source>
        <translation>自动布局(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Compare selected runs</source>
        <translation>比较所选运行(&amp;C)</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>Open workspace folder</source>
        <translation>打开工作区文件夹</translation>
    </message>
    <message>
        <source>Loaded &quot;%1&quot;: press Train to run it.</source>
        <translation>已加载“%1”：点击“训练”即可运行。</translation>
    </message>
    <message>
        <source>Cannot train</source>
        <translation>无法训练</translation>
    </message>
    <message>
        <source>No workspace is open.</source>
        <translation>未打开工作区。</translation>
    </message>
    <message numerus="yes">
        <source>The network has %n error(s); the designer marks them in red.</source>
        <translation><numerusform>网络有 %n 个错误；设计器中以红色标出。</numerusform></translation>
    </message>
    <message>
        <source>My runs</source>
        <translation>我的运行</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Discard changes?</source>
        <translation>放弃更改？</translation>
    </message>
    <message>
        <source>The network has unsaved changes. Discard them?</source>
        <translation>网络有未保存的更改。要放弃这些更改吗？</translation>
    </message>
    <message>
        <source>Open network</source>
        <translation>打开网络</translation>
    </message>
    <message>
        <source>Diamond networks (*.json)</source>
        <translation>Diamond 网络 (*.json)</translation>
    </message>
    <message>
        <source>Cannot open the network</source>
        <translation>无法打开网络</translation>
    </message>
    <message>
        <source>Save network</source>
        <translation>保存网络</translation>
    </message>
    <message>
        <source>Cannot save the network</source>
        <translation>无法保存网络</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Export graph image</source>
        <translation>导出网络图图像</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>Cannot export the image</source>
        <translation>无法导出图像</translation>
    </message>
    <message>
        <source>%1%2 — Diamond</source>
        <translation>%1%2 — Diamond</translation>
    </message>
    <message>
        <source>The new language is applied when Diamond starts again.</source>
        <translation>新语言将在 Diamond 重新启动后生效。</translation>
    </message>
    <message>
        <source>Stop training?</source>
        <translation>停止训练？</translation>
    </message>
    <message>
        <source>Gallery</source>
        <translation>模型库</translation>
    </message>
    <message>
        <source>Clusters</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>New sweep</source>
        <translation>新建超参数搜索</translation>
    </message>
    <message>
        <source>Sweep %1</source>
        <translation>超参数搜索 %1</translation>
    </message>
    <message>
        <source>Cannot fine-tune</source>
        <translation>无法微调</translation>
    </message>
    <message>
        <source>Fine-tuning &quot;%1&quot;: adjust the settings and press Train.</source>
        <translation>正在微调“%1”：请调整设置，然后点击“训练”。</translation>
    </message>
    <message>
        <source>&amp;Designer</source>
        <translation>设计器(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Run set-up</source>
        <translation>运行设置(&amp;R)</translation>
    </message>
    <message>
        <source>S&amp;weeps</source>
        <translation>超参数搜索(&amp;W)</translation>
    </message>
    <message>
        <source>&amp;Clusters</source>
        <translation>集群(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Gallery</source>
        <translation>模型库(&amp;G)</translation>
    </message>
    <message>
        <source>New &amp;sweep…</source>
        <translation>新建超参数搜索(&amp;S)…</translation>
    </message>
    <message>
        <source>Search hyper-parameters of the network and run set-up on screen</source>
        <translation>搜索当前网络和运行设置的超参数</translation>
    </message>
    <message numerus="yes">
        <source>Closing Diamond stops %n run(s) on this computer. They can be resumed later from their newest checkpoint. Close anyway?</source>
        <translation><numerusform>关闭 Diamond 将停止本机上的 %n 个运行。之后可以从最新检查点恢复。仍要关闭吗？</numerusform></translation>
    </message>
    <message>
        <source>Sweeps</source>
        <translation>超参数搜索</translation>
    </message>
    <message>
        <source>Run %1 was not stopped: %2</source>
        <translation>运行 %1 未停止：%2</translation>
    </message>
    <message>
        <source>Published to the gallery (entry %1).</source>
        <translation>已发布到模型库（条目 %1）。</translation>
    </message>
    <message>
        <source>Delete runs</source>
        <translation>删除运行</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n run(s) with their curves, checkpoints and folder? This cannot be undone.</source>
        <translation><numerusform>删除 %n 个运行及其曲线、检查点和文件夹？此操作无法撤销。</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Deleted %n run(s).</source>
        <translation><numerusform>已删除 %n 个运行。</numerusform></translation>
    </message>
    <message>
        <source>Published to the gallery (entry %1, signed and consistent).</source>
        <translation>已发布到模型库（条目 %1，已签名且自洽）。</translation>
    </message>
    <message>
        <source>D&amp;ata</source>
        <translation>数据(&amp;A)</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Presenter mode: press F5 to leave it.</source>
        <translation>演示模式：按 F5 退出。</translation>
    </message>
    <message>
        <source>&amp;Presenter mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Large fonts, thick chart lines and high contrast for a projector (F5)</source>
        <translation>投影用：大字体、粗曲线、高对比度（F5）</translation>
    </message>
    <message>
        <source>✓ %1: step &quot;%2&quot; done.</source>
        <translation>✓ %1：步骤“%2”已完成。</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>Short lessons that check your work as you go (F1)</source>
        <translation>边做边检查的小课程（F1）</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>Look for &quot;%1&quot; on this page.</source>
        <translation>请在本页查找“%1”。</translation>
    </message>
    <message>
        <source>&amp;Connect to class server…</source>
        <translation>连接课程服务器(&amp;C)…</translation>
    </message>
    <message>
        <source>Train on your course&apos;s server with your token; the curves come back here</source>
        <translation>用你的令牌在课程服务器上训练；曲线会回到这里</translation>
    </message>
    <message>
        <source>Class server: %1 (%2)</source>
        <translation>课程服务器：%1（%2）</translation>
    </message>
    <message>
        <source>Signed in to %1 as %2. Train now runs there; choose &quot;This computer&quot; in the run set-up to train here.</source>
        <translation>已以 %2 身份登录 %1。现在训练会在那里运行；在运行设置中选择“此计算机”即可在本机训练。</translation>
    </message>
    <message>
        <source>Published to the class gallery (entry %1).</source>
        <translation>已发布到课程模型库（条目 %1）。</translation>
    </message>
    <message>
        <source>This computer&apos;s speed is measured: plans now predict step times.</source>
        <translation>本机速度已测量：计划现在会预测每步耗时。</translation>
    </message>
    <message>
        <source>Could not measure this computer&apos;s speed: %1</source>
        <translation>无法测量本机速度：%1</translation>
    </message>
    <message>
        <source>Measuring the step time with 1, 2, 4 … processes (a few seconds each)…</source>
        <translation>正在用 1、2、4 … 个进程测量每步时间（每种几秒钟）…</translation>
    </message>
    <message>
        <source>Processes measured: the recommendation now uses the measured step times.</source>
        <translation>进程数已测量：推荐现在使用实测的每步时间。</translation>
    </message>
    <message>
        <source>Could not measure the processes: %1</source>
        <translation>无法测量进程数：%1</translation>
    </message>
    <message>
        <source>Run %1 moved from %2 to %3.</source>
        <translation>运行 %1 已从 %2 迁移到 %3。</translation>
    </message>
    <message>
        <source>Run %1 started first on %2; the other jobs are cancelled.</source>
        <translation>运行 %1 最先在 %2 上开始；其他作业已取消。</translation>
    </message>
    <message>
        <source>Run %1 did not start: %2</source>
        <translation>运行 %1 未能开始：%2</translation>
    </message>
    <message>
        <source>Run %1 was not moved: %2</source>
        <translation>运行 %1 未迁移：%2</translation>
    </message>
    <message>
        <source>Run %1 submitted to %2; the first to start keeps it.</source>
        <translation>运行 %1 已提交到 %2；最先开始的集群保留它。</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>此计算机</translation>
    </message>
    <message>
        <source>There is no other cluster to move run %1 to; add one on the Clusters page.</source>
        <translation>没有其他集群可迁移运行 %1；请在“集群”页面添加。</translation>
    </message>
    <message>
        <source>Move run</source>
        <translation>迁移运行</translation>
    </message>
    <message>
        <source>Run %1 &quot;%2&quot; is on %3.
It stops at a checkpoint, the checkpoint comes to this computer, and the run continues from it on:</source>
        <translation>运行 %1“%2”在 %3 上。
它将在检查点处停止，检查点传回本机，然后在以下位置从该检查点继续：</translation>
    </message>
    <message>
        <source>&amp;Move</source>
        <translation>迁移(&amp;M)</translation>
    </message>
    <message>
        <source>Stopping run %1 at a checkpoint to move it to %2…</source>
        <translation>正在检查点处停止运行 %1，以便迁移到 %2…</translation>
    </message>
    <message>
        <source>Run %1 moved to %2.</source>
        <translation>运行 %1 已迁移到 %2。</translation>
    </message>
    <message>
        <source>↻ Rec&amp;ompute in backward</source>
        <translation>↻ 在反向传播中重新计算(&amp;O)</translation>
    </message>
    <message>
        <source>Mark the selected layers to recompute their activations in backward (less memory, about one more forward pass), or unmark them (Ctrl+Shift+R)</source>
        <translation>标记所选层在反向传播中重新计算激活值（内存更少，约多一次前向传播），或取消标记（Ctrl+Shift+R）</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>Recompute to fit a memory &amp;budget…</source>
        <translation>按内存预算重新计算(&amp;B)…</translation>
    </message>
    <message>
        <source>Mark the layers that save the most activation memory for the least computation, so that training fits a budget you give</source>
        <translation>标记以最少计算节省最多激活内存的层，使训练满足你给定的预算</translation>
    </message>
    <message>
        <source>Pipeline &amp;stages</source>
        <translation>流水线阶段(&amp;S)</translation>
    </message>
    <message>
        <source>Show how the network is cut into stages, one process each, for a pipeline run</source>
        <translation>显示流水线运行时网络如何切分为各阶段（每个进程一个）</translation>
    </message>
    <message>
        <source>&amp;None</source>
        <translation>无(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;%1 stages</source>
        <translation>%1 个阶段(&amp;%1)</translation>
    </message>
    <message>
        <source>&amp;End the pipeline stage here</source>
        <translation>在此结束流水线阶段(&amp;E)</translation>
    </message>
    <message>
        <source>Move the cut so that the selected layer&apos;s stage ends at it (Ctrl+Shift+E)</source>
        <translation>移动切分点，使所选层所在的阶段在该层结束（Ctrl+Shift+E）</translation>
    </message>
</context>
<context>
    <name>diamond::ui::NodeItem</name>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
</context>
<context>
    <name>diamond::ui::PartitionsModel</name>
    <message>
        <source>unlimited</source>
        <translation>无限制</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>每个节点的 GPU 数</translation>
    </message>
    <message>
        <source>CPU cores per node</source>
        <translation>每个节点的 CPU 核心数</translation>
    </message>
    <message>
        <source>Memory per node in MB</source>
        <translation>每个节点的内存（MB）</translation>
    </message>
    <message>
        <source>Longest run time a job may ask for, in minutes (0: unlimited)</source>
        <translation>作业可申请的最长运行时间，以分钟计（0：不限）</translation>
    </message>
    <message>
        <source>Jobs go to the default partition unless the run names another</source>
        <translation>除非运行指定了其他分区，否则作业将提交到默认分区</translation>
    </message>
    <message>
        <source>Partition</source>
        <translation>分区</translation>
    </message>
    <message>
        <source>GPU type</source>
        <translation>GPU 类型</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPUs</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>Memory (MB)</source>
        <translation>内存 (MB)</translation>
    </message>
    <message>
        <source>Max time</source>
        <translation>最长时间</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认</translation>
    </message>
</context>
<context>
    <name>diamond::ui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>全部核心</translation>
    </message>
    <message>
        <source>Engine &amp;threads:</source>
        <translation>引擎线程数(&amp;T)：</translation>
    </message>
    <message>
        <source>A new language is applied when Diamond starts again.</source>
        <translation>新语言将在 Diamond 重新启动后生效。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::PublishDialog</name>
    <message>
        <source>Trained in Diamond (project &quot;%1&quot;, run %2 &quot;%3&quot;), finished %4.</source>
        <translation>在 Diamond 中训练（项目“%1”，运行 %2“%3”），完成于 %4。</translation>
    </message>
    <message>
        <source>- Input `%1`: %2 %3</source>
        <translation>- 输入 `%1`：%2 %3</translation>
    </message>
    <message>
        <source>- Output `%1`: %2 %3</source>
        <translation>- 输出 `%1`：%2 %3</translation>
    </message>
    <message>
        <source>*Describe what the model is for, the data it was trained on and where it should not be used.*</source>
        <translation>*请描述模型的用途、训练所用的数据，以及不应在哪些场合使用它。*</translation>
    </message>
    <message>
        <source>Publish run %1 to the gallery</source>
        <translation>将运行 %1 发布到模型库</translation>
    </message>
    <message>
        <source>Reading run %1…</source>
        <translation>正在读取运行 %1…</translation>
    </message>
    <message>
        <source>Ada Lovelace, Alan Turing</source>
        <translation>Ada Lovelace, Alan Turing</translation>
    </message>
    <message>
        <source>An SPDX license identifier</source>
        <translation>SPDX 许可证标识符</translation>
    </message>
    <message>
        <source>spirals, mlp, teaching</source>
        <translation>spirals, mlp, teaching</translation>
    </message>
    <message>
        <source>e.g. vision, audio, toy</source>
        <translation>例如 vision、audio、toy</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <source>&amp;Version:</source>
        <translation>版本(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;Authors:</source>
        <translation>作者(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;License:</source>
        <translation>许可证(&amp;L)：</translation>
    </message>
    <message>
        <source>Ta&amp;gs:</source>
        <translation>标签(&amp;G)：</translation>
    </message>
    <message>
        <source>&amp;Domain:</source>
        <translation>领域(&amp;D)：</translation>
    </message>
    <message>
        <source>&amp;Task:</source>
        <translation>任务(&amp;T)：</translation>
    </message>
    <message>
        <source>Model card (Markdown)</source>
        <translation>模型卡片（Markdown）</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation>发布(&amp;P)</translation>
    </message>
    <message>
        <source>Run %1 is %2: only finished runs can be published.</source>
        <translation>运行 %1 处于 %2 状态：只能发布已完成的运行。</translation>
    </message>
    <message>
        <source>This run cannot be published.</source>
        <translation>此运行无法发布。</translation>
    </message>
    <message>
        <source>The package holds the spec, the weights, test inputs with their expected outputs and this card. Edit the card: it is what others read first.</source>
        <translation>模型包包含网络规格、权重、测试输入及其预期输出，以及这张卡片。请编辑卡片：这是其他人最先阅读的内容。</translation>
    </message>
    <message>
        <source>The name is required.</source>
        <translation>名称为必填项。</translation>
    </message>
    <message>
        <source>The version is required (e.g. 1.0.0).</source>
        <translation>版本为必填项（例如 1.0.0）。</translation>
    </message>
    <message>
        <source>The model card is empty: describe the model.</source>
        <translation>模型卡片为空：请描述该模型。</translation>
    </message>
    <message>
        <source>Publishing: the engine exports the weights, then the package&apos;s test inputs are re-run to verify it…</source>
        <translation>正在发布：引擎导出权重，然后重新运行模型包的测试输入以进行验证…</translation>
    </message>
    <message>
        <source>Publishing failed (%1): %2</source>
        <translation>发布失败（%1）：%2</translation>
    </message>
    <message>
        <source>Interface</source>
        <translation>接口</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Intended use and limitations</source>
        <translation>预期用途与局限</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Include this computer&apos;s &amp;details (data file paths, operating system, core count)</source>
        <translation>包含本机的详细信息(&amp;D)（数据文件路径、操作系统、核心数）</translation>
    </message>
    <message>
        <source>Off: the package names data files by their file name only and says nothing about this computer.</source>
        <translation>关闭时：包中只以文件名称呼数据文件，不包含本机的任何信息。</translation>
    </message>
    <message>
        <source>What is &amp;shared</source>
        <translation>共享的内容(&amp;S)</translation>
    </message>
    <message>
        <source>Signed with your publisher key %1 (%2).</source>
        <translation>使用您的发布者密钥 %1 签名（%2）。</translation>
    </message>
    <message>
        <source>Signed with a publisher key made for you on first publish (%1).</source>
        <translation>使用首次发布时为您生成的发布者密钥签名（%1）。</translation>
    </message>
    <message>
        <source>Your publisher key cannot be used: %1</source>
        <translation>无法使用您的发布者密钥：%1</translation>
    </message>
    <message>
        <source>Reading the run…</source>
        <translation>正在读取运行…</translation>
    </message>
    <message numerus="yes">
        <source>(the model card, %n character(s))</source>
        <translation><numerusform>（模型卡片，%n 个字符）</numerusform></translation>
    </message>
    <message>
        <source>Anyone who receives the package gets:</source>
        <translation>收到该包的任何人都会得到：</translation>
    </message>
    <message>
        <source>the network (spec.json) and its trained weights (weights.safetensors)</source>
        <translation>网络（spec.json）及其训练好的权重（weights.safetensors）</translation>
    </message>
    <message>
        <source>a few test inputs with the outputs this model gives for them (to check the package)</source>
        <translation>几个测试输入以及此模型对它们给出的输出（用于检查该包）</translation>
    </message>
    <message>
        <source>a picture of the architecture and the model card</source>
        <translation>架构图和模型卡片</translation>
    </message>
    <message>
        <source>the manifest below</source>
        <translation>下方的清单</translation>
    </message>
    <message>
        <source>This computer&apos;s details are included: data file paths, operating system and core count.</source>
        <translation>包含本机的详细信息：数据文件路径、操作系统和核心数。</translation>
    </message>
    <message>
        <source>Data files are named by their file name only; nothing about this computer is included.</source>
        <translation>数据文件只以文件名称呼；不包含本机的任何信息。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RecomputeBudgetDialog</name>
    <message>
        <source>Recompute to Fit a Memory Budget</source>
        <translation>按内存预算重新计算</translation>
    </message>
    <message>
        <source>Layers marked ↻ keep none of their activations for the backward pass and compute them again there. Diamond marks the layers that save the most memory for the least computation, so that the activations of one process stay within the budget.</source>
        <translation>标记 ↻ 的层不为反向传播保留激活值，而是在反向传播时再算一遍。Diamond 会标记以最少计算节省最多内存的层，使单个进程的激活值不超过预算。</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>&amp;Batch size per process:</source>
        <translation>每个进程的批大小(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Activations at most:</source>
        <translation>激活值上限(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Mark layers</source>
        <translation>标记层(&amp;M)</translation>
    </message>
    <message>
        <source>Nothing recomputed: %1 · every layer recomputed: %2</source>
        <translation>不重新计算：%1 · 全部重新计算：%2</translation>
    </message>
    <message>
        <source>Choosing…</source>
        <translation>正在选择…</translation>
    </message>
    <message>
        <source>Nothing needs recomputing: the activations take %1.</source>
        <translation>无需重新计算：激活值占用 %1。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Even with every layer recomputed the activations take %1.&lt;/b&gt; Every layer will be marked; lower the batch size to go further.</source>
        <translation>&lt;b&gt;即使所有层都重新计算，激活值仍占用 %1。&lt;/b&gt;所有层都会被标记；如需进一步降低，请减小批大小。</translation>
    </message>
    <message>
        <source>%1 of %2 layers recompute: the activations take %3, and %4 % of the network&apos;s forward FLOPs are computed again in backward.</source>
        <translation>%2 个层中有 %1 个重新计算：激活值占用 %3，网络前向 FLOPs 的 %4 % 会在反向传播中再算一遍。</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunMonitorPage</name>
    <message>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>已抢占</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>%p%</source>
        <translation>%p%</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>Stop the run; its newest checkpoint is kept so that it can be resumed.</source>
        <translation>停止运行；将保留其最新检查点，以便之后恢复。</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>Continue the run from its newest checkpoint.</source>
        <translation>从最新检查点继续该运行。</translation>
    </message>
    <message>
        <source>X axis:</source>
        <translation>X 轴：</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>Wall time (s)</source>
        <translation>耗时 (s)</translation>
    </message>
    <message>
        <source>&amp;Log scale</source>
        <translation>对数坐标(&amp;L)</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>Debiased exponential moving average; the raw curve stays faintly visible.</source>
        <translation>去偏指数移动平均；原始曲线仍以淡色显示。</translation>
    </message>
    <message>
        <source>Engine events appear here.</source>
        <translation>引擎事件将显示在这里。</translation>
    </message>
    <message>
        <source>Confusion matrix</source>
        <translation>混淆矩阵</translation>
    </message>
    <message>
        <source>Cannot stop: %1</source>
        <translation>无法停止：%1</translation>
    </message>
    <message>
        <source>Cannot resume: %1</source>
        <translation>无法恢复：%1</translation>
    </message>
    <message>
        <source>Run %1</source>
        <translation>运行 %1</translation>
    </message>
    <message>
        <source>%1 (run %2)</source>
        <translation>%1（运行 %2）</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>ETA %1</source>
        <translation>预计剩余 %1</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>%1 步/s</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 样本/s</translation>
    </message>
    <message numerus="yes">
        <source>started: %1 parameters on %2, %n thread(s), %3 steps</source>
        <translation><numerusform>已开始：%1 个参数，设备 %2，%n 个线程，%3 步</numerusform></translation>
    </message>
    <message>
        <source>checkpoint at step %1</source>
        <translation>第 %1 步保存检查点</translation>
    </message>
    <message>
        <source>evaluated at step %1</source>
        <translation>第 %1 步完成评估</translation>
    </message>
    <message>
        <source>finished: %1</source>
        <translation>已完成：%1</translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>[cluster] %1</source>
        <translation>[集群] %1</translation>
    </message>
    <message>
        <source>&amp;Publish…</source>
        <translation>发布(&amp;P)…</translation>
    </message>
    <message>
        <source>queued on the cluster</source>
        <translation>在集群上排队</translation>
    </message>
    <message>
        <source>Cluster %1 · job %2 · %3</source>
        <translation>集群 %1 · 作业 %2 · %3</translation>
    </message>
    <message>
        <source> (%1)</source>
        <translation>（%1）</translation>
    </message>
    <message>
        <source> · continuation</source>
        <translation> · 后续作业</translation>
    </message>
    <message>
        <source>Submitted %1, last seen %2</source>
        <translation>提交于 %1，最后查看于 %2</translation>
    </message>
    <message>
        <source>Publish the finished run to the model gallery as a signed package that others can check.</source>
        <translation>将已完成的运行发布到模型库，成为他人可以检查的已签名包。</translation>
    </message>
    <message>
        <source>Dataset: verifying on the cluster…</source>
        <translation>数据集：正在集群上校验…</translation>
    </message>
    <message>
        <source>Dataset: %1 of %2 MiB sent</source>
        <translation>数据集：已发送 %1 / %2 MiB</translation>
    </message>
    <message>
        <source>Dataset: %1</source>
        <translation>数据集：%1</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunRecommendationView</name>
    <message numerus="yes">
        <source>%n second(s)</source>
        <translation><numerusform>%n 秒</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n minute(s)</source>
        <translation><numerusform>%n 分钟</numerusform></translation>
    </message>
    <message>
        <source>%1 hours</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>&amp;Use these settings</source>
        <translation>采用这些设置(&amp;U)</translation>
    </message>
    <message>
        <source>Copy the recommended processes, time limit, chain and checkpoint interval into the form</source>
        <translation>将推荐的进程数、时间上限、作业链和检查点间隔填入表单</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>此计算机</translation>
    </message>
    <message>
        <source>%1, partition %2</source>
        <translation>%1，分区 %2</translation>
    </message>
    <message numerus="yes">
        <source>%n job(s) of %1</source>
        <translation><numerusform>%n 个作业，每个 %1</numerusform></translation>
    </message>
    <message>
        <source>one run on this computer, no time limit</source>
        <translation>在本机运行一次，无时间上限</translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;&lt;small&gt;%n option(s) do not fit in memory.&lt;/small&gt;</source>
        <translation><numerusform>&lt;br&gt;&lt;small&gt;%n 个选项内存放不下。&lt;/small&gt;</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;Recommended:&lt;/b&gt; %1, &lt;b&gt;%n process(es)&lt;/b&gt;</source>
        <translation><numerusform>&lt;b&gt;推荐：&lt;/b&gt;%1，&lt;b&gt;%n 个进程&lt;/b&gt;</numerusform></translation>
    </message>
    <message>
        <source>&amp;Measure processes</source>
        <translation>测量进程数(&amp;M)</translation>
    </message>
    <message>
        <source>Train a few seconds with 1, 2, 4 … processes on this computer and recommend from the measured times instead of the predicted ones</source>
        <translation>在本机上用 1、2、4 … 个进程各训练几秒钟，按实测时间而不是预测时间给出推荐</translation>
    </message>
    <message>
        <source>Measuring processes…</source>
        <translation>正在测量进程数…</translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;&lt;small&gt;Measured: %n process(es)</source>
        <translation><numerusform>&lt;br&gt;&lt;small&gt;实测：%n 个进程</numerusform></translation>
    </message>
    <message numerus="yes">
        <source> of %n thread(s): %1 per step&lt;/small&gt;</source>
        <translation><numerusform>，每个 %n 个线程：每步 %1&lt;/small&gt;</numerusform></translation>
    </message>
    <message numerus="yes">
        <source> of %n thread(s)</source>
        <translation><numerusform>，每个 %n 个线程</numerusform></translation>
    </message>
    <message>
        <source>predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>measured</source>
        <translation>实测</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, of which %2 waiting in the queue (the scheduler&apos;s estimate)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，其中 %2 为排队等待（调度器的估计）</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, queue waits not included</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;，不含排队等待</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>%1 MiB per process</source>
        <translation>每个进程 %1 MiB</translation>
    </message>
    <message>
        <source>, with the optimizer state split over the processes</source>
        <translation>，优化器状态拆分到各进程</translation>
    </message>
    <message>
        <source>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Per step&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt; (%8; %2 measured here in the dry run)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;To finish&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Memory&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Jobs&lt;/td&gt;&lt;td&gt;%5; checkpoint every %6 steps&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Confidence&lt;/td&gt;&lt;td&gt;%7&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;td&gt;每步&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt;（%8；试运行中本机实测 %2）&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;完成需要&lt;/td&gt;&lt;td&gt;%3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;内存&lt;/td&gt;&lt;td&gt;%4&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;作业&lt;/td&gt;&lt;td&gt;%5；每 %6 步保存检查点&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;可信度&lt;/td&gt;&lt;td&gt;%7&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>, recomputing every layer&apos;s activations in backward</source>
        <translation>，在反向传播中重新计算每一层的激活值</translation>
    </message>
    <message>
        <source>, with the optimizer state and the gradients split over the processes</source>
        <translation>，优化器状态和梯度拆分到各进程</translation>
    </message>
    <message>
        <source>, recomputing in backward the layers that keep the activations within %1 MiB</source>
        <translation>，在反向传播中重新计算使激活值不超过 %1 MiB 所需的层</translation>
    </message>
    <message>
        <source>, each process holding one of %1 pipeline stages (cut after %2; %3 micro-batches)</source>
        <translation>，每个进程持有 %1 个流水线阶段之一（在 %2 之后切分；%3 个微批次）</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunSetupPage</name>
    <message>
        <source>Spirals (synthetic)</source>
        <translation>螺旋（合成）</translation>
    </message>
    <message>
        <source>Moons (synthetic)</source>
        <translation>双月（合成）</translation>
    </message>
    <message>
        <source>Gaussian blobs (synthetic)</source>
        <translation>高斯团簇（合成）</translation>
    </message>
    <message>
        <source>Checkerboard (synthetic)</source>
        <translation>棋盘（合成）</translation>
    </message>
    <message>
        <source>Sine regression (synthetic)</source>
        <translation>正弦回归（合成）</translation>
    </message>
    <message>
        <source>Shapes images (synthetic)</source>
        <translation>形状图像（合成）</translation>
    </message>
    <message>
        <source>CSV file</source>
        <translation>CSV 文件</translation>
    </message>
    <message>
        <source>NumPy arrays (.npy)</source>
        <translation>NumPy 数组 (.npy)</translation>
    </message>
    <message>
        <source>NumPy archive (.npz)</source>
        <translation>NumPy 归档 (.npz)</translation>
    </message>
    <message>
        <source>HDF5 file</source>
        <translation>HDF5 文件</translation>
    </message>
    <message>
        <source>MNIST-style IDX file</source>
        <translation>MNIST 格式 IDX 文件</translation>
    </message>
    <message>
        <source>Image folder (one folder per class)</source>
        <translation>图像文件夹（每个类别一个文件夹）</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>&amp;Dataset:</source>
        <translation>数据集(&amp;D)：</translation>
    </message>
    <message>
        <source>File or folder</source>
        <translation>文件或文件夹</translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation>浏览(&amp;B)…</translation>
    </message>
    <message>
        <source>&amp;Path:</source>
        <translation>路径(&amp;P)：</translation>
    </message>
    <message>
        <source>column to predict (name or index)</source>
        <translation>要预测的列（名称或索引）</translation>
    </message>
    <message>
        <source>&amp;Target column:</source>
        <translation>目标列(&amp;T)：</translation>
    </message>
    <message>
        <source>Number of samples the synthetic source generates</source>
        <translation>合成数据源生成的样本数</translation>
    </message>
    <message>
        <source>&amp;Samples:</source>
        <translation>样本数(&amp;S)：</translation>
    </message>
    <message>
        <source>Fraction of the samples held out for validation</source>
        <translation>留作验证的样本比例</translation>
    </message>
    <message>
        <source>&amp;Validation split:</source>
        <translation>验证集比例(&amp;V)：</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>&amp;Optimizer:</source>
        <translation>优化器(&amp;O)：</translation>
    </message>
    <message>
        <source>Learning rate (the peak rate for one-cycle)</source>
        <translation>学习率（one-cycle 调度下为峰值学习率）</translation>
    </message>
    <message>
        <source>&amp;Learning rate:</source>
        <translation>学习率(&amp;L)：</translation>
    </message>
    <message>
        <source>&amp;Weight decay:</source>
        <translation>权重衰减(&amp;W)：</translation>
    </message>
    <message>
        <source>&amp;Momentum:</source>
        <translation>动量(&amp;M)：</translation>
    </message>
    <message>
        <source>S&amp;chedule:</source>
        <translation>学习率调度(&amp;C)：</translation>
    </message>
    <message>
        <source>Warm-up ste&amp;ps:</source>
        <translation>预热步数(&amp;P)：</translation>
    </message>
    <message>
        <source>by task</source>
        <translation>按任务</translation>
    </message>
    <message>
        <source>Lo&amp;ss:</source>
        <translation>损失(&amp;S)：</translation>
    </message>
    <message>
        <source>Metrics:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <source>&amp;Epochs:</source>
        <translation>轮数(&amp;E)：</translation>
    </message>
    <message>
        <source>&amp;Batch size:</source>
        <translation>批大小(&amp;B)：</translation>
    </message>
    <message>
        <source>S&amp;eed:</source>
        <translation>随机种子(&amp;E)：</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>运行位置</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>此计算机</translation>
    </message>
    <message>
        <source>&amp;Run on:</source>
        <translation>运行于(&amp;R)：</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>全部核心</translation>
    </message>
    <message>
        <source>&amp;Threads:</source>
        <translation>线程数(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Processes:</source>
        <translation>进程数(&amp;P)：</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>&amp;Train</source>
        <translation>训练(&amp;T)</translation>
    </message>
    <message>
        <source>Start training (Ctrl+Return)</source>
        <translation>开始训练（Ctrl+Return）</translation>
    </message>
    <message>
        <source>Cluster: %1</source>
        <translation>集群：%1</translation>
    </message>
    <message>
        <source>This run cannot start:</source>
        <translation>此运行无法开始：</translation>
    </message>
    <message>
        <source>The plan appears here once the network and the settings are complete.</source>
        <translation>网络和设置完整后，计划将显示在这里。</translation>
    </message>
    <message numerus="yes">
        <source>about %n minute(s)</source>
        <translation><numerusform>约 %n 分钟</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>about %n second(s)</source>
        <translation><numerusform>约 %n 秒</numerusform></translation>
    </message>
    <message>
        <source>&lt;table&gt;&lt;tr&gt;&lt;td&gt;Data&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Samples&lt;/td&gt;&lt;td&gt;%2 train, %3 validation&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Parameters&lt;/td&gt;&lt;td&gt;&lt;b&gt;%4&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Memory&lt;/td&gt;&lt;td&gt;%5 MiB&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Steps&lt;/td&gt;&lt;td&gt;%6&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Device&lt;/td&gt;&lt;td&gt;%7, %8 thread(s)&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;Time&lt;/td&gt;&lt;td&gt;&lt;b&gt;%9&lt;/b&gt; (%10 ms per step)&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</source>
        <translation>&lt;table&gt;&lt;tr&gt;&lt;td&gt;数据&lt;/td&gt;&lt;td&gt;&lt;b&gt;%1&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;样本&lt;/td&gt;&lt;td&gt;训练 %2，验证 %3&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;参数&lt;/td&gt;&lt;td&gt;&lt;b&gt;%4&lt;/b&gt;&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;内存&lt;/td&gt;&lt;td&gt;%5 MiB&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;步数&lt;/td&gt;&lt;td&gt;%6&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;设备&lt;/td&gt;&lt;td&gt;%7，%8 个线程&lt;/td&gt;&lt;/tr&gt;&lt;tr&gt;&lt;td&gt;时间&lt;/td&gt;&lt;td&gt;&lt;b&gt;%9&lt;/b&gt;（每步 %10 ms）&lt;/td&gt;&lt;/tr&gt;&lt;/table&gt;</translation>
    </message>
    <message>
        <source>Choose the dataset</source>
        <translation>选择数据集</translation>
    </message>
    <message>
        <source>Open or draw a network in the designer to see the plan.</source>
        <translation>在设计器中打开或绘制网络以查看计划。</translation>
    </message>
    <message>
        <source>Computing the plan…</source>
        <translation>正在计算计划…</translation>
    </message>
    <message>
        <source>fresh (random initialisation)</source>
        <translation>从头开始（随机初始化）</translation>
    </message>
    <message>
        <source>Start fresh</source>
        <translation>从头开始</translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>the cluster&apos;s default</source>
        <translation>集群默认值</translation>
    </message>
    <message>
        <source>P&amp;artition:</source>
        <translation>分区(&amp;A)：</translation>
    </message>
    <message>
        <source> min</source>
        <translation> min</translation>
    </message>
    <message>
        <source>Job time limit; the run checkpoints before it and continues in a new job</source>
        <translation>作业时间限制；运行会在到达限制前保存检查点，并在新作业中继续</translation>
    </message>
    <message>
        <source>Time &amp;limit:</source>
        <translation>时间限制(&amp;L)：</translation>
    </message>
    <message>
        <source>fine-tune from %1</source>
        <translation>从 %1 微调</translation>
    </message>
    <message>
        <source>%1 (registered)</source>
        <translation>%1（已注册）</translation>
    </message>
    <message>
        <source>registered dataset %1@%2 (%3)</source>
        <translation>已注册数据集 %1@%2（%3）</translation>
    </message>
    <message>
        <source>%1 (registered, %2)</source>
        <translation>%1（已注册，%2）</translation>
    </message>
    <message>
        <source>&amp;Inputs array:</source>
        <translation>输入数组(&amp;I)：</translation>
    </message>
    <message>
        <source>T&amp;argets array:</source>
        <translation>目标数组(&amp;A)：</translation>
    </message>
    <message>
        <source>The array of the file the network reads (one row per sample)</source>
        <translation>网络读取的文件数组（每个样本一行）</translation>
    </message>
    <message>
        <source>The array of the file the network learns to predict (one row per sample)</source>
        <translation>网络学习预测的文件数组（每个样本一行）</translation>
    </message>
    <message>
        <source>Class server: %1</source>
        <translation>课程服务器：%1</translation>
    </message>
    <message>
        <source>Class server: %1 › %2</source>
        <translation>课程服务器：%1 › %2</translation>
    </message>
    <message>
        <source> job(s)</source>
        <translation> 个作业</translation>
    </message>
    <message>
        <source>Jobs queued at once, each continuing from the last checkpoint when the one before reaches its time limit: the run goes on with Diamond closed</source>
        <translation>一次性排队的作业，前一个达到时间限制后，下一个从最新检查点继续：关闭 Diamond 后运行仍会进行</translation>
    </message>
    <message>
        <source>C&amp;hain:</source>
        <translation>作业链(&amp;H)：</translation>
    </message>
    <message>
        <source>The class server decides where this run goes.</source>
        <translation>由课堂服务器决定此运行的去处。</translation>
    </message>
    <message>
        <source>Measuring is not available here.</source>
        <translation>此处无法测量。</translation>
    </message>
    <message>
        <source>Measure processes</source>
        <translation>测量进程数</translation>
    </message>
    <message>
        <source>First of %1 to start (submitted to all)</source>
        <translation>%1 中最先开始者（提交到全部）</translation>
    </message>
    <message>
        <source>The run&apos;s job is submitted to %1 at once; the first cluster to start it keeps the run and the other jobs are cancelled.</source>
        <translation>此运行的作业同时提交到 %1；最先开始的集群保留此运行，其他作业将被取消。</translation>
    </message>
    <message>
        <source>Processes that train together (on a cluster: tasks of the job)</source>
        <translation>共同训练的进程数（在集群上：作业的任务数）</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunsPanel</name>
    <message>
        <source>Filter runs (name, project, state, target)…</source>
        <translation>筛选运行（名称、项目、状态、目标）…</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation>比较(&amp;C)</translation>
    </message>
    <message>
        <source>Overlay the curves of the selected runs</source>
        <translation>叠加显示所选运行的曲线</translation>
    </message>
    <message>
        <source>&amp;Open monitor</source>
        <translation>打开监视器(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Publish to gallery…</source>
        <translation>发布到模型库(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Resume</source>
        <translation>恢复(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation>删除(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Move to another cluster…</source>
        <translation>迁移到其他集群(&amp;M)…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::RunsTableModel</name>
    <message>
        <source>draft</source>
        <translation>草稿</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>preempted</source>
        <translation>已抢占</translation>
    </message>
    <message>
        <source>resumed</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <source>this computer</source>
        <translation>此计算机</translation>
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
        <translation>运行</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Best metric</source>
        <translation>最佳指标</translation>
    </message>
    <message>
        <source>queued on the cluster</source>
        <translation>在集群上排队</translation>
    </message>
    <message>
        <source>class server %1</source>
        <translation>课程服务器 %1</translation>
    </message>
    <message>
        <source>class server %1 › %2</source>
        <translation>课程服务器 %1 › %2</translation>
    </message>
</context>
<context>
    <name>diamond::ui::ServerPublishDialog</name>
    <message>
        <source>Publish to the class gallery</source>
        <translation>发布到课程模型库</translation>
    </message>
    <message>
        <source>This run trained on the class server, so it is published there: everyone in the class can open it in the gallery.</source>
        <translation>这次运行是在课程服务器上训练的，所以发布到那里：班上每个人都能在模型库中打开它。</translation>
    </message>
    <message>
        <source>comma-separated, e.g. lesson 1, spirals</source>
        <translation>用逗号分隔，例如 lesson 1, spirals</translation>
    </message>
    <message>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Licence:</source>
        <translation>许可证(&amp;L)：</translation>
    </message>
    <message>
        <source>T&amp;ags:</source>
        <translation>标签(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Publish</source>
        <translation>发布(&amp;P)</translation>
    </message>
    <message>
        <source>Publishing…</source>
        <translation>正在发布…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::SignInPrompter</name>
    <message>
        <source>Unknown host key</source>
        <translation>未知的主机密钥</translation>
    </message>
    <message>
        <source>The authenticity of %1 cannot be established.</source>
        <translation>无法确认 %1 的真实性。</translation>
    </message>
    <message>
        <source>Its %1 key fingerprint is:

%2

Compare it with the fingerprint your cluster&apos;s administrators publish. Accept only if they match: the key is then remembered in the known hosts file.</source>
        <translation>其 %1 密钥指纹为：

%2

请将其与集群管理员公布的指纹进行比对。仅在两者一致时才接受：之后该密钥将被记录到 known hosts 文件中。</translation>
    </message>
    <message>
        <source>Accept and connect</source>
        <translation>接受并连接</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Waiting for you to check the host key of %1…</source>
        <translation>正在等待你核对 %1 的主机密钥…</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>Cluster &lt;b&gt;%1&lt;/b&gt; asks you to sign in.</source>
        <translation>集群 &lt;b&gt;%1&lt;/b&gt; 要求您登录。</translation>
    </message>
    <message>
        <source>Signing in to %1…</source>
        <translation>正在登录 %1…</translation>
    </message>
</context>
<context>
    <name>diamond::ui::SummaryPanel</name>
    <message>
        <source>Samples per training step used for the memory estimate.</source>
        <translation>用于内存估算的每个训练步的样本数。</translation>
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
        <translation>带动量的 SGD</translation>
    </message>
    <message>
        <source>RMSprop</source>
        <translation>RMSprop</translation>
    </message>
    <message>
        <source>The optimizer&apos;s state adds 0× (SGD), 1× (momentum, RMSprop) or 2× (Adam) the weights.</source>
        <translation>优化器状态额外占用权重大小的 0×（SGD）、1×（动量、RMSprop）或 2×（Adam）。</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>FLOPs per sample</source>
        <translation>每样本 FLOPs</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Training memory</source>
        <translation>训练内存</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>%1 trainable parameters</source>
        <translation>%1 个可训练参数</translation>
    </message>
    <message>
        <source>weights %1 · gradients %2 · optimizer %3 · activations %4</source>
        <translation>权重 %1 · 梯度 %2 · 优化器 %3 · 激活 %4</translation>
    </message>
    <message>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation><numerusform>%n 个错误</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n warning(s)</source>
        <translation><numerusform>%n 个警告</numerusform></translation>
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
        <translation>输入</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Linear</source>
        <translation>线性</translation>
    </message>
    <message>
        <source>Convolution</source>
        <translation>卷积</translation>
    </message>
    <message>
        <source>Pooling</source>
        <translation>池化</translation>
    </message>
    <message>
        <source>Normalization</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Regularization</source>
        <translation>正则化</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>Reshaping</source>
        <translation>形状变换</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>Recurrent</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::ImportanceBars</name>
    <message>
        <source>Needs at least 4 finished trials</source>
        <translation>至少需要 4 个已完成的试验</translation>
    </message>
    <message>
        <source>Parameter importance (η²)</source>
        <translation>参数重要性（η²）</translation>
    </message>
    <message numerus="yes">
        <source>Share of the objective&apos;s variance explained by each parameter&apos;s binned means; %n finished trial(s).</source>
        <translation><numerusform>各参数分箱均值所解释的优化目标方差占比；%n 个已完成试验。</numerusform></translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::ObjectiveScatterPlot</name>
    <message>
        <source>%1 by trial</source>
        <translation>各试验的 %1</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>best so far</source>
        <translation>当前最佳</translation>
    </message>
    <message>
        <source>No results yet</source>
        <translation>暂无结果</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::ParallelCoordinatesPlot</name>
    <message>
        <source>Parallel coordinates</source>
        <translation>平行坐标</translation>
    </message>
    <message>
        <source>log</source>
        <translation>对数</translation>
    </message>
    <message>
        <source>worse</source>
        <translation>较差</translation>
    </message>
    <message>
        <source>better</source>
        <translation>较好</translation>
    </message>
    <message>
        <source>No trials yet</source>
        <translation>暂无试验</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepEditor</name>
    <message>
        <source>sweep</source>
        <translation>超参数搜索</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>Low</source>
        <translation>下限</translation>
    </message>
    <message>
        <source>High</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>Values</source>
        <translation>取值</translation>
    </message>
    <message>
        <source>Grid points</source>
        <translation>网格点数</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Parameter:</source>
        <translation>参数：</translation>
    </message>
    <message>
        <source>Search space</source>
        <translation>搜索空间</translation>
    </message>
    <message>
        <source>Grid</source>
        <translation>网格</translation>
    </message>
    <message>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>TPE (Bergstra et al. 2011)</source>
        <translation>TPE（Bergstra 等，2011）</translation>
    </message>
    <message>
        <source>ASHA (Li et al. 2020)</source>
        <translation>ASHA（Li 等，2020）</translation>
    </message>
    <message>
        <source>Hyperband (brackets of ASHA)</source>
        <translation>Hyperband（多组 ASHA）</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>Grid points per parameter</source>
        <translation>每个参数的网格点数</translation>
    </message>
    <message>
        <source>Random start-up trials</source>
        <translation>随机启动试验数</translation>
    </message>
    <message>
        <source>Good fraction γ</source>
        <translation>优质比例 γ</translation>
    </message>
    <message>
        <source>Candidates per proposal</source>
        <translation>每次提议的候选数</translation>
    </message>
    <message>
        <source>Prior weight</source>
        <translation>先验权重</translation>
    </message>
    <message>
        <source>Reduction factor η</source>
        <translation>缩减因子 η</translation>
    </message>
    <message>
        <source>Minimum budget r</source>
        <translation>最小预算 r</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>minimise</source>
        <translation>最小化</translation>
    </message>
    <message>
        <source>maximise</source>
        <translation>最大化</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>优化目标</translation>
    </message>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>数据集</translation>
    </message>
    <message>
        <source>Goal</source>
        <translation>优化方向</translation>
    </message>
    <message>
        <source>config&apos;s</source>
        <translation>沿用配置</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>无限制</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>Limits</source>
        <translation>限制</translation>
    </message>
    <message>
        <source>Max trials</source>
        <translation>最大试验数</translation>
    </message>
    <message>
        <source>Concurrent trials</source>
        <translation>并发试验数</translation>
    </message>
    <message>
        <source>Budget per trial</source>
        <translation>每个试验的预算</translation>
    </message>
    <message>
        <source>Total budget</source>
        <translation>总预算</translation>
    </message>
    <message>
        <source>Threads per trial</source>
        <translation>每个试验的线程数</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>%1 (now %2)</source>
        <translation>%1（当前 %2）</translation>
    </message>
    <message>
        <source>%1 sweep</source>
        <translation>%1 超参数搜索</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>uniform</source>
        <translation>均匀</translation>
    </message>
    <message>
        <source>log-uniform</source>
        <translation>对数均匀</translation>
    </message>
    <message>
        <source>integer</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>integer (log)</source>
        <translation>整数（对数）</translation>
    </message>
    <message>
        <source>space[%1].%2: &quot;%3&quot; is not a number</source>
        <translation>space[%1].%2：“%3”不是数字</translation>
    </message>
    <message>
        <source>space[%1].grid_points: &quot;%2&quot; is not an integer</source>
        <translation>space[%1].grid_points：“%2”不是整数</translation>
    </message>
    <message>
        <source>space: add at least one parameter</source>
        <translation>space：请至少添加一个参数</translation>
    </message>
    <message>
        <source>Pack small trials into one engine process</source>
        <translation>将小型试验打包到同一个引擎进程中</translation>
    </message>
    <message>
        <source>Trials started together train one after another in one diamond-train process, so the engine start-up is paid once (docs/trial-packing.md)</source>
        <translation>同时启动的试验在同一个 diamond-train 进程中依次训练，因此引擎只需启动一次（docs/trial-packing.md）</translation>
    </message>
    <message>
        <source>up to</source>
        <translation>最多</translation>
    </message>
    <message>
        <source>Packing</source>
        <translation>打包</translation>
    </message>
    <message>
        <source>Every point of the discretised space once.</source>
        <translation>离散化空间中的每个点各试一次。</translation>
    </message>
    <message>
        <source>Independent draws from each parameter&apos;s distribution.</source>
        <translation>从每个参数的分布中独立抽样。</translation>
    </message>
    <message>
        <source>After the start-up trials, proposes where good results are denser than bad ones.</source>
        <translation>在启动试验之后，在好结果比坏结果更密集的区域提出新的候选。</translation>
    </message>
    <message>
        <source>Trains trials with a small budget first and promotes the best 1/η of each rung to η times the budget; the others stop early.</source>
        <translation>先以较小预算训练试验，并将每个梯级中最好的 1/η 提升到 η 倍预算；其余试验提前停止。</translation>
    </message>
    <message>
        <source>Several ASHA brackets with different starting budgets, hedging against stopping too early.</source>
        <translation>多组起始预算不同的 ASHA，以降低过早停止的风险。</translation>
    </message>
    <message>
        <source>Several clusters: each trial goes where it is predicted to finish first, and trials move to the others when one cannot be reached</source>
        <translation>多个集群：每个试验分配到预计最先完成的集群；某个集群无法连接时，试验转到其他集群</translation>
    </message>
    <message>
        <source>Most trials queued or running on one cluster at once</source>
        <translation>单个集群上同时排队或运行的试验数上限</translation>
    </message>
    <message>
        <source>Run trials on</source>
        <translation>试验运行位置</translation>
    </message>
    <message>
        <source>Trials per cluster</source>
        <translation>每个集群的试验数</translation>
    </message>
    <message>
        <source>This computer</source>
        <translation>此计算机</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepTrialsModel</name>
    <message>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>正在停止</translation>
    </message>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Rung</source>
        <translation>梯级</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>优化目标</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>%1, moved from %2</source>
        <translation>%1（从 %2 迁移而来）</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepViewPage</name>
    <message>
        <source>Pause</source>
        <translation>暂停</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Promote best</source>
        <translation>采用最佳试验</translation>
    </message>
    <message>
        <source>Create a normal run from the best trial, with the full budget</source>
        <translation>用最佳试验创建一个使用完整预算的普通运行</translation>
    </message>
    <message>
        <source>Click a trial to open its run</source>
        <translation>点击试验以打开其运行</translation>
    </message>
    <message>
        <source>Sweep %1 has an invalid stored definition: %2</source>
        <translation>超参数搜索 %1 存储的定义无效：%2</translation>
    </message>
    <message>
        <source>Sweep %1: %2</source>
        <translation>超参数搜索 %1：%2</translation>
    </message>
    <message>
        <source>steps</source>
        <translation>步</translation>
    </message>
    <message>
        <source>epochs</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 of %4 trials (%5 running, %6 ended) · %7 %8 used</source>
        <translation>%1 · %2 · %3 / %4 个试验（%5 个运行中，%6 个已结束）· 已用 %7 %8</translation>
    </message>
    <message>
        <source> · best: trial %1, %2 = %3</source>
        <translation> · 最佳：试验 %1，%2 = %3</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>No trial of sweep %1 has a result yet.</source>
        <translation>超参数搜索 %1 的试验尚无结果。</translation>
    </message>
    <message>
        <source>Trial %1: %2</source>
        <translation>试验 %1：%2</translation>
    </message>
    <message>
        <source>%1 best (trial %2)</source>
        <translation>%1 最佳（试验 %2）</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>超参数搜索</translation>
    </message>
</context>
<context>
    <name>diamond::ui::sweep::SweepsPage</name>
    <message>
        <source>&amp;New sweep…</source>
        <translation>新建超参数搜索(&amp;N)…</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>打开(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Pause</source>
        <translation>暂停(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Algorithm</source>
        <translation>算法</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Trials</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>Best</source>
        <translation>最佳</translation>
    </message>
    <message>
        <source>Vary the network and run set-up on the canvas: learning rate, widths, batch size…</source>
        <translation>改变画布上的网络和运行设置：学习率、宽度、批大小…</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Sweeps&lt;/h2&gt;Hyper-parameter searches of this workspace. Each trial is a run; open a sweep to see its trials, plots and the best setting.</source>
        <translation>&lt;h2&gt;超参数搜索&lt;/h2&gt;本工作区的超参数搜索。每个试验都是一个运行；打开一个搜索可查看其试验、图表和最佳设置。</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>超参数搜索</translation>
    </message>
    <message>
        <source>Controlled by this window</source>
        <translation>由本窗口控制</translation>
    </message>
    <message numerus="yes">
        <source>%n sweep(s)</source>
        <translation><numerusform>%n 个超参数搜索</numerusform></translation>
    </message>
    <message>
        <source>&amp;Continue</source>
        <translation>继续(&amp;C)</translation>
    </message>
</context>
<context>
    <name>remote</name>
    <message>
        <source>cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Cannot reach cluster &apos;%1&apos;.</source>
        <translation>无法访问集群“%1”。</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接到 %1…</translation>
    </message>
    <message>
        <source>Cannot connect to %1.</source>
        <translation>无法连接到 %1。</translation>
    </message>
    <message>
        <source>Cluster &apos;%1&apos; has no batch scheduler Diamond can use (scheduler %2).</source>
        <translation>集群“%1”没有 Diamond 可用的批处理调度器（调度器 %2）。</translation>
    </message>
</context>
</TS>
