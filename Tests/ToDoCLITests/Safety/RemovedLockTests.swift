import Foundation
import TestSupport
import ToDoCore
import XCTest

/// A lock file removed while a change holds its lock (a temp cleaner, `rm *.lock`) lets a second
/// process take a lock of its own; the first must then not overwrite the change it did not read.
final class RemovedLockTests: BinaryTestCase {
    override var extraEnvironment: [String: String] { ["TODO_LOCK_TIMEOUT": "60"] }

    /// Whether some process holds the lock on `path` now (tried without waiting, and let go at once).
    private func isLocked(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return false
        }
        return true
    }

    func test_aWriterStoppedWhileItsLockFileIsRemoved_losesNoOtherChange() throws {
        // A list long enough that reading it under the lock takes a while in a debug build.
        let count = 8_000
        let items = (1...count).map { number in
            #"{"id":"\#(UUID().uuidString)","title":"Item \#(number)","done":false,"number":\#(number)}"#
        }
        try Data(#"{"version":1,"nextNumber":\#(count + 1),"items":[\#(items.joined(separator: ","))]}"#.utf8).write(
            to: fileURL)
        let lockPath = fileURL.path + ".lock"

        let first = try todo.start(["add", "from A"])
        var stopped = false
        for _ in 0..<200_000 where !stopped {
            if isLocked(lockPath) {
                kill(first.processIdentifier, SIGSTOP)
                stopped = true
            }
        }
        guard stopped, isLocked(lockPath) else {
            kill(first.processIdentifier, SIGCONT)
            _ = first.finish()
            throw XCTSkip("the first writer finished before it could be stopped holding the lock")
        }

        XCTAssertEqual(unlink(lockPath), 0)
        let second = try todo.run(["add", "from B"])
        XCTAssertEqual(second, Outcome(status: 0, stdout: "Added \(count + 1): from B\n", stderr: ""))
        kill(first.processIdentifier, SIGCONT)
        let firstOutcome = first.finish()

        XCTAssertEqual(
            firstOutcome, Outcome(status: 0, stdout: "Added \(count + 2): from A\n", stderr: ""),
            "A starts again on the list B left, instead of overwriting it")
        let store = JSONFileStore(fileURL: fileURL)
        XCTAssertEqual(Array(try store.load().allItems.suffix(2).map(\.title)), ["from B", "from A"])
        XCTAssertEqual(try store.history().entries.map(\.command), [["add", "from B"], ["add", "from A"]])
    }
}
