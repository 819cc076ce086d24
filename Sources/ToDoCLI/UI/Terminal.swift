import TerminalModes

import enum ToDoStorage.FileSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `todo ui` waits for: keys typed, the terminal resized or continued after a stop, or a
/// while without either.
struct TerminalEvents: Equatable {
    var input: [UInt8] = []
    /// The window changed size (SIGWINCH), or the process was continued after Ctrl-Z (SIGCONT):
    /// the screen is drawn again whole.
    var mustRedraw = false
    /// Standard input reached its end or failed: there will be no more keys.
    var inputEnded = false
}

/// The terminal `todo ui` runs on: standard input raw, standard output on the alternate screen,
/// both put back on every way out (`TerminalModes.c`, whose signal handlers do it even when the
/// process is killed or stopped).
final class Terminal {
    private let wake: Int32
    private var left = false

    /// Takes the terminal; refused (with the reason) when its modes cannot be set.
    init() throws(CommandError) {
        let descriptor = todo_terminal_enter(0, 1)
        guard descriptor >= 0 else {
            throw CommandError(
                .failure, "cannot set the terminal's modes: \(String(cString: strerror(errno)))")
        }
        wake = descriptor
    }

    deinit { leave() }

    /// The window's size in columns and rows (standard output's terminal); 80×24 when it does not say.
    static var windowSize: (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return (80, 24) }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Waits for keys or a signal's wake-up, at most `timeout` milliseconds; nothing runs meanwhile.
    func wait(milliseconds timeout: Int32) -> TerminalEvents {
        var events = TerminalEvents()
        var watched = [
            pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        ]
        let ready = poll(&watched, 2, timeout)
        guard ready > 0 else { return events }
        var chunk = [UInt8](repeating: 0, count: 4096)
        if watched[1].revents != 0 {
            // Each byte is a signal's number; what matters is that one came.
            while FileSystem.readSome(wake, into: &chunk) > 0 {}
            events.mustRedraw = true
        }
        if watched[0].revents & Int16(POLLIN) != 0 {
            let count = FileSystem.readSome(0, into: &chunk)
            if count > 0 {
                events.input = Array(chunk[..<count])
            } else if count == 0 || errno != EINTR && errno != EAGAIN {
                events.inputEnded = true
            }
        } else if watched[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
            events.inputEnded = true
        }
        return events
    }

    /// Writes `bytes` whole to the screen.
    func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = FileSystem.writeSome(bytes, from: offset, to: 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            offset += count
        }
    }

    /// Ctrl-Z: the terminal as it was, the process stopped; it returns once continued, raw again.
    func suspend() {
        todo_terminal_suspend()
    }

    /// Puts the terminal back; once.
    func leave() {
        guard !left else { return }
        left = true
        todo_terminal_leave()
    }
}
