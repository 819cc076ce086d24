import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

/// Several `todo` processes on one file at once: every command that succeeded has its effect in
/// the end, no number is given twice, readers never see a half-written file, and a lock held too
/// long makes others fail after a bounded wait instead of hanging.
final class ConcurrencyTests: BinaryTestCase {
    override var extraEnvironment: [String: String] { ["TODO_LOCK_TIMEOUT": "60"] }

    /// What one worker's commands did to one of its items.
    struct Expectation: Equatable {
        var number: Int
        var title: String
        var done: Bool
        var removed: Bool
    }

    func test_eightProcessesAddingCheckingEditingAndRemoving_loseNothing() throws {
        let workers = 8, rounds = 15
        let log = SharedLog<String>()
        let expectations = SharedLog<Expectation>()
        let writersDone = SharedLog<Bool>()
        let readsDone = SharedLog<Int>()
        let todo = self.todo!

        // Readers run beside the writers; each read must parse.
        let reader = Thread {
            var reads = 0
            while writersDone.count == 0 || reads < 10 {
                guard let outcome = try? todo.run(["list", "--json"]) else { continue }
                if outcome.status != 0 || (try? JSONValue(parsing: Array(outcome.stdout.utf8))) == nil {
                    log.append("a reader saw: \(outcome)")
                }
                reads += 1
            }
            readsDone.append(reads)
        }
        reader.start()

        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for round in 0..<rounds {
                let title = "worker \(worker) round \(round)"
                do {
                    let added = try todo.run(["add", title, "--json"])
                    guard added.status == 0, case .object(let item) = try JSONValue(parsing: Array(added.stdout.utf8)),
                        case .number(let literal)? = item["number"], let number = Int(literal)
                    else { log.append("add: \(added)"); continue }
                    var expected = Expectation(number: number, title: title, done: false, removed: false)

                    let edited = try todo.run(["edit", String(number), "--title", title + " edited"])
                    if edited.status == 0 { expected.title += " edited" } else { log.append("edit: \(edited)") }
                    if round % 2 == 0 {
                        let checked = try todo.run(["check", String(number)])
                        if checked.status == 0 { expected.done = true } else { log.append("check: \(checked)") }
                    }
                    if round % 3 == 2 {
                        let removed = try todo.run(["remove", String(number)])
                        if removed.status == 0 { expected.removed = true } else { log.append("remove: \(removed)") }
                    }
                    expectations.append(expected)
                } catch {
                    log.append("\(error)")
                }
            }
        }
        writersDone.append(true)
        while readsDone.count == 0 { usleep(10_000) }

        XCTAssertEqual(log.all, [])
        let all = expectations.all
        XCTAssertEqual(all.count, workers * rounds)
        XCTAssertEqual(Set(all.map(\.number)).count, all.count, "a number was given twice")
        XCTAssertEqual(Set(all.map(\.number)), Set(1...(workers * rounds)))

        let manager = try JSONFileStore(fileURL: directory.file("items.json")).load()
        let kept = all.filter { !$0.removed }
        XCTAssertEqual(manager.allItems.count, kept.count)
        for expected in kept {
            let item = manager.item(withNumber: expected.number)
            XCTAssertEqual(item?.title, expected.title)
            XCTAssertEqual(item?.done, expected.done, expected.title)
        }
        XCTAssertEqual(manager.nextNumber, workers * rounds + 1)
        XCTAssertEqual(try directory.contents(), storeFiles())
    }

    func test_aLockHeldTooLong_makesEveryWaitingProcessFailWithAClearMessage() throws {
        XCTAssertEqual(try todo.run(["add", "A"]).status, 0)
        let before = try Data(contentsOf: directory.file("items.json"))
        let lockPath = directory.file("items.json.lock").path
        let descriptor = open(lockPath, O_RDWR)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        var waiting = todo!
        waiting.environment["TODO_LOCK_TIMEOUT"] = "1"
        waiting.timeout = 30

        let outcomes = try (0..<8).map { index in try waiting.start(["add", "B\(index)"]) }.map { $0.finish() }

        for outcome in outcomes {
            XCTAssertEqual(
                outcome,
                Outcome(
                    status: 1, stdout: "",
                    stderr: """
                        Error: another todo process is changing the list (it has held \(lockPath) for more than 1 second); nothing was changed, try again

                        """))
        }
        XCTAssertEqual(try Data(contentsOf: directory.file("items.json")), before)
        XCTAssertEqual(try todo.run(["list"]).stdout, "1 [ ] A\n", "readers do not wait for the lock")
    }
}
