import Foundation

/// Work done on another thread while this one goes on: the second core of a machine is otherwise
/// idle while a long list is read. `result()` waits for the work to end, and must be called before
/// anything the work reads goes away (its buffers are borrowed, not owned).
final class BackgroundWork<Result>: @unchecked Sendable {
    // `work` is run once, then `outcome` is set, both before `finished` is signalled; `outcome` is
    // read only after waiting for it.
    private var work: (() -> Result)?
    private var outcome: Result?
    private let finished = DispatchSemaphore(value: 0)

    init(_ work: @escaping () -> Result) {
        self.work = work
        Thread { [self] in
            outcome = self.work?()
            self.work = nil
            finished.signal()
        }.start()
    }

    /// Waits for the work to end and returns what it gave; at once when it has already ended.
    func result() -> Result {
        if let outcome { return outcome }
        finished.wait()
        return outcome!
    }
}
