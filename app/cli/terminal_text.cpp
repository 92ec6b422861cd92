#include "terminal_text.h"

namespace diamond::cli {

namespace {

bool interpretedByTerminals(char16_t c) {
    if (c < 0x20) return c != u'\n' && c != u'\t';
    if (c >= 0x7f && c <= 0x9f) return true;     // DEL and the C1 controls (CSI, OSC, ...)
    if (c >= 0x202a && c <= 0x202e) return true; // bidirectional embeddings and overrides
    return (c >= 0x2066 && c <= 0x2069);         // bidirectional isolates
}

} // namespace

QString terminalSafe(const QString &text) {
    QString safe = text;
    for (QChar &c : safe)
        if (interpretedByTerminals(c.unicode())) c = QChar(QChar::ReplacementCharacter);
    return safe;
}

TerminalSafeOutput::TerminalSafeOutput(FILE *stream) : stream_(stream) {
    open(QIODevice::WriteOnly | QIODevice::Unbuffered);
}

qint64 TerminalSafeOutput::writeData(const char *data, qint64 size) {
    const QString text = decoder_.decode(QByteArrayView(data, size));
    const QByteArray safe = terminalSafe(text).toUtf8();
    if (!safe.isEmpty() && std::fwrite(safe.constData(), 1, size_t(safe.size()), stream_) != size_t(safe.size()))
        return -1;
    std::fflush(stream_);
    return size;
}

} // namespace diamond::cli
