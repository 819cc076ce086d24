import Dispatch
import ThreadPlacement
import ToDoModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where todo uses a second core, and from what size on: below these, starting a thread costs more
/// than it saves. Where no thread can be made (a limit on processes, say), the work is done on
/// this one (`BackgroundWork`), which starts every thread todo starts. Measured, not guessed:
/// `Benchmarks/run` shows what each saves.
package enum Parallelism {
    /// Files from this size on are read in two halves at once (`FileSystem.readInTwoHalves`).
    package static let readFileInTwoHalvesMinimumBytes = 1 << 20
    /// Lists from this size on have the items of their second half read on another core
    /// (`BackgroundItemScan`).
    package static let readItemsInTwoHalvesMinimumBytes = 256 * 1024
    /// Lists of this many open items or more have the keys of their titles gathered in two halves
    /// at once, the first time a title is checked against them (`TitleKeySet`).
    package static let gatherTitleKeysInTwoHalvesMinimumCount = 4_096
    /// Lists of this many items or more have their work done in two halves at once: the index's
    /// records checked (`ListIndex.items`) and the items made from them (`StoredItemArray.array`),
    /// the dues read and placed for the agenda (`Agenda`), the rows measured and written
    /// (`ListRenderer`).
    package static let itemsInTwoHalvesMinimumCount = 2_000
    // Besides: a change's journal entry is flushed to disk on another core while the list is
    // written (`ChangeJournal`), whatever its size.

}

/// Work done on another thread while this one goes on: the second core of a machine is otherwise
/// idle while a long list is read. `result()` waits for the work to end, and must be called before
/// anything the work reads goes away (its buffers are borrowed, not owned). Work the other thread
/// has not begun by then is done by the caller instead: a thread that could not start at once
/// (every other processor busy) costs no wait.
package final class BackgroundWork<Result>: @unchecked Sendable {
    // `work` is run once, by whichever of the two threads takes `claim` first (a semaphore of one,
    // taken without waiting). When the other thread takes it, it sets `outcome` and lets `work` go,
    // all before `finished` is signalled, and the caller reads `outcome` only after waiting for
    // that, once (`hasWaited`, which only the caller touches): reading it sooner would race, and
    // could return while the thread still holds `work`, a closure `inTwoHalves` must see let go.
    // When the caller takes it, it runs `work` itself, and the thread, finding `claim` taken,
    // touches nothing else.
    private var work: (() -> Result)?
    private var outcome: Result?
    private let claim = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var hasWaited = false

    /// Starts `work` on another thread; `startThread` makes the thread, and says whether it could
    /// (tests hold a thread back).
    package init(_ work: @escaping () -> Result, startThread: (@escaping @Sendable () -> Void) -> Bool = startThread) {
        self.work = work
        // Made at zero then raised to one: a semaphore must not go below the value it was made with.
        claim.signal()
        // Where no thread can be made (a limit on processes, say), the work is done here and now.
        if !startThread({ self.runUnlessClaimed() }) { settle(running: true) }
    }

    /// On the other thread.
    private func runUnlessClaimed() {
        guard claim.wait(timeout: .now()) == .success else { return }
        outcome = work?()
        work = nil
        finished.signal()
    }

    /// On the caller's thread, once: takes the claim when the other thread has not, and runs the
    /// work here (`running`) or lets it go; else waits for the other thread to end it.
    private func settle(running: Bool) {
        guard !hasWaited else { return }
        if claim.wait(timeout: .now()) == .success {
            if running { outcome = work?() }
            work = nil
        } else {
            finished.wait()
        }
        hasWaited = true
    }

    /// Lets the work go undone when the other thread has not begun it, else waits for it to end;
    /// there is no result after this. For a caller that no longer needs it, whose buffers are
    /// about to go.
    package func cancel() {
        settle(running: false)
    }

    /// `work` applied to two halves of `0..<count`, the second on another thread, when `count`
    /// is at least `minimumCount`; else to the whole at once. The results in order.
    package static func inTwoHalves(_ count: Int, minimumCount: Int, _ work: (Range<Int>) -> Result) -> [Result] {
        guard count >= max(minimumCount, 2) else { return [work(0..<count)] }
        let middle = count / 2
        // The other thread is waited for before returning, so `work` does not outlive the call.
        return withoutActuallyEscaping(work) { work in
            let second = BackgroundWork { work(middle..<count) }
            let first = work(0..<middle)
            return [first, second.result()]
        }
    }

    /// Waits for the work to end and returns what it gave; at once when it has already ended. Work
    /// the other thread has not begun is done here.
    package func result() -> Result {
        settle(running: true)
        return outcome!
    }
}

/// Runs `body` on a new thread (started on another processor, `todo_start_thread`), and returns
/// false when no thread could be made. Foundation's `Thread.start()` gives no sign of that, and a
/// thread that never runs would be waited for forever.
package func startThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    let start = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    let created = todo_start_thread(
        { start in
            start.map { Unmanaged<ThreadBody>.fromOpaque($0).takeRetainedValue().body() }
            return nil
        }, start)
    guard created == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(start).release()
        return false
    }
    return true
}

/// What a new thread runs, passed to it as a pointer.
private final class ThreadBody {
    package let body: () -> Void

    package init(_ body: @escaping () -> Void) {
        self.body = body
    }
}
