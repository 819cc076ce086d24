import Foundation
import TestSupport
import ToDoCore
import XCTest

/// Output that cannot be written is an error (exit 1, said on stderr), never a silent success: a
/// backup on a full disk must not look made. A reader that went away (`| head -1`) stays silent.
final class OutputFailureTests: BinaryTestCase {
    private let fullDisk = "Error: cannot write standard output: No space left on device\n"

    override func setUpWithError() throws {
        try super.setUpWithError()
        XCTAssertEqual(try todo.shell("todo add 'Call Mom' && todo add 'Buy milk' && todo check 2").status, 0)
    }

    func test_everyCommandThatPrints_failsOnAFullDevice() throws {
        for command in [
            "todo list", "todo show 1", "todo history", "todo completion bash", "todo export",
            "todo export --format todotxt", "todo list --json", "todo help", "todo --version"
        ] {
            XCTAssertEqual(
                try todo.shell("\(command) > /dev/full"), Outcome(status: 1, stdout: "", stderr: fullDisk), command)
        }
    }

    func test_aClosedStandardOutput_isAnError_andTheOutputGoesNowhereElse() throws {
        let before = try Data(contentsOf: fileURL)
        XCTAssertEqual(
            try todo.shell("todo list >&-"),
            Outcome(status: 1, stdout: "", stderr: "Error: cannot write standard output: Bad file descriptor\n"))
        XCTAssertEqual(try Data(contentsOf: fileURL), before)
        // A change still happens once; what it would have printed lands in no file of the list.
        XCTAssertEqual(try todo.shell("todo add Third >&-").status, 1)
        XCTAssertEqual(
            try JSONFileStore(fileURL: fileURL).load().allItems.map(\.title), ["Call Mom", "Third", "Buy milk"])
        XCTAssertEqual(try todo.shell("todo list 2>&-").status, 0, "a closed standard error, unused, is no failure")
    }

    func test_aReaderThatGoesAway_isNotAnError() throws {
        XCTAssertEqual(
            try todo.shell("todo add -", input: Data((1...3000).map { "Item \($0)\n" }.joined().utf8)).status, 0)
        XCTAssertEqual(
            try todo.run(program: "/bin/bash", ["-c", "todo list | head -1; exit ${PIPESTATUS[0]}"]),
            Outcome(status: 0, stdout: "   1 [ ] Call Mom\n", stderr: ""))
        XCTAssertEqual(
            try todo.run(program: "/bin/bash", ["-c", "todo export | head -c 10 >/dev/null; echo ${PIPESTATUS[0]}"]),
            Outcome(status: 0, stdout: "0\n", stderr: ""))
    }

    /// A real full file system, where the test may mount one (root, and a system that allows it).
    func test_anExportToAFullFileSystem_failsAndLeavesNoTruncatedBackup() throws {
        try XCTSkipUnless(geteuid() == 0, "mounting a small file system needs root; /dev/full covers the rest")
        let mountPoint = directory.file("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        let mount = try todo.run(program: "/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint.path])
        try XCTSkipUnless(mount.status == 0, "cannot mount a tmpfs here: \(mount.stderr)")
        defer { _ = try? todo.run(program: "/bin/umount", [mountPoint.path]) }
        XCTAssertEqual(
            try todo.shell(
                "todo add -", input: Data((1...2000).map { "A longer item title, number \($0)\n" }.joined().utf8)
            ).status, 0)

        let redirected = try todo.shell("todo export > \(mountPoint.path)/backup.json")
        XCTAssertEqual(redirected, Outcome(status: 1, stdout: "", stderr: fullDisk))

        let backup = mountPoint.appendingPathComponent("named.json").path
        let named = try todo.run(["export", "--output", backup])
        XCTAssertEqual(
            named, Outcome(status: 1, stdout: "", stderr: "Error: cannot write \(backup): No space left on device\n"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: backup), "no truncated backup is left")
    }
}
