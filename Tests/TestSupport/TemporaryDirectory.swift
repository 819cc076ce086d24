import Foundation
import XCTest

/// A fresh directory for one test, removed afterwards; tests never touch the real home directory.
public final class TemporaryDirectory {
    public let url: URL

    /// A directory in the system's temporary folder; `inMemory`, in `/dev/shm` where there is one
    /// (a tmpfs: flushing a file to disk costs nothing there), for tests that write thousands of
    /// transactions and test their logic, not the disk.
    public init(inMemory: Bool = false) throws {
        var isFolder: ObjCBool = false
        let memory =
            inMemory && FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder) && isFolder.boolValue
            && FileManager.default.isWritableFile(atPath: "/dev/shm")
        url = (memory ? URL(fileURLWithPath: "/dev/shm", isDirectory: true) : FileManager.default.temporaryDirectory)
            .appendingPathComponent("todo-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    public func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// The names of the files in the directory, hidden ones included, sorted.
    public func contents(of subdirectory: String = "") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(subdirectory).path).sorted()
    }
}

/// Asserts that `expression` throws exactly `expected`.
public func XCTAssertThrowsError<Value, Failure: Error & Equatable>(
    _ expression: @autoclosure () throws -> Value,
    _ expected: Failure,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertThrowsError(try expression(), file: file, line: line) { error in
        XCTAssertEqual(error as? Failure, expected, file: file, line: line)
    }
}

/// The files a store whose list is called `name` leaves in its directory after a change: the list,
/// its history, with `journal` and `index` the journal and index a list over a megabyte keeps,
/// its lock file and, on Linux, the spare that holds the previous list for the next write to reuse.
public func storeFiles(_ name: String = "items.json", journal: Bool = false, index: Bool = false) -> [String] {
    #if os(Linux)
    let files = [".\(name).spare", name, "\(name).history", "\(name).lock"]
    #else
    let files = [name, "\(name).history", "\(name).lock"]
    #endif
    return (files + (journal ? ["\(name).journal"] : []) + (index ? ["\(name).index"] : [])).sorted()
}
