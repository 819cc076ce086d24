#include "TerminalModes.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static struct termios saved_modes;
static int input_descriptor = -1, output_descriptor = -1;
static int wake_read = -1, wake_write = -1;
static volatile sig_atomic_t held = 0;

/// The alternate screen with the cursor hidden, and back: the main screen as it was, the cursor
/// shown, every decoration ended.
/// Bracketed paste too, so that pasted text is not read as keys.
static const char enter_screen[] = "\033[?1049h\033[?25l\033[?2004h";
static const char leave_screen[] = "\033[?2004l\033[0m\033[?25h\033[?1049l";

/// Every signal whose usual course ends the process.
static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT,
                                     SIGFPE, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF};
#define ENDING_COUNT (sizeof ending_signals / sizeof ending_signals[0])
static struct sigaction previous_ending[ENDING_COUNT];
static struct sigaction previous_stop, previous_continue, previous_resize;

static void write_all(int descriptor, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(descriptor, bytes, count);
        if (written < 0) {
            if (errno == EINTR) continue;
            return;
        }
        bytes += written;
        count -= (size_t)written;
    }
}

/// Raw mode: bytes as they are typed, no echo, no signals from keys, output still post-processed.
static int set_raw(void) {
    struct termios raw = saved_modes;
    raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
    raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
    raw.c_cflag |= CS8;
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(input_descriptor, TCSADRAIN, &raw) != 0) return -1;
    write_all(output_descriptor, enter_screen, sizeof enter_screen - 1);
    held = 1;
    return 0;
}

static void put_back(void) {
    if (!held) return;
    held = 0;
    write_all(output_descriptor, leave_screen, sizeof leave_screen - 1);
    tcsetattr(input_descriptor, TCSADRAIN, &saved_modes);
}

static void wake(int signal_number) {
    int saved_errno = errno;
    unsigned char byte = (unsigned char)signal_number;
    // The pipe does not block: a full one already holds a wake-up.
    (void)!write(wake_write, &byte, 1);
    errno = saved_errno;
}

static void on_ending(int signal_number) {
    int saved_errno = errno;
    put_back();
    // The signal's usual course (the handler before todo's: the Swift runtime's backtracer, or
    // the default), once this handler returns and the signal is no longer blocked.
    for (size_t index = 0; index < ENDING_COUNT; index++) {
        if (ending_signals[index] == signal_number) sigaction(signal_number, &previous_ending[index], NULL);
    }
    raise(signal_number);
    errno = saved_errno;
}

static void on_stop(int signal_number) {
    int saved_errno = errno;
    put_back();
    signal(SIGTSTP, SIG_DFL);
    raise(SIGTSTP);
    errno = saved_errno;
    (void)signal_number;
}

static void install(int signal_number, void (*handler)(int), struct sigaction *previous) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    // Not SA_RESTART: a wake-up should end the wait for a key at once.
    sigaction(signal_number, &action, previous);
}

static void on_continue(int signal_number) {
    int saved_errno = errno;
    install(SIGTSTP, on_stop, NULL);
    if (!held && input_descriptor >= 0) set_raw();
    wake(signal_number);
    errno = saved_errno;
}

int todo_terminal_enter(int input, int output) {
    if (held) return wake_read;
    if (tcgetattr(input, &saved_modes) != 0) return -1;
    int pipe_ends[2];
    if (pipe(pipe_ends) != 0) return -1;
    for (int index = 0; index < 2; index++) {
        fcntl(pipe_ends[index], F_SETFD, FD_CLOEXEC);
        fcntl(pipe_ends[index], F_SETFL, fcntl(pipe_ends[index], F_GETFL) | O_NONBLOCK);
    }
    wake_read = pipe_ends[0];
    wake_write = pipe_ends[1];
    input_descriptor = input;
    output_descriptor = output;
    for (size_t index = 0; index < ENDING_COUNT; index++) {
        install(ending_signals[index], on_ending, &previous_ending[index]);
        // A signal the process ignores (SIGPIPE, often) stays ignored: it ends nothing.
        if (previous_ending[index].sa_handler == SIG_IGN) sigaction(ending_signals[index], &previous_ending[index], NULL);
    }
    install(SIGTSTP, on_stop, &previous_stop);
    install(SIGCONT, on_continue, &previous_continue);
    install(SIGWINCH, wake, &previous_resize);
    if (set_raw() != 0) {
        int saved_errno = errno;
        todo_terminal_leave();
        close(wake_read);
        close(wake_write);
        wake_read = wake_write = -1;
        errno = saved_errno;
        return -1;
    }
    return wake_read;
}

void todo_terminal_leave(void) {
    if (input_descriptor < 0) return;
    put_back();
    for (size_t index = 0; index < ENDING_COUNT; index++) {
        sigaction(ending_signals[index], &previous_ending[index], NULL);
    }
    sigaction(SIGTSTP, &previous_stop, NULL);
    sigaction(SIGCONT, &previous_continue, NULL);
    sigaction(SIGWINCH, &previous_resize, NULL);
    input_descriptor = -1;
}

void todo_terminal_suspend(void) {
    raise(SIGTSTP);
    // Back here without a stop: the kernel drops a stop for a process no shell controls (a
    // terminal started as `xterm -e todo ui`); the terminal is taken again at once.
    if (!held && input_descriptor >= 0) {
        install(SIGTSTP, on_stop, NULL);
        set_raw();
    }
}
