import Foundation
import TestSupport
import ToDoCore
import XCTest

/// A write that fails half-way, as on a full disk, changes nothing and leaves nothing behind. The
/// shell's file size limit makes writes past it fail with EFBIG; ignoring SIGXFSZ, which survives
/// `exec`, turns the signal into that error.
final class DiskFullTests: XCTestCase {
    func test_aWriteThatRunsOutOfSpace_leavesTheOldFileAndNoTemporaryFile() throws {
        let directory = try TemporaryDirectory()
        let file = directory.file("items.json")
        let shell = BinaryRunner(
            environment: ["TODO_FILE": file.path, "HOME": directory.url.path, "TZ": "UTC"],
            currentDirectory: directory.url)
        XCTAssertEqual(try shell.shell("todo add -", input: lines(count: 50)).status, 0)
        let before = try Data(contentsOf: file)

        // 64 blocks of 512 bytes: the current file fits, the file with 2,000 more items does not.
        let full = try shell.shell("trap '' XFSZ; ulimit -f 64; todo add -", input: lines(count: 2_000, from: 50))

        // The history's line is written first, so it is what runs out of space.
        XCTAssertEqual(
            full, Outcome(status: 1, stdout: "", stderr: "Error: cannot write \(file.path).history: File too large\n"))
        XCTAssertEqual(try Data(contentsOf: file), before)
        XCTAssertEqual(try directory.contents(), ["items.json", "items.json.history", "items.json.lock"])
        XCTAssertEqual(
            try JSONFileStore(fileURL: file).history().entries.map(\.number), [1], "no trace of the failed change")
        XCTAssertEqual(
            try shell.shell("todo add -", input: lines(count: 2_000, from: 50)).status, 0,
            "with space again, the same change succeeds")
        XCTAssertEqual(try JSONFileStore(fileURL: file).load().allItems.count, 2_050)
    }

    private func lines(count: Int, from start: Int = 0) -> Data {
        Data((start..<(start + count)).map { "Item number \($0) of a list that grows\n" }.joined().utf8)
    }
}
