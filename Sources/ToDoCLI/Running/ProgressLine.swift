import Dispatch
import ToDoCore

/// How far long work has come (a first sync of a thousand items, a large import), on one line of
/// standard error redrawn in place: only when standard error is a terminal, never under `--json`
/// and never in a pipe, so that scripts see nothing of it.
final class ProgressLine {
    private let output: TextOutput
    private let verb: String
    /// When the line was last drawn, in nanoseconds: it is redrawn at most ten times a second.
    private var drawnAt: UInt64 = 0
    private var width = 0

    /// A progress line for `verb` ("Sending"), or `nil` where none is shown.
    init?(_ context: Context, verb: String, json: Bool) {
        guard !json, context.errorOutput.isTerminal else { return nil }
        output = context.errorOutput
        self.verb = verb
    }

    /// Says that `done` of `total` are done: `Sending 120 of 1000…`.
    func update(_ done: Int, of total: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard done == total || now - drawnAt >= 100_000_000 else { return }
        drawnAt = now
        let text = "\(verb) \(done) of \(total)…"
        output.write("\r" + text + String(repeating: " ", count: max(width - text.count, 0)))
        output.flush()
        width = text.count
    }

    /// Takes the line away, so that what follows starts on a clean line.
    func finish() {
        guard width > 0 else { return }
        output.write("\r" + String(repeating: " ", count: width) + "\r")
        output.flush()
        width = 0
    }
}
