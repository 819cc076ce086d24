#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import ToDoModel

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
/// anything the work reads goes away (its buffers are borrowed, not owned).
package final class BackgroundWork<Result>: @unchecked Sendable {
    // `work` is run once, then `outcome` is set and `work` let go, all before `finished` is
    // signalled; the caller reads `outcome` only after waiting for that, once (`hasWaited`, which
    // only the caller touches). Reading `outcome` sooner would race, and could return while the
    // thread still holds `work`, a closure `inTwoHalves` must see let go.
    private var work: (() -> Result)?
    private var outcome: Result?
    private let finished = DispatchSemaphore(value: 0)
    private var hasWaited = false

    package init(_ work: @escaping () -> Result) {
        self.work = work
        // Where no thread can be made (a limit on processes, say), the work is done here and now.
        if !startThread({ self.run() }) { run() }
    }

    private func run() {
        outcome = work?()
        work = nil
        finished.signal()
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

    /// Waits for the work to end and returns what it gave; at once when it has already ended.
    package func result() -> Result {
        if !hasWaited {
            finished.wait()
            hasWaited = true
        }
        return outcome!
    }
}

/// Runs `body` on a new thread, and returns false when no thread could be made. Foundation's
/// `Thread.start()` gives no sign of that, and a thread that never runs would be waited for
/// forever.
private func startThread(_ body: @escaping () -> Void) -> Bool {
    let start = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    let created = pthread_create(&thread, nil, { start in
        Unmanaged<ThreadBody>.fromOpaque(start).takeRetainedValue().body()
        return nil
    }, start)
    #else
    var thread = pthread_t()
    let created = pthread_create(&thread, nil, { start in
        start.map { Unmanaged<ThreadBody>.fromOpaque($0).takeRetainedValue().body() }
        return nil
    }, start)
    #endif
    guard created == 0 else {
        Unmanaged<ThreadBody>.fromOpaque(start).release()
        return false
    }
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
    return true
}

/// What a new thread runs, passed to it as a pointer.
private final class ThreadBody {
    package let body: () -> Void

    package init(_ body: @escaping () -> Void) {
        self.body = body
    }
}
