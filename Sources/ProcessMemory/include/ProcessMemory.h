#ifndef TODO_PROCESS_MEMORY_H
#define TODO_PROCESS_MEMORY_H

/// Sets up the C library's allocator for a short process that reads a large list: memory is taken
/// from the heap in large steps, over which the kernel is asked for huge pages, and kept until the
/// process ends. Call first thing in `main`; does nothing where the C library is not glibc.
void todo_prepare_process_memory(void);

/// Reports a long list's file cut short by another program while todo has it mapped (SIGBUS) as an
/// unreadable list: a message on standard error and exit code 4. Call first thing in `main`.
void todo_report_mapped_files_cut_short(void);

#endif
