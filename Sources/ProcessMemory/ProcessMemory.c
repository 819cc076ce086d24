// A process reading a list of 100,000 items spent a fifth of its time in the kernel, faulting in
// 4 KB pages one at a time: the list's text, the items, the rows. glibc's allocator gives each
// allocation over 128 KB pages of its own (mmap) and returns them on free, so an array that grows
// faults in fresh pages at every step. Here large allocations come from the heap instead, the heap
// grows in 128 MB steps of address space (only pages touched are used), nothing is given back
// before exit, and the heap is marked for transparent huge pages, so that one fault brings 2 MB.
// What glibc's tunables glibc.malloc.hugetlb=1, mmap_threshold, trim_threshold and top_pad do,
// set from inside the process.
#include "ProcessMemory.h"
// Any C library header says which library it is.
#include <stdlib.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

// A long list is mapped, not read (OwnedBytes.init(mapping:count:)). todo only ever replaces
// a list by renaming, and never writes into a file someone has mapped; but another program may
// cut the file short in place meanwhile, and touching a page past its new end raises SIGBUS. That
// is an unreadable list, said as such, with its exit code (ExitCode.unreadableStore), not a crash.
// A change stopped here is a change stopped at any moment: the list is as it was, or as the change
// left it, never half written (docs/data-safety.md).
// Two threads may touch lost pages at once (a long list is scanned in two halves): the first says
// it and exits; any other waits for that exit, so that the error is said once, and always said.
static atomic_flag todo_cut_short_reported = ATOMIC_FLAG_INIT;

static void todo_mapped_file_cut_short(int signal) {
    (void)signal;
    if (atomic_flag_test_and_set(&todo_cut_short_reported)) {
        for (;;) pause();
    }
    static const char message[] = "Error: the list's file was cut short by another program while todo read it; "
                                  "todo stopped, no change was half made: run the command again\n";
    ssize_t written = write(STDERR_FILENO, message, sizeof message - 1);
    (void)written;
    _exit(4);
}

void todo_report_mapped_files_cut_short(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = todo_mapped_file_cut_short;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, NULL);
}

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void todo_prepare_process_memory(void) {
    const uintptr_t hugePage = (uintptr_t)2 << 20;
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 512 << 20);
    mallopt(M_TOP_PAD, 128 << 20);
    // Threads allocate from the same heap, so that what they build (the second half of a list)
    // is in huge pages too; they allocate little, and seldom at once.
    mallopt(M_ARENA_MAX, 1);
    // An allocation larger than what is left of the heap makes it grow by the new step now.
    // (Through a volatile pointer: a compiler may drop an allocation that is freed unused.)
    uintptr_t before = (uintptr_t)sbrk(0);
    void *volatile grown = malloc(1 << 20);
    free(grown);
    uintptr_t after = (uintptr_t)sbrk(0);
    if (before == (uintptr_t)-1 || after == (uintptr_t)-1) return;
    uintptr_t start = (before + hugePage - 1) & ~(hugePage - 1);
    // Only advice: where huge pages are off, or the call fails, pages are as before.
    if (after > start) madvise((void *)start, after - start, MADV_HUGEPAGE);
}
#else
void todo_prepare_process_memory(void) {}
#endif
