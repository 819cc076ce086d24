import Foundation
import TestSupport
import ToDoCore
import XCTest

/// A list or history that is not a plain file of a sane size (a FIFO, a device, a huge sparse file)
/// is refused at once with exit 4 naming it: nothing waits on it, and nothing is loaded whole.
final class SpecialFileTests: XCTestCase {
    var temporary: TemporaryDirectory!
    var todo: BinaryRunner!
    var list: URL { temporary.file("items.json") }

    override func setUpWithError() throws {
        temporary = try TemporaryDirectory()
        todo = BinaryRunner(
            environment: ["TODO_FILE": list.path, "TZ": "UTC", "HOME": temporary.url.path, "TODO_LOCK_TIMEOUT": "1"],
            currentDirectory: temporary.url)
        // A hang fails the test in seconds rather than minutes.
        todo.timeout = 20
    }

    override func tearDown() {
        temporary = nil
    }

    private func notRegular(_ path: String) -> Outcome {
        Outcome(
            status: 4, stdout: "",
            stderr:
                "Error: cannot use \(path): it is not a regular file (a FIFO, a device or a socket); nothing was changed\n"
        )
    }

    func test_aFIFOAsTheList_isRefusedAtOnce_forReadingAndChanging() throws {
        XCTAssertEqual(mkfifo(list.path, 0o600), 0)
        for arguments in [["list"], ["add", "x"], ["show", "1"], ["export"]] {
            XCTAssertEqual(try todo.run(arguments), notRegular(list.path), "\(arguments)")
        }
    }

    func test_aFIFOAsTheHistory_isRefusedAtOnce() throws {
        XCTAssertEqual(try todo.run(["add", "x"]).status, 0)
        let history = list.path + ".history"
        XCTAssertEqual(unlink(history), 0)
        XCTAssertEqual(mkfifo(history, 0o600), 0)
        let before = try Data(contentsOf: list)
        for arguments in [["history"], ["undo"], ["add", "y"]] {
            XCTAssertEqual(try todo.run(arguments), notRegular(history), "\(arguments)")
        }
        XCTAssertEqual(try Data(contentsOf: list), before)
    }

    func test_devicesAsTheList_areRefusedAtOnce() throws {
        for device in ["/dev/zero", "/dev/urandom", "/dev/null"] {
            var runner = todo!
            runner.environment["TODO_FILE"] = device
            XCTAssertEqual(try runner.run(["list"]), notRegular(device), device)
        }
    }

    func test_aListLargerThanTheLimit_isRefusedWithoutLoadingIt() throws {
        // A terabyte that takes no disk: sparse.
        XCTAssertTrue(FileManager.default.createFile(atPath: list.path, contents: nil))
        XCTAssertEqual(truncate(list.path, 1 << 40), 0)
        let expected = Outcome(
            status: 4, stdout: "",
            stderr: "Error: cannot read \(list.path): it is \(1 << 40) bytes, more than the \(1 << 30) todo"
                + " reads; the file was left unchanged\n")
        XCTAssertEqual(try todo.run(["list"]), expected)
        XCTAssertEqual(try todo.run(["add", "x"]), expected)
        var status = stat()
        XCTAssertEqual(stat(list.path, &status), 0)
        XCTAssertEqual(status.st_size, 1 << 40)
    }

    func test_aLockTimeoutBeyondAnHour_isAUsageError() throws {
        for value in ["1e17", "3601", "inf", "-1"] {
            var runner = todo!
            runner.environment["TODO_LOCK_TIMEOUT"] = value
            XCTAssertEqual(
                try runner.run(["add", "y"]),
                Outcome(
                    status: 64, stdout: "",
                    stderr: "Error: TODO_LOCK_TIMEOUT is '\(value)'; use a number of seconds from 0 to 3600, as 10\n"),
                value)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: list.path))
    }

    func test_everyFileTodoKeeps_isPrivateAfterEveryChange_evenWhenTheListWasMadeReadable() throws {
        XCTAssertEqual(try todo.run(["add", "A"]).status, 0)
        XCTAssertEqual(try todo.run(["add", "B"]).status, 0)
        XCTAssertEqual(chmod(list.path, 0o644), 0)
        XCTAssertEqual(chmod(list.path + ".history", 0o644), 0)

        for title in ["C", "D"] {
            XCTAssertEqual(try todo.run(["add", title]).status, 0)
            // The old list, readable by others, must not stay behind as the spare.
            for name in try temporary.contents() {
                var status = stat()
                XCTAssertEqual(lstat(temporary.file(name).path, &status), 0)
                XCTAssertEqual(status.st_mode & 0o7777, 0o600, "\(name) after adding \(title)")
            }
        }
        XCTAssertEqual(try temporary.contents(), storeFiles())
    }

    /// Imports read no more than a plain file's bytes within the cap, with a small memory limit
    /// (`ulimit -v`): a FIFO in a vdir, a device, a device by a link and endless standard input
    /// end with exit 1 at once (before: a FIFO hung for ever, and `/dev/zero` read until the
    /// process died, exit 134 at 1.3 GB).
    func test_importsOfDevicesFIFOsAndEndlessInput_endAtOnce_withinAMemoryLimit() throws {
        let folder = temporary.url.appendingPathComponent("vdir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        XCTAssertEqual(mkfifo(folder.appendingPathComponent("b.ics").path, 0o600), 0)
        try FileManager.default.createSymbolicLink(
            atPath: temporary.url.appendingPathComponent("zero.ics").path, withDestinationPath: "/dev/zero")
        // 1 GB of address space: far more than todo needs, far less than reading without end takes.
        let script = """
            ulimit -v 1048576
            todo import vdir; echo "vdir $?"
            todo import /dev/zero; echo "zero $?"
            todo import zero.ics; echo "link $?"
            TODO_IMPORT_MAX_MB=1 todo import - --format todotxt < /dev/zero; echo "stdin $?"
            """
        let outcome = try todo.shell(script)
        XCTAssertEqual(outcome.stdout, "vdir 1\nzero 1\nlink 1\nstdin 1\n", outcome.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: list.path), "nothing was imported")
    }
}
