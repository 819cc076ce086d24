#ifndef TODO_THREAD_PLACEMENT_H
#define TODO_THREAD_PLACEMENT_H

/// Starts a detached thread that runs `body(argument)`, placed at first on a processor other than
/// the calling thread's when it may run on another, and allowed on all of the caller's once it
/// runs. Returns 0, or the error number of a thread that could not be made.
int todo_start_thread(void *(*body)(void *), void *argument);

#endif
