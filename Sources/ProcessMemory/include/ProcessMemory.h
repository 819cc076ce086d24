#ifndef TODO_PROCESS_MEMORY_H
#define TODO_PROCESS_MEMORY_H

/// Sets up the C library's allocator for a short process that reads a large list: memory is taken
/// from the heap in large steps, over which the kernel is asked for huge pages, and kept until the
/// process ends. Call first thing in `main`; does nothing where the C library is not glibc.
void todo_prepare_process_memory(void);

#endif
