import Foundation
@testable import ToDoCore
import TestSupport
import XCTest

final class FileSystemTests: XCTestCase {
    func test_readFile_readsTheWholeFile_exactlyItsSize() throws {
        let directory = try TemporaryDirectory()
        for size in [0, 1, 4095, 4096, 100_003] {
            let path = directory.url.appendingPathComponent("f\(size)").path
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            XCTAssertEqual(try FileSystem.readFile(at: path), bytes, "size \(size)")
        }
        XCTAssertNil(try FileSystem.readFile(at: directory.url.appendingPathComponent("missing").path))
    }

    #if os(Linux)
    func test_readFile_readsOnPastTheSizeTheFileHadWhenOpened() throws {
        // Files in /proc report a size of 0 and still have contents: the same path as a file that
        // grew between being opened and being read.
        let expected = try XCTUnwrap(FileManager.default.contents(atPath: "/proc/self/mountinfo"))
        XCTAssertGreaterThan(expected.count, 64)
        let read = try XCTUnwrap(try FileSystem.readFile(at: "/proc/self/mountinfo"))
        XCTAssertEqual(String(decoding: read, as: UTF8.self), String(decoding: expected, as: UTF8.self))
    }
    #endif
}
