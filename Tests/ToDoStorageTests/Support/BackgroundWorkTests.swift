import Dispatch
import Foundation
import TestSupport
import ToDoModel
import XCTest

@testable import ToDoStorage

final class BackgroundWorkTests: XCTestCase {
    func test_inTwoHalves_coversTheRangeInOrder() {
        XCTAssertEqual(BackgroundWork.inTwoHalves(10, minimumCount: 2) { $0 }, [0..<5, 5..<10])
        XCTAssertEqual(BackgroundWork.inTwoHalves(10, minimumCount: 11) { $0 }, [0..<10])
        XCTAssertEqual(BackgroundWork.inTwoHalves(1, minimumCount: 0) { $0 }, [0..<1])
        XCTAssertEqual(BackgroundWork.inTwoHalves(0, minimumCount: 0) { $0 }, [0..<0])
    }

    /// The caller never takes a result before the other thread has let go of the work: once, that
    /// race stopped `todo add -` (a closure that `withoutActuallyEscaping` found still held).
    func test_manyShortHalves_finishCleanly() {
        var total = 0
        let rounds = TestRun.rounds(20_000)
        for index in 0..<rounds {
            let halves = BackgroundWork.inTwoHalves(2, minimumCount: 2) { range in range.lowerBound + index }
            total += halves[0] + halves[1] - 2 * index
        }
        XCTAssertEqual(total, rounds)
    }
}

/// Work the other thread has not begun when its result is asked for is done by the caller; a
/// thread that begins after that, or after the work was let go, does nothing.
final class BackgroundWorkClaimTests: XCTestCase {
    /// A thread made but held back until `release` is called (as a busy machine might hold it).
    private final class HeldThread: @unchecked Sendable {
        var body: (@Sendable () -> Void)?
        func start(_ body: @escaping @Sendable () -> Void) -> Bool {
            self.body = body
            return true
        }
        func release() {
            let done = DispatchSemaphore(value: 0)
            let body = self.body
            XCTAssertTrue(
                startThread {
                    body?(); done.signal()
                })
            done.wait()
        }
    }

    func test_workNotBegunByTheThread_isDoneByTheCaller_once() {
        let held = HeldThread()
        let runs = Counter()
        let work = BackgroundWork(
            {
                runs.add(); return 42
            }, startThread: held.start)
        XCTAssertEqual(work.result(), 42)
        XCTAssertEqual(work.result(), 42)
        held.release()
        XCTAssertEqual(runs.value, 1)
    }

    func test_workLetGoBeforeTheThreadBegins_isNeverDone() {
        let held = HeldThread()
        let runs = Counter()
        let work = BackgroundWork(
            {
                runs.add(); return 1
            }, startThread: held.start)
        work.cancel()
        held.release()
        XCTAssertEqual(runs.value, 0)
    }

    func test_workBegunByTheThread_isWaitedFor() {
        let runs = Counter()
        let begun = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0)
        let work = BackgroundWork { () -> Int in
            begun.signal()
            proceed.wait()
            runs.add()
            return 7
        }
        begun.wait()
        proceed.signal()
        XCTAssertEqual(work.result(), 7)
        XCTAssertEqual(runs.value, 1)
    }

    /// Where no thread can be made, the work is done at once.
    func test_workWithoutAThread_isDoneAtOnce() {
        let runs = Counter()
        let work = BackgroundWork(
            {
                runs.add(); return 3
            }, startThread: { _ in false })
        XCTAssertEqual(runs.value, 1)
        XCTAssertEqual(work.result(), 3)
    }

    #if os(Linux)
    /// A thread starts on another processor than its maker's, then may run on all of the maker's.
    func test_aStartedThread_mayRunWhereItsMakerMay() throws {
        func allowed() -> String? {
            guard let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8) else {
                return nil
            }
            return status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }.map(String.init)
        }
        let maker = try XCTUnwrap(allowed())
        for _ in 0..<20 {
            // Waited for once begun, so that the thread, not the caller, does it.
            let begun = DispatchSemaphore(value: 0)
            let work = BackgroundWork { () -> String? in
                begun.signal()
                return allowed()
            }
            begun.wait()
            XCTAssertEqual(work.result(), maker)
        }
    }
    #endif

    private final class Counter: @unchecked Sendable {
        private let lock = DispatchSemaphore(value: 1)
        private var count = 0
        func add() {
            lock.wait()
            count += 1
            lock.signal()
        }
        var value: Int {
            lock.wait()
            defer { lock.signal() }
            return count
        }
    }
}
