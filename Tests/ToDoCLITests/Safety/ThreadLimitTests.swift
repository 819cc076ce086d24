import Foundation
import TestSupport
import ToDoCore
import ToDoModel
import XCTest

/// A long list is read, listed and changed on two cores. Where no thread can be made (a limit on
/// processes, as in a container at its limit), todo does the work on one, with the same result,
/// instead of waiting for a thread that never runs.
final class ThreadLimitTests: XCTestCase {
    func test_withNoThreadsAllowed_aLongListIsStillReadListedAndChanged() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else {
            throw XCTSkip("prlimit is not installed")
        }
        let temporary = try TemporaryDirectory()
        let directory = temporary.file("list")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let fileURL = directory.appendingPathComponent("items.json")
        // Long enough for every part done in two halves: reading the file and its items, the
        // list's rows, and the open titles' keys when adding.
        try JSONFileStore(fileURL: fileURL).update { manager in
            for index in 0..<6_000 {
                let item = try manager.add(
                    ToDoItem(
                        title: "Item \(index) with a title of some length", itemDescription: "A few words more",
                        timestamp: Double(1_700_000_000 + index * 3_600)))
                if index % 4 == 0 { try manager.checkItem(withID: item.id) }
            }
        }
        XCTAssertGreaterThan(try Data(contentsOf: fileURL).count, 1 << 20)
        let todo = BinaryRunner(environment: ["TODO_FILE": fileURL.path, "TZ": "UTC"], currentDirectory: temporary.url)
        var limited = todo
        limited.timeout = 60
        // Root is not held to the limit: it runs todo as nobody.
        if getuid() == 0 {
            let nobody: uid_t = 65534
            XCTAssertEqual(chmod(temporary.url.path, 0o755), 0)
            XCTAssertEqual(chown(directory.path, nobody, nobody), 0)
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                XCTAssertEqual(chown(directory.appendingPathComponent(name).path, nobody, nobody), 0)
            }
            limited.launchPrefix = ["/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
        }
        limited.launchPrefix += ["/usr/bin/prlimit", "--nproc=1:1"]

        let expected = try todo.run(["list"])
        XCTAssertEqual(expected.status, 0)
        XCTAssertEqual(try limited.run(["list"]), expected)
        XCTAssertEqual(try limited.run(["show", "6000"]), try todo.run(["show", "6000"]))
        let added = try limited.run(["add", "One more"])
        XCTAssertEqual(added, Outcome(status: 0, stdout: "Added 6001: One more\n", stderr: ""))
        XCTAssertEqual(try limited.run(["add", "One more"]).status, 3)
    }
}
