// tuneAllocator: after it, blocks of a few MB come from malloc's heap, not from fresh mmaps, and
// are reused rather than returned to the system when freed.
#include "trainer.h"

#include <QtTest>

#include <cstdlib>
#include <malloc.h>

using namespace diamond::engine;

class TestAllocatorTuning : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void blocksOfMegabytesStayInTheHeap() {
        constexpr std::size_t kBlock = std::size_t(8) << 20; // glibc's default threshold: 128 KB
        tuneAllocator();
        const struct mallinfo2 before = mallinfo2();
        void *block = std::malloc(kBlock);
        QVERIFY(block != nullptr);
        static_cast<volatile char *>(block)[kBlock - 1] = 1;
        const struct mallinfo2 during = mallinfo2();
        QCOMPARE(during.hblks, before.hblks);               // not a block of its own (mmap)
        QVERIFY(during.arena >= before.arena + kBlock / 2); // but heap memory
        std::free(block);
        const struct mallinfo2 after = mallinfo2();
        QVERIFY(after.arena >= before.arena + kBlock / 2); // kept for the next step, not trimmed
    }
};

QTEST_GUILESS_MAIN(TestAllocatorTuning)
#include "tst_allocator_tuning.moc"
