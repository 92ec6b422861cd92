// What diamondctl writes to a terminal. Text from packages, clusters and engines is untrusted: an escape sequence
// in a model title or a job's output could retitle the terminal, hide lines, plant a clickable link or, on some
// terminals, inject input. Every byte diamondctl prints goes through TerminalSafeOutput, which replaces control
// characters (C0 except tab and newline, DEL, C1) and bidirectional overrides with U+FFFD. JSON output escapes
// control characters itself and passes unchanged.
#pragma once

#include <QIODevice>
#include <QString>
#include <QStringDecoder>

#include <cstdio>

namespace diamond::cli {

/// `text` with every character a terminal would interpret (see the file comment) replaced by U+FFFD.
QString terminalSafe(const QString &text);

/// A write-only device over a C stream that passes UTF-8 text through terminalSafe(); multi-byte sequences split
/// across writes are kept whole.
class TerminalSafeOutput : public QIODevice {
public:
    explicit TerminalSafeOutput(FILE *stream);

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override;

private:
    FILE *stream_;
    QStringDecoder decoder_{QStringDecoder::Utf8};
};

} // namespace diamond::cli
