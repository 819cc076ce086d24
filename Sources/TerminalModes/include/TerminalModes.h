#ifndef TODO_TERMINAL_MODES_H
#define TODO_TERMINAL_MODES_H

/// `todo ui`'s hold on the terminal, kept in C so that the signal handlers that put the terminal
/// back are safe to run whenever a signal comes (Swift code is not safe in a signal handler).
///
/// Saves the modes of the terminal on `input`, sets it raw (no echo, no line editing, no signals
/// from keys: Ctrl-C and Ctrl-Z arrive as keys), switches `output` to the alternate screen with the
/// cursor hidden, and installs handlers: SIGINT, SIGTERM, SIGHUP, SIGQUIT and the crash signals put
/// the terminal back and then take their usual course; SIGTSTP puts it back and stops; SIGCONT
/// sets it raw again. SIGWINCH and SIGCONT write their number to a pipe whose reading end is
/// returned, to be polled beside the input. Returns -1 and sets errno when the terminal's modes
/// cannot be read or set.
int todo_terminal_enter(int input, int output);

/// Puts the terminal back as `todo_terminal_enter` found it (modes, main screen, cursor shown)
/// and the signals' handlers as they were. Does nothing when it is not held.
void todo_terminal_leave(void);

/// Ctrl-Z: puts the terminal back and stops the process as the shell's job control expects; when
/// the process is continued, the terminal is raw again and the pipe says so (SIGCONT).
void todo_terminal_suspend(void);

#endif
