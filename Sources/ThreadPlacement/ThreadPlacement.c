// A long list's second half is read, measured and written on another thread while the first
// thread does the first half. Linux puts a new thread on the processor of the thread that made it
// unless another looks idle; a virtual machine's idle processor whose host has lent it out does
// not (the guest sees it as preempted), so the new thread waited for its maker to finish its half
// and block: two halves one after the other, on one processor, while the other stood idle
// (measured: 2 ms of 4 lost at each of a list's three steps). Here the new thread is placed on the
// other processors first, which wakes one, then allowed back on all of the caller's as soon as it
// runs, so that it may move as usual. Where the placement cannot be made (one processor allowed,
// more processors than a cpu_set_t holds, another C library), the thread starts as any would.
#define _GNU_SOURCE
#include "ThreadPlacement.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#if defined(__linux__) && defined(__GLIBC__)
#include <sched.h>
#define TODO_PLACES_THREADS 1
#endif

struct todo_thread_start {
    void *(*body)(void *);
    void *argument;
#ifdef TODO_PLACES_THREADS
    /// The processors the caller may run on, given back to the thread once it runs.
    cpu_set_t allowed;
    int placed;
#endif
};

static void *todo_thread_main(void *pointer) {
    struct todo_thread_start start = *(struct todo_thread_start *)pointer;
    free(pointer);
#ifdef TODO_PLACES_THREADS
    if (start.placed) pthread_setaffinity_np(pthread_self(), sizeof start.allowed, &start.allowed);
#endif
    return start.body(start.argument);
}

/// `placement`: the processors the thread may start on (a cpu_set_t), or NULL for any.
static int todo_create_detached(struct todo_thread_start *start, const void *placement) {
    pthread_attr_t attributes;
    int error = pthread_attr_init(&attributes);
    if (error != 0) return error;
    error = pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
#ifdef TODO_PLACES_THREADS
    if (error == 0 && placement != NULL) error = pthread_attr_setaffinity_np(&attributes, sizeof(cpu_set_t), placement);
#else
    (void)placement;
#endif
    pthread_t thread;
    if (error == 0) error = pthread_create(&thread, &attributes, todo_thread_main, start);
    pthread_attr_destroy(&attributes);
    return error;
}

int todo_start_thread(void *(*body)(void *), void *argument) {
    struct todo_thread_start *start = malloc(sizeof *start);
    if (start == NULL) return ENOMEM;
    start->body = body;
    start->argument = argument;
#ifdef TODO_PLACES_THREADS
    start->placed = 0;
    int processor = sched_getcpu();
    if (processor >= 0 && processor < CPU_SETSIZE && sched_getaffinity(0, sizeof start->allowed, &start->allowed) == 0
        && CPU_ISSET(processor, &start->allowed)) {
        cpu_set_t others = start->allowed;
        CPU_CLR(processor, &others);
        if (CPU_COUNT(&others) > 0) {
            start->placed = 1;
            if (todo_create_detached(start, &others) == 0) return 0;
            // Placement refused: made as any thread is.
            start->placed = 0;
        }
    }
#endif
    int error = todo_create_detached(start, NULL);
    if (error != 0) free(start);
    return error;
}
