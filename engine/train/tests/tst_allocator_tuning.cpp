// tuneAllocator: after it, blocks of a few MB and of hundreds of MB come from malloc's heap, not from fresh mmaps,
// and are reused rather than returned to the system when freed.
#include "trainer.h"

#include <QtTest>

#include <cstdlib>
#include <malloc.h>

using namespace diamond::engine;

class TestAllocatorTuning : public QObject {
    Q_OBJECT

    /// A block of `bytes` is heap memory, not an mmap of its own, and stays mapped once freed.
    static void staysInTheHeap(std::size_t bytes) {
        tuneAllocator();
        const struct mallinfo2 before = mallinfo2();
        void *block = std::malloc(bytes);
        QVERIFY(block != nullptr);
        static_cast<volatile char *>(block)[bytes - 1] = 1;
        const struct mallinfo2 during = mallinfo2();
        QCOMPARE(during.hblks, before.hblks);              // glibc's default: an mmap of its own, unmapped when freed
        QVERIFY(during.arena >= before.arena + bytes / 2); // but heap memory
        std::free(block);
        const struct mallinfo2 after = mallinfo2();
        QVERIFY(after.arena >= before.arena + bytes / 2); // kept for the next step, not trimmed
        void *again = std::malloc(bytes);                 // and reused
        QVERIFY(again != nullptr);
        QVERIFY(mallinfo2().arena <= after.arena + (std::size_t(1) << 20));
        std::free(again);
    }

private Q_SLOTS:
    void blocksOfMegabytesStayInTheHeap() { staysInTheHeap(std::size_t(8) << 20); } // glibc's default: 128 KB
    /// Larger than glibc's largest mmap threshold (32 MB): a batch-1024 convolution's output.
    void blocksAboveTheMmapThresholdStayInTheHeap() { staysInTheHeap(std::size_t(96) << 20); }
};

QTEST_GUILESS_MAIN(TestAllocatorTuning)
#include "tst_allocator_tuning.moc"
